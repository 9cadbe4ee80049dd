//! What the `cpuio` engine changes in a job's plan: `cpuload` is required, the think time
//! between I/Os is derived from it (`cpuchunks × (100 − cpuload) / cpuload` microseconds,
//! replacing `thinktime`, as fio 3.33's engine sets it), the job is time based, and it
//! covers a nominal region (its I/Os move no data).

use crate::error::OptionError;
use iomark_options::keys;
use iomark_options::JobSpec;

/// The region a cpuio job without `size` covers: its I/Os touch nothing, so any region
/// will do; one small enough that a random map of it costs nothing.
pub const REGION: u64 = 1 << 20;

/// Whether `spec` runs the cpuio engine.
pub fn is_cpuio(spec: &JobSpec) -> bool {
    spec.get(keys::IOENGINE).is_some_and(|c| c.name == "cpuio")
}

/// Whether `spec` runs an engine whose job lasts its runtime: cpuio or exec.
pub fn by_time(spec: &JobSpec) -> bool {
    is_cpuio(spec) || spec.get(keys::IOENGINE).is_some_and(|c| c.name == "exec")
}

/// The exec engine's program, with `%r` and `%n` of its arguments replaced.
pub fn exec_spec(spec: &JobSpec, name: &str) -> iomark_engine::exec::ExecSpec {
    let runtime = spec.get(keys::RUNTIME).map_or(0, |d| d.as_secs());
    let args = spec.get(keys::ARGUMENTS).unwrap_or_default();
    let args = args.split_whitespace();
    let args = args.map(|a| a.replace("%r", &runtime.to_string()).replace("%n", name)).collect();
    iomark_engine::exec::ExecSpec {
        program: spec.get(keys::PROGRAM).unwrap_or_default(),
        args,
        grace_s: spec.get(keys::GRACE_TIME).unwrap_or(1),
        redirect: spec
            .flag(keys::STD_REDIRECT)
            .then(|| (format!("{name}.stdout").into(), format!("{name}.stderr").into())),
    }
}

/// Refuses a cpuio job without `cpuload` (fio 3.33 fails it: "cpu thread needs rate
/// (cpuload=)") or without `runtime` (fio 3.33 runs it until it is killed).
pub fn check(spec: &JobSpec) -> Result<(), OptionError> {
    if !by_time(spec) {
        return Ok(());
    }
    if !is_cpuio(spec) && spec.get(keys::PROGRAM).is_none() {
        return Err(OptionError::new(keys::PROGRAM, "the exec engine needs program=PATH"));
    }
    if is_cpuio(spec) && spec.get(keys::CPULOAD).unwrap_or(0) == 0 {
        return Err(OptionError::new(
            keys::CPULOAD,
            "the cpuio engine needs cpuload=PERCENT (fio 3.33 fails the job: \"cpu thread \
             needs rate (cpuload=)\")",
        ));
    }
    if spec.get(keys::RUNTIME).is_none_or(|d| d.is_zero()) {
        return Err(OptionError::new(
            keys::RUNTIME,
            "a cpuio or exec job needs a runtime (fio 3.33 runs one without it until it is \
             killed)",
        ));
    }
    Ok(())
}

/// The think time of a cpuio job in nanoseconds, `None` for other jobs.
pub fn think_ns(spec: &JobSpec) -> Option<u64> {
    if !is_cpuio(spec) {
        return None;
    }
    let load = spec.get(keys::CPULOAD).unwrap_or(100).clamp(1, 100);
    let chunk = spec.get(keys::CPUCHUNKS).unwrap_or(50_000);
    Some(chunk * (100 - load) / load * 1000)
}
