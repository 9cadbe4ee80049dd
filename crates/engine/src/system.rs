//! Facts about this machine that fio's job files can name: `$ncpus`, `$pagesize` and
//! `$mb_memory`, read with `sysconf(3)` as fio reads them.

/// One `sysconf` value, or `None` where the system does not know it.
fn sysconf(name: libc::c_int) -> Option<u64> {
    // SAFETY: sysconf only reads the value named; any name is allowed and unknown ones
    // return -1.
    let value = unsafe { libc::sysconf(name) };
    u64::try_from(value).ok().filter(|&v| v > 0)
}

/// The number of online CPUs (`$ncpus`), at least 1.
pub fn online_cpus() -> u64 {
    sysconf(libc::_SC_NPROCESSORS_ONLN).unwrap_or(1)
}

/// The size of a memory page in bytes (`$pagesize`).
pub fn page_size() -> u64 {
    sysconf(libc::_SC_PAGESIZE).unwrap_or(4096)
}

/// Total physical memory in MiB (`$mb_memory`).
pub fn mb_memory() -> u64 {
    let pages = sysconf(libc::_SC_PHYS_PAGES).unwrap_or(0);
    pages.saturating_mul(page_size()) / (1024 * 1024)
}

/// Milliseconds since the epoch of clock `clock_id` (`clock_gettime(2)`: 0 is
/// `CLOCK_REALTIME`, the Unix epoch; 1 `CLOCK_MONOTONIC`, the boot…); an error for a clock
/// this system does not have.
pub fn clock_ms(clock_id: i32) -> std::io::Result<u64> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec into `ts`, which we own; an unknown clock
    // returns -1 with EINVAL and writes nothing.
    if unsafe { libc::clock_gettime(clock_id as libc::clockid_t, &mut ts) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(ts.tv_sec.max(0) as u64 * 1000 + ts.tv_nsec.max(0) as u64 / 1_000_000)
}

/// Sets the calling thread's timer slack (`PR_SET_TIMERSLACK`): how much later than asked
/// the kernel may end its sleeps, 50 µs by default. A rate-limited job lowers it so that
/// its I/Os start close to their due times. Returns false where the kernel refuses.
pub fn set_timer_slack(ns: u64) -> bool {
    let ns = libc::c_ulong::try_from(ns.max(1)).unwrap_or(libc::c_ulong::MAX);
    // SAFETY: PR_SET_TIMERSLACK takes a number and changes only this thread's timer slack.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, ns, 0, 0, 0) == 0 }
}

/// The CPU's time-stamp counter (`rdtsc`), where the architecture has one.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn tsc() -> Option<u64> {
    // SAFETY: rdtsc only reads the time-stamp counter; every x86_64 CPU has it.
    Some(unsafe { core::arch::x86_64::_rdtsc() })
}

/// The CPU's time-stamp counter, where the architecture has one.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub fn tsc() -> Option<u64> {
    None
}

/// Whether the kernel trusts the TSC as its clock (`current_clocksource` is `tsc`) and the
/// CPU says it ticks at a constant rate that never stops (`constant_tsc`, `nonstop_tsc`):
/// then the TSC is a clock, the same on every CPU.
pub fn tsc_is_stable() -> bool {
    let source =
        std::fs::read_to_string("/sys/devices/system/clocksource/clocksource0/current_clocksource")
            .unwrap_or_default();
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let flags = cpuinfo.lines().find(|l| l.starts_with("flags")).unwrap_or("");
    let has = |f: &str| flags.split_whitespace().any(|w| w == f);
    tsc().is_some() && source.trim() == "tsc" && has("constant_tsc") && has("nonstop_tsc")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_facts_are_plausible() {
        assert!(online_cpus() >= 1);
        assert!(page_size().is_power_of_two());
        assert!(mb_memory() > 0);
    }

    #[test]
    fn clocks_answer_in_milliseconds_since_their_epoch() {
        let unix =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis()
                as u64;
        let real = clock_ms(libc::CLOCK_REALTIME).unwrap();
        assert!(real.abs_diff(unix) < 5_000, "{real} {unix}");
        assert!(clock_ms(libc::CLOCK_MONOTONIC).unwrap() < real);
        assert!(clock_ms(99).is_err());
    }
}
