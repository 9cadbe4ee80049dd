//! The verify options of a job, resolved and checked (`verify` and its companions).

use crate::get;
use iomark_options::value::Value;
use iomark_options::JobSpec;

/// The most `verify_async` helper threads a job may ask for (fio 3.33 sets no limit; a
/// thousand verifiers per job is already more than any machine keeps busy).
const MAX_HELPERS: u64 = 1024;
use iomark_workload::verify::{Method, VerifyFormat, VerifyPattern, HEADER_LEN};

/// How a job verifies what it writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyPlan {
    /// Block layout: method, `verify_interval`, `verify_offset`, `verify_pattern`.
    pub format: VerifyFormat,
    /// `do_verify`: read everything back after the writes.
    pub do_verify: bool,
    /// `verify_only`: write nothing, check what an earlier run of the job wrote.
    pub verify_only: bool,
    /// `verify_fatal`: stop at a block's first bad chunk (otherwise every chunk of the bad
    /// block is reported).
    pub fatal: bool,
    /// `verify_dump`: write the received and expected block to files.
    pub dump: bool,
    /// `verify_backlog`: verify after this many writes (0: only at the end).
    pub backlog: u64,
    /// `verify_backlog_batch`: how many blocks to verify then (default `verify_backlog`).
    pub backlog_batch: u64,
    /// `verify_write_sequence`: check each header's write number.
    pub write_sequence: bool,
    /// `verify_state_save`: write the state file when the job ends.
    pub state_save: bool,
    /// `verify_state_load`: with `verify_only`, verify only the writes the state file says
    /// were done.
    pub state_load: bool,
    /// `continue_on_error=verify|all`: keep verifying after a bad block.
    pub continue_on_error: bool,
    /// `verify_async`: how many helper threads check the blocks read back (0: the job's
    /// own thread checks them).
    pub async_threads: u32,
    /// `verify_async_cpus`: the CPUs the helper threads may run on, if restricted.
    pub async_cpus: Option<Vec<u32>>,
    /// The job only reads (`rw=read` or `randread`): each of its reads is checked as it
    /// completes, whatever `do_verify` says, as fio 3.33 does. The blocks were written
    /// by another run, so their seed and write number are not checked.
    pub reads_only: bool,
    /// `trim_percentage` and its companions, when the job trims some of its writes.
    pub trim: Option<TrimPlan>,
}

/// Which written blocks a verifying job trims, and when (`trim_percentage`, `trim_backlog`,
/// `trim_backlog_batch`, `trim_verify_zero`; see [`super::trim`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrimPlan {
    /// `trim_percentage`: the share of logged writes chosen for trimming, 1 to 100.
    pub percentage: u32,
    /// `trim_backlog`: trim when the count of writes not yet verified is a multiple of this.
    pub backlog: u64,
    /// `trim_backlog_batch` (default `trim_backlog`): the trims of a batch after its first.
    pub batch: u64,
    /// `trim_verify_zero`: verify trimmed blocks as zeros (otherwise they are not read back).
    pub verify_zero: bool,
}

impl TrimPlan {
    /// The trim plan of `spec`: `None` unless both `trim_percentage` and `trim_backlog` are
    /// set, since fio 3.33 trims nothing otherwise.
    fn of(spec: &JobSpec) -> Option<TrimPlan> {
        let percentage = get::int(spec, "trim_percentage").unwrap_or(0).min(100) as u32;
        let backlog = get::int(spec, "trim_backlog").unwrap_or(0);
        if percentage == 0 || backlog == 0 {
            return None;
        }
        Some(TrimPlan {
            percentage,
            backlog,
            batch: match get::int(spec, "trim_backlog_batch") {
                Some(n) if n > 0 => n,
                _ => backlog,
            },
            verify_zero: get::flag(spec, "trim_verify_zero"),
        })
    }
}

impl VerifyPlan {
    /// Whether a block's seed and write number are known (it was written by this run).
    pub fn knows_writes(&self) -> bool {
        !self.verify_only && !self.reads_only
    }

    /// Whether the job issues trims of its written blocks (`trim_percentage`); under
    /// `verify_only` they are only marked, as its writes are only logged.
    pub fn trims(&self) -> bool {
        self.trim.is_some() && self.do_verify && !self.verify_only
    }

