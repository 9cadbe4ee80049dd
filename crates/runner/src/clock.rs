//! The clock of the I/O path: every time stamp of a job comes from its [`JobClock`].
//!
//! Where the kernel says the CPU's time-stamp counter is a stable clock (its clocksource is
//! `tsc`, and the CPU has `constant_tsc` and `nonstop_tsc`), the real clock reads the TSC
//! and converts ticks to nanoseconds with a factor calibrated once per process against
//! `CLOCK_MONOTONIC` over 20 ms (a relative error of a few parts per million; the window
//! opens at the program's start, [`start_calibration`], so that it passes while the jobs
//! are planned). Elsewhere it is `CLOCK_MONOTONIC` through `std::time::Instant`, which the
//! kernel's vDSO answers without a system call but at about three times the cost of a TSC
//! read. The fake clock advances by a fixed step at each read, so a job on the null engine
//! with a fixed seed gives the same report every time (golden tests).

use iomark_engine::system;
use iomark_plan::timing::{ClockSource, Timing};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime};

/// Nanoseconds per TSC tick in 32.32 fixed point, measured once per process; `None` where
/// the TSC is not a stable clock. (The one piece of global state of the runner.)
static TSC_NS_PER_TICK: OnceLock<Option<u64>> = OnceLock::new();

/// The TSC and the monotonic clock read together where the calibration's window opens
/// (see [`start_calibration`]); `None` without a TSC.
static CALIBRATION_START: OnceLock<Option<(u64, Instant)>> = OnceLock::new();

/// The calibration's window: at least this long between its two readings.
const CALIBRATION_NS: Duration = Duration::from_millis(20);

/// A window opened longer ago than this is not used: the calibration opens its own (the
/// factor is then that of the 20 ms around the first job, not of the process's life).
const CALIBRATION_STALE: Duration = Duration::from_secs(1);

/// Opens the TSC calibration's window now (two clock reads, nothing else), so that its
/// 20 ms pass while the job files are read and the jobs planned: the first job then
/// waits only for what is left of them. The program calls it first thing; without it the
/// first job opens the window itself and waits the whole 20 ms.
pub fn start_calibration() {
    CALIBRATION_START.get_or_init(|| Some((system::tsc()?, Instant::now())));
}

fn tsc_ns_per_tick() -> Option<u64> {
    *TSC_NS_PER_TICK.get_or_init(|| {
        if !system::tsc_is_stable() {
            return None;
        }
        let opened = CALIBRATION_START
            .get()
            .copied()
            .flatten()
            .filter(|(_, t0)| t0.elapsed() < CALIBRATION_STALE);
        let (c0, t0) = match opened {
            Some(start) => start,
            None => (system::tsc()?, Instant::now()),
        };
        if let Some(left) = CALIBRATION_NS.checked_sub(t0.elapsed()) {
            std::thread::sleep(left);
        }
        let (c1, t1) = (system::tsc()?, Instant::now());
        let ticks = u128::from(c1.checked_sub(c0).filter(|&t| t > 0)?);
        let ns = t1.duration_since(t0).as_nanos();
        u64::try_from((ns << 32) / ticks).ok()
    })
}

/// Nanoseconds since the TSC read `base`, at `ns_per_tick` (32.32 fixed point). Taken by
/// reference: read after the counter, they are operands of the subtraction and the
/// multiplication rather than loads of their own.
#[inline(always)]
fn tsc_ns(base: &u64, ns_per_tick: &u64) -> u64 {
    let ticks = system::tsc().unwrap_or(*base).wrapping_sub(*base);
    ((u128::from(ticks) * u128::from(*ns_per_tick)) >> 32) as u64
}

/// One job's clock, read in nanoseconds since the job's clock was made.
#[derive(Debug, Clone)]
pub enum JobClock {
    /// The time-stamp counter.
    Tsc {
        /// The reading that counts as 0.
        base: u64,
        /// Nanoseconds per tick, 32.32 fixed point.
        ns_per_tick: u64,
    },
    /// The monotonic clock.
    Real {
        /// The moment that reads as 0.
        origin: Instant,
    },
    /// The monotonic clock in whole microseconds (`clocksource=gettimeofday`).
    Micros {
        /// The moment that reads as 0.
        origin: Instant,
    },
    /// A clock that moves `step_ns` at every read.
    Fake {
        /// The current reading.
        now_ns: u64,
        /// How far each read moves it.
        step_ns: u64,
    },
}

impl JobClock {
    /// A real clock starting now: the TSC where it is stable, else `CLOCK_MONOTONIC`.
    pub fn real() -> Self {
        match (tsc_ns_per_tick(), system::tsc()) {
            (Some(ns_per_tick), Some(base)) => JobClock::Tsc { base, ns_per_tick },
            _ => JobClock::monotonic(),
        }
    }

