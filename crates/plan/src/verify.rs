//! The verify options of a job, resolved and checked (`verify` and its companions), with
//! what verification needs to know of the rest of the job ([`VerifyJob`]): the plan reads
//! the verify crate's [`VerifyPlan`], never the other way round.

use crate::error::OptionError;
use crate::placement::check_cpus;
use crate::plan::JobPlan;
use crate::workload::WorkloadPlan;
use iomark_core::{Ddir, RwMode};
use iomark_options::keys;
use iomark_options::JobSpec;
use iomark_verify::{Method, TrimPlan, VerifyFormat, VerifyJob, VerifyPattern, VerifyPlan};
use iomark_workload::FioSeeds;

/// The trim plan of `spec`: `None` unless both `trim_percentage` and `trim_backlog` are
/// set, since fio 3.33 trims nothing otherwise.
fn trim_plan(spec: &JobSpec, seeds: FioSeeds) -> Option<TrimPlan> {
    let percentage = spec.get(keys::TRIM_PERCENTAGE).unwrap_or(0).min(100) as u32;
    let backlog = spec.get(keys::TRIM_BACKLOG).unwrap_or(0);
    if percentage == 0 || backlog == 0 {
        return None;
    }
    Some(TrimPlan {
        percentage,
        backlog,
        batch: match spec.get(keys::TRIM_BACKLOG_BATCH) {
            Some(n) if n > 0 => n,
            _ => backlog,
        },
        verify_zero: spec.flag(keys::TRIM_VERIFY_ZERO),
        seeds,
    })
}

/// The verify plan of `spec`, the rest of whose plan is `plan` (`None` when the job does
/// not verify). Errors name the option.
pub(crate) fn of(spec: &JobSpec, plan: &JobPlan) -> Result<Option<VerifyPlan>, OptionError> {
    let min_bs = plan.workload.min_block_sizes()[1];
    let pattern = match spec.given(keys::VERIFY_PATTERN) {
        Some(text) => Some(
            VerifyPattern::parse(&text, |name: &str| std::fs::read(name))
                .map_err(|e| OptionError::new(keys::VERIFY_PATTERN, format!("'{text}': {e}")))?,
        ),
        None => None,
    };
    let name = spec.get(keys::VERIFY).map_or("0", |c| c.name);
    let method = match (Method::from_name(name), pattern) {
        (Some(m), _) => m,
        // fio 3.33: verify_pattern alone verifies the pattern under a header (type 17).
        (None, Some(_)) => Method::PatternHdr,
        (None, None) => return Ok(None),
    };
    if matches!(method, Method::Pattern | Method::PatternHdr) && pattern.is_none() {
        let why = format!(
            "verify={name} needs 'verify_pattern' (fio 3.33 aborts on an assertion without it)"
        );
        return Err(OptionError::new(keys::VERIFY, why));
    }
    let given = spec.given(keys::VERIFY_INTERVAL);
    let reads = [RwMode::Read, RwMode::RandRead].contains(&plan.workload.rw)
        || plan.workload.rw.issues(Ddir::Read);
    let interval = header_interval(given, &plan.workload, reads);
    let header_offset = spec.get(keys::VERIFY_OFFSET).unwrap_or(0);
    let format = VerifyFormat {
        method,
        interval: interval as usize,
        header_offset: header_offset as usize,
        pattern,
    };
    let total = format.header_total() as u64;
    let chunk = if interval == 0 { min_bs } else { interval };
    if total > chunk {
        let what = if given.is_some() { "chunks" } else { "blocks" };
        let why = format!(
            "the {total}-byte header of verify={name} does not fit in {chunk}-byte {what} \
             (fio 3.33 fails the job: \"Blocksize too small\")"
        );
        return Err(match given {
            Some(_) => OptionError::new(keys::VERIFY_INTERVAL, why),
            None => OptionError::new(keys::VERIFY, why),
        });
    }
    if total > 0 && header_offset + total > chunk {
        let why = format!(
            "{header_offset} leaves no room for the {total}-byte header in a {chunk}-byte block \
             (fio 3.33 writes such blocks and then fails to verify its own writes)"
        );
        return Err(OptionError::new(keys::VERIFY_OFFSET, why));
    }
    let backlog = spec.get(keys::VERIFY_BACKLOG).unwrap_or(0);
    let verify_only = spec.flag(keys::VERIFY_ONLY);
    let reads_only = matches!(plan.workload.rw, RwMode::Read | RwMode::RandRead)
        && !spec.is_set(keys::READ_IOLOG);
    let write_sequence = if spec.is_set(keys::VERIFY_WRITE_SEQUENCE) {
        spec.flag(keys::VERIFY_WRITE_SEQUENCE) && !reads_only
    } else {
        !verify_only && !reads_only
    };
    let coe = spec.get(keys::CONTINUE_ON_ERROR).map_or("none", |c| c.name);
    let async_threads = spec.get(keys::VERIFY_ASYNC).unwrap_or(0);
    let async_cpus = match spec.given(keys::VERIFY_ASYNC_CPUS) {
        Some(cpus) => Some(check_cpus(keys::VERIFY_ASYNC_CPUS, cpus)?),
        None => None,
    };
    let do_verify = spec.flag(keys::DO_VERIFY) || verify_only;
    Ok(Some(VerifyPlan {
        format,
        do_verify,
        verify_only,
        fatal: spec.flag(keys::VERIFY_FATAL),
        dump: spec.flag(keys::VERIFY_DUMP),
        backlog,
        backlog_batch: match spec.get(keys::VERIFY_BACKLOG_BATCH) {
            Some(n) if n > 0 => n,
            _ => backlog,
        },
        write_sequence,
        state_save: spec.flag(keys::VERIFY_STATE_SAVE),
        state_load: spec.flag(keys::VERIFY_STATE_LOAD),
        continue_on_error: matches!(coe, "verify" | "all" | "1"),
        async_threads: u32::try_from(async_threads).unwrap_or(u32::MAX),
        async_cpus,
        reads_only,
        trim: trim_plan(spec, plan.seeds.fio),
        job: job(plan, do_verify),
    }))
}