    /// The verify plan of `spec` (`None` when the job does not verify), for blocks of at
    /// least `min_bs` bytes. Errors name the option.
    pub fn of(spec: &JobSpec, min_bs: u64) -> Result<Option<VerifyPlan>, String> {
        let given = |name: &str| spec.value(name).is_some();
        let pattern = match get::text(spec, "verify_pattern").filter(|_| given("verify_pattern")) {
            Some(text) => Some(
                VerifyPattern::parse(&text, |name: &str| std::fs::read(name))
                    .map_err(|e| format!("option 'verify_pattern': '{text}': {e}"))?,
            ),
            None => None,
        };
        let name = get::choice(spec, "verify").map_or("0", |c| c.0);
        let method = match (Method::from_name(name), pattern) {
            (Some(m), _) => m,
            // fio 3.33: verify_pattern alone verifies the pattern under a header (type 17).
            (None, Some(_)) => Method::PatternHdr,
            (None, None) => return Ok(None),
        };
        if matches!(method, Method::Pattern | Method::PatternHdr) && pattern.is_none() {
            return Err(format!("option 'verify': verify={name} needs 'verify_pattern'"));
        }
        let interval = get::int(spec, "verify_interval").filter(|_| given("verify_interval"));
        let header_offset = get::int(spec, "verify_offset").unwrap_or(0);
        let format = VerifyFormat {
            method,
            interval: interval.unwrap_or(0) as usize,
            header_offset: header_offset as usize,
            pattern,
        };
        let total = format.header_total() as u64;
        if let Some(i) = interval {
            if i < total.max(HEADER_LEN as u64) || i > min_bs {
                return Err(format!(
                    "option 'verify_interval': {i} must hold the {total}-byte header of \
                     verify={name} and be no larger than the smallest block size ({min_bs})"
                ));
            }
        }
        let chunk = interval.unwrap_or(min_bs);
        if total > 0 && header_offset + total > chunk {
            return Err(format!(
                "option 'verify_offset': {header_offset} leaves no room for the {total}-byte \
                 header in a {chunk}-byte block"
            ));
        }
        let backlog = get::int(spec, "verify_backlog").unwrap_or(0);
        let verify_only = get::flag(spec, "verify_only");
        let reads_only = matches!(get::choice(spec, "rw").map(|c| c.0), Some("read" | "randread"))
            && !given("read_iolog");
        let write_sequence = if given("verify_write_sequence") {
            get::flag(spec, "verify_write_sequence") && !reads_only
        } else {
            !verify_only && !reads_only
        };
        let coe = get::choice(spec, "continue_on_error").map_or("none", |c| c.0);
        let async_threads = get::int(spec, "verify_async").unwrap_or(0);
        if async_threads > MAX_HELPERS {
            return Err(format!(
                "option 'verify_async': {async_threads} threads is more than iomark starts \
                 for one job ({MAX_HELPERS})"
            ));
        }
        let async_cpus = match spec.value("verify_async_cpus") {
            Some(Value::Cpus(cpus)) => {
                Some(crate::placement::check_cpus("verify_async_cpus", cpus)?)
            }
            _ => None,
        };
        Ok(Some(VerifyPlan {
            format,
            do_verify: get::flag(spec, "do_verify") || verify_only,
            verify_only,
            fatal: get::flag(spec, "verify_fatal"),
            dump: get::flag(spec, "verify_dump"),
            backlog,
            backlog_batch: match get::int(spec, "verify_backlog_batch") {
                Some(n) if n > 0 => n,
                _ => backlog,
            },
            write_sequence,
            state_save: get::flag(spec, "verify_state_save"),
            state_load: get::flag(spec, "verify_state_load"),
            continue_on_error: matches!(coe, "verify" | "all" | "1"),
            async_threads: async_threads as u32,
            async_cpus,
            reads_only,
            trim: TrimPlan::of(spec),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(args: &[&str]) -> Result<Option<VerifyPlan>, String> {
        VerifyPlan::of(&crate::get::test_spec(args).expect("valid job"), 4096)
    }

    #[test]
    fn verify_async_and_its_cpus_are_planned() {
        let p = plan(&["verify=md5"]).unwrap().unwrap();
        assert_eq!((p.async_threads, p.async_cpus), (0, None));
        let p = plan(&["verify=md5", "verify_async=3", "verify_async_cpus=0"]).unwrap().unwrap();
        assert_eq!((p.async_threads, p.async_cpus), (3, Some(vec![0])));
    }

    #[test]
    fn verify_async_values_beyond_the_system_are_refused_by_name() {
        // The first CPU this system lacks (lists stop at 1023).
        let lacking = iomark_engine::thread::configured_cpus();
        if lacking < 1024 {
            let err = plan(&["verify=md5", &format!("verify_async_cpus={lacking}")]).unwrap_err();
            let want = format!("option 'verify_async_cpus': CPU {lacking} is beyond");
            assert!(err.starts_with(&want), "{err}");
        }
        let err = plan(&["verify=md5", "verify_async=5000"]).unwrap_err();
        assert!(err.starts_with("option 'verify_async': 5000 threads"), "{err}");
    }
}
