//! The verify options of a job, resolved and checked (`verify` and its companions), what
//! verification needs to know of the rest of the job ([`for_job`]), and the system services
//! its `verify_async` helpers get from the runner ([`Host`]).

use crate::get;
use crate::plan::JobPlan;
use iomark_engine::file::ThreadUsage;
use iomark_engine::thread as sys;
use iomark_options::value::Value;
use iomark_options::JobSpec;
use iomark_verify::{
    HelperHost, Method, TrimPlan, VerifyFormat, VerifyJob, VerifyPattern, VerifyPlan, HEADER_LEN,
};
use std::sync::{Mutex, PoisonError};

/// The most `verify_async` helper threads a job may ask for (fio 3.33 sets no limit; a
/// thousand verifiers per job is already more than any machine keeps busy).
const MAX_HELPERS: u64 = 1024;

/// The trim plan of `spec`: `None` unless both `trim_percentage` and `trim_backlog` are
/// set, since fio 3.33 trims nothing otherwise.
fn trim_plan(spec: &JobSpec) -> Option<TrimPlan> {
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

/// The verify plan of `spec` (`None` when the job does not verify), for blocks of at
/// least `min_bs` bytes; what it needs of the rest of the job is filled by [`for_job`].
/// Errors name the option.
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
        Some(Value::Cpus(cpus)) => Some(crate::placement::check_cpus("verify_async_cpus", cpus)?),
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
        trim: trim_plan(spec),
        job: VerifyJob::default(),
    }))
}

/// The verify plan of job `p`, with what it needs of the rest of the job; `None` when the
/// job does not verify.
pub fn for_job(p: &JobPlan) -> Option<VerifyPlan> {
    let plan = p.verify.as_ref()?;
    let min_bs = min_block(p).max(1);
    let job = VerifyJob {
        name: p.name.clone(),
        jobnum: p.jobnum,
        file_names: p.files.iter().map(|f| f.path.display().to_string()).collect(),
        depth: p.iodepth,
        max_bs: p.max_block_size(),
        grain: grain_of(p),
        writes: p.io_bytes.saturating_mul(p.loops.max(1)) / min_bs + 1,
        trimwrite: p.rw.0.ends_with("trimwrite"),
        seed: p.randseed ^ (p.thread_number + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        thread: (p.thread_number + 1) as u16,
        each_pass: each_pass(p),
    };
    Some(VerifyPlan { job, ..plan.clone() })
}

/// The smallest block size a job writes.
fn min_block(p: &JobPlan) -> u64 {
    let d = 1;
    if let Some(split) = &p.bssplit[d] {
        return split.iter().map(|e| e.bs).min().unwrap_or(p.bs[d]);
    }
    p.bsrange[d].map_or(p.bs[d], |(lo, _)| lo)
}

/// Whether job `p` verifies after each pass over its files (see `passes.rs` in the verify
/// crate).
pub fn each_pass(p: &JobPlan) -> bool {
    let Some(v) = &p.verify else { return false };
    let covering = match p.rw.0 {
        "write" | "trimwrite" => true,
        // The random map of the workload (off with `blockalign`, see workload_config).
        "randwrite" | "randtrimwrite" => !p.norandommap && !p.blockalign_given,
        _ => false,
    };
    covering
        && v.do_verify
        && !p.time_based
        && p.rw.1.is_none()
        && p.replay.is_none()
        && !p.unlink_each_loop
}

/// The largest size that divides the offset and length of every write of job `p` (and
/// so the grain of the verify crate's table of newest writes): block sizes, `blockalign`,
/// the files' start offsets, the `rw=write:N` skip and the strided zones.
fn grain_of(p: &JobPlan) -> u64 {
    let d = 1;
    let mut g = p.bs[d];
    if let Some(split) = &p.bssplit[d] {
        g = split.iter().fold(0, |g, e| gcd(g, e.bs));
    } else if let Some((lo, _)) = p.bsrange[d] {
        g = if p.workload.bs_unaligned { 1 } else { lo };
    }
    if p.blockalign_given {
        g = gcd(g, p.blockalign[d]);
    }
    for f in &p.files {
        g = gcd(g, f.offset);
    }
    // A sequential `rw=write:N` leaves N bytes between writes (random modes count I/Os).
    let skip = p.rw.1.as_deref().and_then(crate::workload_config::parse_modifier);
    if let Some(skip) = skip.filter(|_| !p.rw.0.starts_with("rand")) {
        g = gcd(g, skip);
    }
    if let Some(z) = &p.workload.zones {
        g = [z.size, z.range, z.skip].into_iter().fold(g, gcd);
    }
    if p.replay.is_some() {
        g = 1;
    }
    g.max(1)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The system services of a job's `verify_async` helpers: CPU affinity through
/// [`iomark_engine::thread`], and the CPU time of the helpers, summed as they end (the
/// job's, as in fio).
#[derive(Debug, Default)]
pub struct Host {
    used: Mutex<ThreadUsage>,
}

impl Host {
    /// The CPU time of the helpers that have ended.
    pub fn used(&self) -> ThreadUsage {
        *self.used.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl HelperHost for Host {
    fn pinned(&self, cpus: &[u32], spawn: &mut dyn FnMut()) -> std::io::Result<()> {
        let before = sys::affinity()?;
        sys::set_affinity(cpus)?;
        spawn();
        sys::set_affinity(&before)
    }

    fn helper_ends(&self) {
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        *used = used.plus(ThreadUsage::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(args: &[&str]) -> Result<Option<VerifyPlan>, String> {
        of(&crate::get::test_spec(args).expect("valid job"), 4096)
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

    #[test]
    fn helpers_run_on_the_cpus_given_and_the_caller_keeps_its_own() {
        let before = sys::affinity().expect("affinity");
        let cpu = before[0];
        let host = Host::default();
        let mut seen = None;
        host.pinned(&[cpu], &mut || seen = Some(sys::affinity().expect("affinity")))
            .expect("pinned");
        assert_eq!(seen, Some(vec![cpu]));
        assert_eq!(sys::affinity().expect("affinity"), before);
    }

    #[test]
    fn a_cpu_the_system_lacks_is_refused() {
        let mut spawned = false;
        assert!(Host::default().pinned(&[4000], &mut || spawned = true).is_err());
        assert!(!spawned);
    }

    #[test]
    fn grains_divide_every_write() {
        assert_eq!(gcd(4096, 6144), 2048);
        assert_eq!(gcd(0, 512), 512);
    }
}
