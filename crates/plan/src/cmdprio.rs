//! Per-I/O priorities of the libaio and io_uring engines: fio's `cmdprio_percentage`,
//! `cmdprio_class`, `cmdprio` and `cmdprio_bssplit`.
//!
//! Each read or write is given a priority of its own, or none (it then has the job thread's,
//! `prio`/`prioclass` or the system's default):
//!
//! - `cmdprio_percentage=P[,P]`: P% of the reads (writes) at random get class
//!   `cmdprio_class` (default 1, real time) and level `cmdprio` (default 0).
//! - `cmdprio_bssplit=BS/P[:BS/P…][,…]`: P% of the I/Os of length BS get that priority;
//!   `BS/P/CLASS/LEVEL` gives each entry its own class and level. It excludes
//!   `cmdprio_percentage`.
//!
//! Trims and syncs never get one, as in fio. The choice is drawn (by the runner's `cmdprio`)
//! from fio 3.33's stream 19 of the job, as fio draws it, so a job gives the same I/Os the
//! priority as fio does (`docs/random.md`). The report then shows, per direction that used
//! more than one priority, the completion latency of each (the total latency with
//! `lat_percentiles`), as fio 3.33 does (see `iomark_stats::report::PrioStats`).

use crate::error::OptionError;
use iomark_engine::thread::{ioprio_class, ioprio_value};
use iomark_options::keys::{self, Key};
use iomark_options::value::cmdprio::read_cmdprio_bssplit;
use iomark_options::value::Ctx;
use iomark_options::JobSpec;

/// How the I/Os of one direction get their priority.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// None gets one.
    None,
    /// `percent`% of them get `value`.
    Percent {
        /// The share that gets it.
        percent: u32,
        /// The priority value (class and level, as the kernel packs them).
        value: u16,
    },
    /// Per block size: (length, percent, value).
    Split(Vec<SplitEntry>),
}

/// One entry of `cmdprio_bssplit`: I/O length, percent, priority value.
pub type SplitEntry = (u64, u32, u16);

/// A job's per-I/O priorities.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CmdPrio {
    /// Reads, writes.
    pub rules: [Rule; 2],
    /// The priorities the job's I/Os may have: first the job's own (its `prio`/`prioclass`,
    /// 0 for the system's default), then each one the rules give, without repeats.
    pub values: Vec<u16>,
    /// The report shows total latency per priority (`lat_percentiles`), not completion
    /// latency.
    pub total_latency: bool,
}

impl CmdPrio {
    /// The `cmdprio_*` options of `spec`, if any gives an I/O a priority; `job_prio` is the
    /// job's own (class, level), if set.
    pub fn of(
        spec: &JobSpec,
        job_prio: Option<(u32, u32)>,
    ) -> Result<Option<CmdPrio>, OptionError> {
        let per_dir = |key: Key<[Option<i64>; 3]>, default: i64, max: i64| {
            let v = spec.given(key).unwrap_or([None; 3]);
            let mut out = [default as u32; 2];
            for (d, given) in v.iter().take(2).enumerate() {
                match given {
                    Some(n) if (0..=max).contains(n) => out[d] = *n as u32,
                    Some(n) => {
                        return Err(OptionError::new(key, format!("{n} is out of range 0-{max}")))
                    }
                    None => {}
                }
            }
            Ok(out)
        };
        let percent = per_dir(keys::CMDPRIO_PERCENTAGE, 0, 100)?;
        let class = per_dir(keys::CMDPRIO_CLASS, i64::from(ioprio_class::REALTIME), 3)?;
        let level = per_dir(keys::CMDPRIO, 0, 7)?;
        if class.contains(&0) {
            return Err(OptionError::new(keys::CMDPRIO_CLASS, "0 is out of range 1-3"));
        }
        let split = spec.get(keys::CMDPRIO_BSSPLIT).filter(|s| !s.is_empty());
        if split.is_some() && spec.is_set(keys::CMDPRIO_PERCENTAGE) {
            return Err(OptionError::about(
                keys::CMDPRIO_BSSPLIT,
                "options 'cmdprio_bssplit' and 'cmdprio_percentage' exclude each other",
            ));
        }
        let rules = match &split {
            Some(text) => {
                let kb = spec.get(keys::KB_BASE).and_then(|c| c.name.parse().ok()).unwrap_or(1024);
                let parsed =
                    parse_bssplit(text, &Ctx { kb_base: kb }, class, level).map_err(|e| {
                        OptionError::new(keys::CMDPRIO_BSSPLIT, format!("'{text}': {e}"))
                    })?;
                parsed.map(|entries| {
                    // fio 3.33 gives no I/O a priority when every share is 0.
                    if entries.iter().all(|e| e.1 == 0) {
                        Rule::None
                    } else {
                        Rule::Split(entries)
                    }
                })
            }
            None => [0, 1].map(|d| match percent[d] {
                0 => Rule::None,
                p => Rule::Percent { percent: p, value: ioprio_value(class[d], level[d]) },
            }),
        };
        if rules.iter().all(|r| *r == Rule::None) {
            return Ok(None);
        }
        let own = job_prio.map_or(0, |(c, l)| ioprio_value(c, l));
        let mut values = vec![own];
        for v in rules.iter().flat_map(Rule::values) {
            if !values.contains(&v) {
                values.push(v);
            }
        }
        Ok(Some(CmdPrio { rules, values, total_latency: spec.flag(keys::LAT_PERCENTILES) }))
    }