/// What verification needs to know of job `p` (`do_verify`: it reads its writes back).
fn job(p: &JobPlan, do_verify: bool) -> VerifyJob {
    let min_bs = min_block(p).max(1);
    let limits = &p.limits;
    VerifyJob {
        name: p.job.name.clone(),
        jobnum: p.job.jobnum,
        state_dir: None,
        file_names: p.files.list.iter().map(|f| f.path.display().to_string()).collect(),
        depth: p.engine.iodepth,
        max_bs: p.max_block_size(),
        grain: grain_of(p),
        writes: limits.io_bytes.saturating_mul(limits.loops.max(1)) / min_bs + 1,
        trimwrite: p.workload.trimwrite(),
        seed: p.seeds.verify,
        thread: (p.job.thread_number + 1) as u16,
        each_pass: do_verify && each_pass(p),
    }
}

/// The smallest block size a job writes.
fn min_block(p: &JobPlan) -> u64 {
    p.workload.min_block_sizes()[1]
}

/// The bytes each verify header covers (0: the whole block), as fio 3.33 lays them out
/// (learned from the files it writes): `given` (`verify_interval`), or the smallest write
/// size when write sizes vary, else the whole block; no larger than the smallest write
/// size, nor, in a job that `reads`, than the smallest read size; and a divisor of the
/// greatest common divisor of the smallest and largest write sizes, which it becomes
/// otherwise (`bs=4k` with `verify_interval=1536` has one header per block, `bsrange=6k-8k`
/// one per 2 KiB).
fn header_interval(given: Option<u64>, w: &WorkloadPlan, reads: bool) -> u64 {
    let (min, max) = (w.min_block_sizes(), w.max_block_sizes());
    let mut interval = match given {
        Some(i) => i,
        None if min[1] != max[1] => min[1],
        None => return 0,
    };
    if interval > min[1] {
        interval = min[1];
    } else if reads && interval > min[0] {
        interval = min[0];
    }
    let whole = gcd(min[1], max[1]);
    if interval == 0 || whole % interval != 0 {
        interval = whole;
    }
    interval
}

/// Whether job `p`, which reads its writes back, verifies after each pass over its files
/// (see `passes.rs` in the verify crate): where a pass covers the files once.
fn each_pass(p: &JobPlan) -> bool {
    let covering = match p.workload.rw {
        RwMode::Write | RwMode::TrimWrite => true,
        // The random map of the workload (off with `blockalign`).
        RwMode::RandWrite | RwMode::RandTrimWrite => p.workload.random_map(),
        _ => false,
    };
    covering
        && !p.limits.time_based
        && p.workload.rw_modifier.is_none()
        && p.replay.is_none()
        && !p.files.unlink_each_loop
}

/// The largest size that divides the offset and length of every write of job `p` (and
/// so the grain of the verify crate's table of newest writes): block sizes, `blockalign`,
/// the files' start offsets, the `rw=write:N` skip and the strided zones.
fn grain_of(p: &JobPlan) -> u64 {
    let (w, d) = (&p.workload, 1);
    let mut g = w.bs[d];
    if let Some(split) = &w.bssplit[d] {
        g = split.iter().fold(0, |g, e| gcd(g, e.bs));
    } else if let Some((lo, _)) = w.bsrange[d] {
        g = if w.bs_unaligned { 1 } else { lo };
    }
    if let Some(align) = w.blockalign {
        g = gcd(g, align[d]);
    }
    for f in &p.files.list {
        g = gcd(g, f.offset);
    }
    // A sequential `rw=write:N` leaves N bytes between writes (random modes count I/Os).
    if let Some(skip) = w.rw_modifier.filter(|_| !w.random()) {
        g = gcd(g, skip);
    }
    if let Some(z) = &w.zones {
        g = [z.size, z.range, z.skip].into_iter().fold(g, gcd);
    }
    if p.replay.is_some() {
        g = 1;
    }
    g.max(1)
}

