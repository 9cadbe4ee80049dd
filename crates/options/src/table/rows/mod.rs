//! The rows of the option table, in the order of fio 3.33's `fio --cmdhelp=all`.
//!
//! The rows live in a few files that follow one another in that order; [`ROWS`] joins them
//! at compile time. Each row is built with the small `const fn` builders of [`OptionDef`]:
//! `opt(name, kind, category, help)`, then `.alias(..)`, `.default(..)`, `.engines(..)` and
//! `.supported(long_help)` where they apply. After fio's 217 listed options come the four that
//! fio accepts but leaves out of `--cmdhelp=all`, then the engine-specific options.

mod engines;
mod logs_report;
mod rate_sync_jobs;
mod run_verify_zones;
mod workload;

use super::{Category, OptionDef};
use crate::kind::{Choice, ChoiceArg, Kind, TimeUnit};

/// The largest value of an integer option that fio leaves unbounded (`max=-1` in `--cmdhelp`).
const NOLIMIT: i64 = i64::MAX;

/// A row that is not supported yet, has no alias, no default and belongs to no engine.
const fn opt(name: &'static str, kind: Kind, category: Category, help: &'static str) -> OptionDef {
    OptionDef::new(name, kind, category, help)
}

/// An enum value that takes nothing after a `:`.
const fn ch(name: &'static str, help: &'static str) -> Choice {
    Choice { name, help, arg: ChoiceArg::None }
}

/// A whole number in `min..=max`.
const fn int(min: i64, max: i64) -> Kind {
    Kind::Int { min, max }
}

/// The parts, in order.
const PARTS: [&[OptionDef]; 5] = [
    workload::ROWS,
    run_verify_zones::ROWS,
    rate_sync_jobs::ROWS,
    logs_report::ROWS,
    engines::ROWS,
];

/// How many rows there are in all.
const COUNT: usize = {
    let mut n = 0;
    let mut p = 0;
    while p < PARTS.len() {
        n += PARTS[p].len();
        p += 1;
    }
    n
};

/// Every option, the parts joined.
pub(super) static ROWS: [OptionDef; COUNT] = {
    let mut out = [PARTS[0][0]; COUNT];
    let mut k = 0;
    let mut p = 0;
    while p < PARTS.len() {
        let mut i = 0;
        while i < PARTS[p].len() {
            out[k] = PARTS[p][i];
            k += 1;
            i += 1;
        }
        p += 1;
    }
    out
};