    /// Whether this is the TSC (the others read `CLOCK_MONOTONIC`, or fake it).
    pub fn is_tsc(&self) -> bool {
        matches!(self, JobClock::Tsc { .. })
    }

    /// A `CLOCK_MONOTONIC` clock starting now.
    pub fn monotonic() -> Self {
        JobClock::Real { origin: Instant::now() }
    }

    /// A `CLOCK_MONOTONIC` clock starting now that moves in whole microseconds, like
    /// `gettimeofday(2)`.
    pub fn micros() -> Self {
        JobClock::Micros { origin: Instant::now() }
    }

    /// The real clock `timing` asks for (`clocksource`), starting now; a note for the
    /// run's report when that clock is not available here.
    pub fn of(timing: &Timing) -> (JobClock, Option<String>) {
        match timing.clock {
            ClockSource::Default => (JobClock::real(), None),
            ClockSource::ClockGettime => (JobClock::monotonic(), None),
            ClockSource::Gettimeofday => (JobClock::micros(), None),
            ClockSource::Cpu => match JobClock::real() {
                c @ JobClock::Tsc { .. } => (c, None),
                c => (
                    c,
                    Some(
                        "clocksource=cpu: the CPU's time-stamp counter is not a stable clock \
                         here; using clock_gettime (CLOCK_MONOTONIC)"
                            .to_string(),
                    ),
                ),
            },
        }
    }

    /// A fake clock starting at 0 that moves `step_ns` per read.
    pub fn fake(step_ns: u64) -> Self {
        JobClock::Fake { now_ns: 0, step_ns }
    }

    /// Nanoseconds since the clock was made.
    ///
    /// The TSC, the clock of nearly every run, is read inline after one test; the other
    /// clocks are a call away (the monotonic clock's read costs more than the call).
    #[inline]
    pub fn now_ns(&mut self) -> u64 {
        // An `if let`, not a `match`: a match of all four becomes a jump table.
        if let JobClock::Tsc { base, ns_per_tick } = self {
            return tsc_ns(base, ns_per_tick);
        }
        self.now_ns_not_tsc()
    }

    /// [`JobClock::now_ns`] of every clock but the TSC.
    #[inline(never)]
    fn now_ns_not_tsc(&mut self) -> u64 {
        match self {
            JobClock::Tsc { base, ns_per_tick } => tsc_ns(base, ns_per_tick),
            JobClock::Real { origin } => origin.elapsed().as_nanos() as u64,
            JobClock::Micros { origin } => origin.elapsed().as_micros() as u64 * 1000,
            JobClock::Fake { now_ns, step_ns } => {
                *now_ns += *step_ns;
                *now_ns
            }
        }
    }

    /// The TSC's parameters when this is the TSC: a loop that knows its clock is the TSC
    /// reads it with [`TscClock::now_ns`], without the test of which clock it is.
    pub fn tsc(&self) -> Option<TscClock> {
        match *self {
            JobClock::Tsc { base, ns_per_tick } => Some(TscClock { base, ns_per_tick }),
            _ => None,
        }
    }

    /// Whether this is the fake clock.
    pub fn is_fake(&self) -> bool {
        matches!(self, JobClock::Fake { .. })
    }

    /// Waits until the clock reads `t_ns` or later, or `slice` has passed, whichever comes
    /// first, and returns the reading after the wait. A real clock sleeps (`nanosleep`), or
    /// with `spin` reads itself in a loop, which keeps the core busy; the fake clock jumps
    /// to `t_ns` at once, so that paced runs under it never sleep and stay deterministic.
    pub fn wait_until(&mut self, t_ns: u64, slice: Duration, spin: bool) -> u64 {
        if let JobClock::Fake { now_ns, .. } = self {
            *now_ns = (*now_ns).max(t_ns);
            return *now_ns;
        }
        let start = self.now_ns();
        let end = wait_end(start, t_ns, slice);
        if spin {
            let mut now = start;
            while now < end {
                std::hint::spin_loop();
                now = self.now_ns();
            }
            return now;
        }
        if end > start {
            std::thread::sleep(Duration::from_nanos(end - start));
        }
        self.now_ns()
    }
}

/// A [`JobClock::Tsc`]'s reading, apart from the clock: the same readings as the
/// clock's [`JobClock::now_ns`], without its test of which clock it is.
#[derive(Debug, Clone, Copy, Default)]
pub struct TscClock {
    /// The reading that counts as 0.
    base: u64,
    /// Nanoseconds per tick, 32.32 fixed point.
    ns_per_tick: u64,
}

impl TscClock {
    /// Nanoseconds since the clock it was taken from was made.
    #[inline(always)]
    pub fn now_ns(&self) -> u64 {
        tsc_ns(&self.base, &self.ns_per_tick)
    }
}

/// Where a wait that begins at `start` stops: at `t_ns`, or once `slice` has passed.
fn wait_end(start: u64, t_ns: u64, slice: Duration) -> u64 {
    t_ns.min(start.saturating_add(slice.as_nanos() as u64))
}

