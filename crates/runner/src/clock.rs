//! The clock of the I/O path: every time stamp of a job comes from its [`JobClock`].
//!
//! The real clock is `CLOCK_MONOTONIC` through `std::time::Instant`, which the kernel's vDSO
//! answers without a system call. The fake clock advances by a fixed step at each read, so a
//! job on the null engine with a fixed seed gives the same report every time (golden tests).

use std::time::{Instant, SystemTime};

/// One job's clock, read in nanoseconds since the job's clock was made.
#[derive(Debug, Clone)]
pub enum JobClock {
    /// The monotonic clock.
    Real {
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
    /// A real clock starting now.
    pub fn real() -> Self {
        JobClock::Real { origin: Instant::now() }
    }

    /// A fake clock starting at 0 that moves `step_ns` per read.
    pub fn fake(step_ns: u64) -> Self {
        JobClock::Fake { now_ns: 0, step_ns }
    }

    /// Nanoseconds since the clock was made.
    #[inline]
    pub fn now_ns(&mut self) -> u64 {
        match self {
            JobClock::Real { origin } => origin.elapsed().as_nanos() as u64,
            JobClock::Fake { now_ns, step_ns } => {
                *now_ns += *step_ns;
                *now_ns
            }
        }
    }

    /// Whether this is the fake clock.
    pub fn is_fake(&self) -> bool {
        matches!(self, JobClock::Fake { .. })
    }
}

/// Wall-clock time in milliseconds since the Unix epoch (0 under the fake clock, so that
/// golden reports do not change).
pub fn wall_ms(fake: bool) -> u64 {
    if fake {
        return 0;
    }
    SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
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
    fn the_real_clock_never_goes_back() {
        let mut c = JobClock::real();
        let a = c.now_ns();
        assert!(c.now_ns() >= a);
    }
}