/// The greatest common divisor of `a` and `b`.
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(args: &[&str]) -> Result<Option<VerifyPlan>, String> {
        let mut all = vec!["ioengine=null", "size=64k"];
        all.extend_from_slice(args);
        let spec = crate::test_spec(&all).expect("valid job");
        let p = JobPlan::new(&spec, 0, 0, &Default::default()).map_err(|e| e.message)?;
        Ok(p.verify)
    }

    #[test]
    fn verify_async_and_its_cpus_are_planned() {
        let p = plan(&["verify=md5"]).unwrap().unwrap();
        assert_eq!((p.async_threads, p.async_cpus), (0, None));
        let p = plan(&["verify=md5", "verify_async=3", "verify_async_cpus=0"]).unwrap().unwrap();
        assert_eq!((p.async_threads, p.async_cpus), (3, Some(vec![0])));
    }

    #[test]
    fn verify_async_cpus_beyond_the_system_are_refused_by_name() {
        // The first CPU this system lacks (lists stop at 1023).
        let lacking = iomark_engine::thread::configured_cpus();
        if lacking < 1024 {
            let err = plan(&["verify=md5", &format!("verify_async_cpus={lacking}")]).unwrap_err();
            let want = format!("option 'verify_async_cpus': CPU {lacking} is beyond");
            assert!(err.starts_with(&want), "{err}");
        }
        // As many helpers as asked (fio 3.33 starts 5000 too); a thread the system refuses
        // fails the job when it starts.
        let p = plan(&["verify=md5", "verify_async=5000"]).unwrap().unwrap();
        assert_eq!(p.async_threads, 5000);
    }

    #[test]
    fn what_verification_needs_of_the_job_is_resolved_with_it() {
        let p =
            plan(&["verify=md5", "rw=write", "bs=4k", "offset=6k", "iodepth=8"]).unwrap().unwrap();
        assert_eq!((p.job.grain, p.job.depth, p.job.writes), (2048, 8, 17));
        assert!(p.job.each_pass && !p.job.trimwrite);
        let p = plan(&["verify=md5", "rw=randtrimwrite", "norandommap"]).unwrap().unwrap();
        assert!(!p.job.each_pass && p.job.trimwrite);
    }

    /// The bytes per header of fio 3.33's files for these jobs (`xxd` of what fio wrote;
    /// `verify::interval` in the cli tests compares with fio itself).
    #[test]
    fn header_intervals_are_fios() {
        let rows: &[(&[&str], usize)] = &[
            (&["bs=4k"], 0),
            (&["bs=4k", "verify_interval=8k"], 4096),
            (&["bs=4k", "verify_interval=1k"], 1024),
            (&["bs=4k", "verify_interval=1536"], 4096),
            (&["bs=4k", "verify_interval=3k"], 4096),
            (&["bs=6k", "verify_interval=1536"], 1536),
            (&["bs=6k", "verify_interval=4k"], 6144),
            (&["bs=4k,8k", "verify_interval=6k"], 8192),
            (&["bs=4k,8k", "verify_interval=16k"], 8192),
            (&["bsrange=1k-16k", "verify_interval=8k"], 1024),
            (&["bsrange=6k-8k"], 2048),
            (&["bsrange=6k-8k", "verify_interval=3k"], 2048),
            (&["bsrange=6k-8k", "verify_interval=1k"], 1024),
            (&["bsrange=5k-8k"], 1024),
            (&["bsrange=6k-12k", "verify_interval=8k"], 6144),
            (&["bsrange=4k-8k", "verify_interval=1536"], 4096),
            (&["bssplit=3k/50:4k/50"], 1024),
            (&["rw=randrw", "bs=2k,8k", "verify_interval=4k"], 2048),
            (&["rw=randrw", "bs=6k,8k", "verify_interval=8k"], 8192),
        ];
        for &(args, want) in rows {
            let mut all = vec!["verify=crc32c", "rw=write"];
            all.extend_from_slice(args);
            let p = plan(&all).unwrap().unwrap();
            assert_eq!(p.format.interval, want, "{args:?}");
        }
        let err = plan(&["verify=sha512", "bs=768", "verify_interval=96"]).unwrap_err();
        assert!(err.contains("does not fit in 96-byte chunks") && err.contains("fio"), "{err}");
    }

    #[test]
    fn grains_divide_every_write() {
        assert_eq!(gcd(4096, 6144), 2048);
        assert_eq!(gcd(0, 512), 512);
    }
}