/// Wall-clock time in milliseconds since the Unix epoch (0 under the fake clock, so that
/// golden reports do not change).
pub fn wall_ms(fake: bool) -> u64 {
    if fake {
        return 0;
    }
    SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// Sleeps for `duration`, or less when `stop` is set meanwhile (looked at every 10 ms, so
/// that a stopped run never waits out a `startdelay`); returns whether the whole time passed.
pub fn sleep_unless_stopped(duration: Duration, stop: &AtomicBool) -> bool {
    const SLICE: Duration = Duration::from_millis(10);
    let end = Instant::now() + duration;
    loop {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let now = Instant::now();
        if now >= end {
            return true;
        }
        std::thread::sleep((end - now).min(SLICE));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fake_clock_moves_one_step_per_read() {
        let mut c = JobClock::fake(100);
        assert_eq!([c.now_ns(), c.now_ns(), c.now_ns()], [100, 200, 300]);
    }

    #[test]
    fn a_tsc_clock_reads_apart_as_it_reads_itself() {
        let mut c = JobClock::Tsc { base: 1000, ns_per_tick: 3 << 31 };
        let t = c.tsc().unwrap();
        let (a, b, d) = (c.now_ns(), t.now_ns(), c.now_ns());
        assert!(a <= b && b <= d);
        assert!(JobClock::fake(1).tsc().is_none() && JobClock::monotonic().tsc().is_none());
    }

    #[test]
    fn the_fake_clock_jumps_instead_of_sleeping() {
        let mut c = JobClock::fake(10);
        assert_eq!(c.wait_until(5_000_000_000, Duration::from_secs(3600), false), 5_000_000_000);
        // Never backwards.
        assert_eq!(c.wait_until(7, Duration::ZERO, false), 5_000_000_000);
        assert_eq!(c.now_ns(), 5_000_000_010);
    }

    #[test]
    fn a_wait_stops_at_its_target_or_its_slice() {
        let slice = Duration::from_millis(1);
        assert_eq!(wait_end(5_000, 3_600_000_000_000, slice), 1_005_000);
        assert_eq!(wait_end(5_000, 200_000, slice), 200_000);
        assert_eq!(wait_end(u64::MAX - 1, u64::MAX, slice), u64::MAX);
    }

    #[test]
    fn a_real_wait_returns_no_earlier_than_its_end() {
        let mut c = JobClock::monotonic();
        let t = c.now_ns();
        let after = c.wait_until(t + 3_600_000_000_000, Duration::from_millis(1), false);
        assert!(after >= t + 1_000_000 && after < t + 3_600_000_000_000);
        let target = after + 200_000;
        assert!(c.wait_until(target, Duration::from_secs(1), true) >= target);
    }

    #[test]
    fn the_microsecond_clock_moves_in_whole_microseconds() {
        let mut c = JobClock::micros();
        for _ in 0..100 {
            assert_eq!(c.now_ns() % 1000, 0);
        }
    }

    #[test]
    fn a_stop_ends_the_sleep() {
        let stop = AtomicBool::new(true);
        assert!(!sleep_unless_stopped(Duration::from_secs(3600), &stop));
        stop.store(false, Ordering::Relaxed);
        assert!(sleep_unless_stopped(Duration::from_millis(1), &stop));
    }

    #[test]
    fn the_real_clocks_never_go_back() {
        for mut c in [JobClock::real(), JobClock::monotonic(), JobClock::micros()] {
            let a = c.now_ns();
            assert!(c.now_ns() >= a);
        }
    }

    #[test]
    fn the_tsc_clock_agrees_with_the_monotonic_clock() {
        let mut tsc = JobClock::real();
        if !matches!(tsc, JobClock::Tsc { .. }) {
            println!("skipped: the TSC is not a stable clock here");
            return;
        }
        let mut mono = JobClock::monotonic();
        // Each TSC read is bracketed by two monotonic reads, so the interval the TSC
        // measures lies between the inner and the outer monotonic intervals, however long
        // the thread is descheduled; only the calibration's error (parts per million) and
        // the conversion's rounding are allowed beyond them.
        let (m0, t0, m1) = (mono.now_ns(), tsc.now_ns(), mono.now_ns());
        std::thread::sleep(Duration::from_millis(20));
        let (m2, t1, m3) = (mono.now_ns(), tsc.now_ns(), mono.now_ns());
        let (inner, outer, dt) = ((m2 - m1) as f64, (m3 - m0) as f64, (t1 - t0) as f64);
        assert!(
            dt >= inner * (1.0 - 1e-3) - 100.0 && dt <= outer * (1.0 + 1e-3) + 100.0,
            "tsc {dt} ns outside the monotonic bracket [{inner}, {outer}] ns"
        );
    }
}