    /// The priorities the I/Os of each direction (reads, writes, trims) may have, as fio
    /// 3.33 lists them in its report: the job's own first, then those the direction's rule
    /// gives, in the order written, without repeats. Trims have only the job's own.
    pub fn listed(&self) -> [Vec<u16>; 3] {
        let own = self.values.first().copied().unwrap_or(0);
        let mut out = [vec![own], vec![own], vec![own]];
        for (list, rule) in out.iter_mut().zip(&self.rules) {
            for v in rule.values() {
                if !list.contains(&v) {
                    list.push(v);
                }
            }
        }
        out
    }
}

impl Rule {
    /// The priorities this rule gives, in the order written.
    fn values(&self) -> Vec<u16> {
        match self {
            Rule::None => Vec::new(),
            Rule::Percent { value, .. } => vec![*value],
            Rule::Split(entries) => entries.iter().map(|e| e.2).collect(),
        }
    }
}

/// `cmdprio_bssplit`'s entries per direction (read, and its leniency noted, when the job
/// was parsed), each with its priority value: its own class and level, checked, or the
/// direction's `cmdprio_class` and `cmdprio`.
fn parse_bssplit(
    text: &str,
    ctx: &Ctx,
    class: [u32; 2],
    level: [u32; 2],
) -> Result<[Vec<SplitEntry>; 2], String> {
    let (dirs, _) = read_cmdprio_bssplit(text, ctx).map_err(|e| e.to_string())?;
    let mut out = [Vec::new(), Vec::new()];
    for (d, entries) in dirs.iter().enumerate() {
        for e in entries {
            let value = match e.prio {
                None => ioprio_value(class[d], level[d]),
                Some((c, l)) => {
                    if !(1..=3).contains(&c) {
                        return Err(format!("class {c} of the {} entry (1-3)", e.bs));
                    }
                    if !(0..=7).contains(&l) {
                        return Err(format!("level {l} of the {} entry (0-7)", e.bs));
                    }
                    ioprio_value(c as u32, l as u32)
                }
            };
            out[d].push((e.bs, e.percent, value));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(args: &str) -> Result<Option<CmdPrio>, String> {
        let mut all = vec!["ioengine=libaio"];
        all.extend(args.split_whitespace());
        CmdPrio::of(&crate::test_spec(&all)?, None).map_err(|e| e.message)
    }

    #[test]
    fn percentages_give_the_highest_class_by_default() {
        let p = of("cmdprio_percentage=30").unwrap().unwrap();
        assert_eq!(p.values, [0, ioprio_value(1, 0)]);
        let p = of("cmdprio_percentage=50,20 cmdprio_class=2 cmdprio=1").unwrap().unwrap();
        assert_eq!(p.values, [0, ioprio_value(2, 1)]);
        assert_eq!(of("cmdprio_percentage=0").unwrap(), None);
        assert!(of("cmdprio_percentage=101").unwrap_err().contains("out of range"));
    }

    #[test]
    fn bssplit_lists_its_priorities_and_refuses_bad_entries() {
        let p = of("cmdprio_bssplit=4k/100:64k/0/2/5,8k/100/3/0").unwrap().unwrap();
        assert_eq!(p.values, [0, ioprio_value(1, 0), ioprio_value(2, 5), ioprio_value(3, 0)]);
        let listed = [vec![0, ioprio_value(1, 0), ioprio_value(2, 5)], vec![0, ioprio_value(3, 0)]];
        assert_eq!(p.listed(), [listed[0].clone(), listed[1].clone(), vec![0]]);
        assert!(of("cmdprio_bssplit=4k/50 cmdprio_percentage=10").is_err());
        assert!(of("cmdprio_bssplit=4k/50/0/1").unwrap_err().contains("class 0"));
        // Read as fio 3.33 reads it (noted when parsed): a share that is no number is 0.
        assert_eq!(of("cmdprio_bssplit=4k/x").unwrap(), None);
    }
}
