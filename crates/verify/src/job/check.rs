//! Checking a block read back against the write it is for, and the report of a bad one:
//! a chunk that does not check (see [`crate::block`]), or a trimmed block that is not all
//! zeros.

use super::report;
use super::trim::{first_nonzero, Trimmed};
use super::written::Written;
use crate::block::{Expect, Method, Mismatch};
use crate::plan::VerifyPlan;

/// What is wrong with a block read back.
#[derive(Debug, Clone)]
pub(super) enum Bad {
    /// A chunk does not check (the first bad one; boxed, as only a failure builds it).
    Chunk(Box<Mismatch>),
    /// A trimmed block is not all zeros: the offset of its first other byte.
    NotZero(usize),
}

/// Checks block `buf` read back for write `w` (`seed`: the writes' seed, when checked).
#[inline]
pub(super) fn check_block(
    plan: &VerifyPlan,
    seed: Option<u64>,
    w: &Written,
    buf: &mut [u8],
) -> Result<(), Bad> {
    if w.trimmed != Trimmed::No {
        // `verify=null` only pretends, trimmed blocks too (fio 3.33 reads them back on the
        // null engine and finds nothing wrong).
        if plan.format.method == Method::Null {
            return Ok(());
        }
        return first_nonzero(buf).map_or(Ok(()), |at| Err(Bad::NotZero(at)));
    }
    plan.format.check(buf, w.offset, &expect(plan, seed, w)).map_err(|m| Bad::Chunk(Box::new(m)))
}

/// The report of bad block `buf`, read back for write `w` of file `name`.
pub(super) fn bad_report(
    plan: &VerifyPlan,
    seed: Option<u64>,
    name: &str,
    w: &Written,
    buf: &[u8],
    bad: Bad,
) -> String {
    match bad {
        Bad::Chunk(first) => report::failure(plan, name, w, buf, *first, &expect(plan, seed, w)),
        Bad::NotZero(at) => trim_failure(name, w, at),
    }
}

/// What a read back of write `w` must find: the writes' seed (`None` when not checked)
/// and, with `verify_write_sequence`, its number.
fn expect(plan: &VerifyPlan, seed: Option<u64>, w: &Written) -> Expect {
    Expect { seed, numberio: plan.write_sequence.then_some(w.numberio) }
}

/// The report of a trimmed block that did not read back as zeros (`at`: its first
/// non-zero byte), in fio 3.33's words.
fn trim_failure(file: &str, w: &Written, at: usize) -> String {
    format!(
        "trim: verify failed at file {file} offset {}, length {}, block offset {at}\n",
        w.offset, w.len
    )
}
