//! Rate limits: when the next I/O of a rate-limited job is due, and the latency measured
//! from that due time (corrected for coordinated omission).
//!
//! What fio 3.33 does, measured with `--write_iolog` on the null engine:
//!
//! - Every limit is a byte rate per direction: `rate` directly, `rate_iops` times the
//!   direction's smallest block size (fio's HOWTO: "the smallest block size is used as the
//!   metric"; `rate_iops=100 bsrange=1k-8k` moves about 100 KiB a second). `rate=1m,500k`
//!   limits reads and writes apart, `rate=500k,` reads only; `rate` and `rate_iops` together
//!   are refused ("mutually exclusive").
//! - `rate_process=linear`: the schedule is fixed from the job's start. The I/O issued after
//!   B bytes of its direction is due B / rate seconds after the start; the first one at
//!   once. A job that falls behind (a stalled device) issues the I/Os that are overdue back
//!   to back until it has caught up, so the count over a run is exact
//!   (`rate_iops=1000 number_ios=500` issues 500 I/Os in half a second).
//! - `rate_process=poisson`: the gaps between due times are drawn from an exponential
//!   distribution whose mean is the linear gap (fio: "the lambda will be 10^6 / IOPS"), as
//!   fio 3.33 draws them: each direction from its own stream of the job's
//!   ([`iomark_workload::FioStream::poisson`]), `⌊-ln(f) × 10^6 / IOPS⌋` microseconds for
//!   the stream's next fraction `f`, one gap after each I/O (fio 3.33's issue times with
//!   `rate_iops=50` follow this schedule to within its sleeps' lateness).
//! - Before it sleeps until an I/O is due, the job waits for the I/Os it has in flight (a
//!   null engine at `iodepth=8` keeps depth 1 under a rate, as fio's does), so completions
//!   are stamped when they happen, not when the sleep ends.
//! - In a mixed job with a limit the rates correct `rwmixread`'s choice, as fio 3.33's do:
//!   the mix draws its direction as always; if that direction is due (or has no limit) it
//!   goes; else the other goes if it is due (and has a share); else the job waits for the
//!   earlier of the two, the mix's on a tie. So fio 3.33 with `rw=randrw
//!   rate_iops=1000,100` does 1000 reads and 100 writes a second whatever `rwmixread`
//!   says, and with `rate_iops=100,` 100 reads a second and as many writes as it can; with
//!   `rate_iops=200,100` it issues fio's order of reads and writes where its sleeps end on
//!   time.
//! - `rate_min`/`rate_iops_min`: after two seconds the job takes a baseline; then at the end
//!   of every `rate_cycle` milliseconds each direction the job performs must have moved at
//!   least that much in the cycle, or the job ends with `EIO` and fio's message
//!   (`a: rate_iops_min=1000 not met, got 97 IOPS`, `a: rate_min=1048576B/s not met, got
//!   402285B/s`); fio 3.33 fails a job that can never meet its minimum at 2 s plus one cycle.
//!
//! The wait itself is the job's ([`crate::clock::JobClock::wait_until`]): a sleep, never a
//! busy loop, and under the fake clock a jump, so that paced runs stay deterministic.
//!
//! **Corrected latency.** A job that waits for a slow I/O before it issues the next one
//! hides the delay from its own figures: the I/Os that were due meanwhile start late and
//! look fast (coordinated omission). A rate-limited job knows when each I/O was due, so it
//! also records each I/O's latency from that due time to its completion (the unit's start
//! when the direction has no limit). An I/O issued on time has about its plain `lat`; those
//! due during a stall carry the part of the stall they waited through.

use iomark_plan::pacing::{RatePlan, RateProcess};
use iomark_workload::{FioRng, FioSeeds, FioStream};

/// A due time that means "none": the I/O's own start counts instead.
pub(crate) const NO_DUE: u64 = u64::MAX;

/// The rate schedule of a running job. See the module doc.
#[derive(Debug, Clone)]
pub(crate) struct Pacer {
    rate: [u64; 3],
    poisson: bool,
    /// The Poisson stream of each direction.
    rngs: [FioRng; 3],
    /// When each direction's schedule starts (moved on by think time that the rate
    /// ignores).
    origin: [u64; 3],
    /// Bytes scheduled per direction since `origin` (linear process).
    scheduled: [u64; 3],
    /// When the next I/O of each direction is due.
    next_due: [u64; 3],
    /// The due time of the I/O each unit carries ([`NO_DUE`] for none).
    unit_due: Vec<u64>,
}

impl Pacer {
    /// The schedule of a job with these limits, starting at `now`, for `units` I/O units;
    /// the Poisson gaps draw from the streams of `seeds`.
    pub(crate) fn new(plan: &RatePlan, now: u64, units: usize, seeds: &FioSeeds) -> Pacer {
        Pacer {
            rate: plan.rate,
            poisson: plan.process == RateProcess::Poisson,
            rngs: [0, 1, 2].map(|d| seeds.rng(FioStream::poisson(d))),
            origin: [now; 3],
            scheduled: [0; 3],
            next_due: [now; 3],
            unit_due: vec![NO_DUE; units],
        }
    }

    /// Whether direction `d` has a limit.
    #[inline]
    pub(crate) fn limited(&self, d: usize) -> bool {
        self.rate[d] > 0
    }

    /// When the next I/O of direction `d` is due (0 without a limit: always).
    #[inline]
    pub(crate) fn due(&self, d: usize) -> u64 {
        if self.limited(d) {
            self.next_due[d]
        } else {
            0
        }
    }

    /// The direction of a mixed job's next I/O at `now`, the mix having chosen `mixed`
    /// (0 reads, 1 writes) and `other_share` telling whether the other direction has a
    /// share (see the module note).
    pub(crate) fn correct(&self, mixed: usize, other_share: bool, now: u64) -> usize {
        let due = |d: usize| !self.limited(d) || self.next_due[d] <= now;
        if due(mixed) {
            return mixed;
        }
        let other = 1 - mixed;
        if !other_share {
            return mixed;
        }
        if due(other) || self.next_due[other] < self.next_due[mixed] {
            other
        } else {
            mixed
        }
    }

    /// Unit `index` takes an I/O of `len` bytes in direction `d`: remembers when it was due
    /// and moves the direction's schedule on.
    pub(crate) fn issue(&mut self, index: u32, d: usize, len: u64) {
        if !self.limited(d) {
            self.unit_due[index as usize] = NO_DUE;
            return;
        }
        self.unit_due[index as usize] = self.next_due[d];
        let gap_ns = |bytes: u64, rate: u64| {
            u64::try_from(u128::from(bytes) * 1_000_000_000 / u128::from(rate)).unwrap_or(u64::MAX)
        };
        if self.poisson {
            // An exponential gap of mean len / rate, in whole microseconds as fio's.
            let f = self.rngs[d].fraction().max(f64::MIN_POSITIVE);
            let mean_us = len as f64 * 1e6 / self.rate[d] as f64;
            let gap_us = (-f.ln() * mean_us) as u64;
            self.next_due[d] = self.next_due[d].saturating_add(gap_us.saturating_mul(1000));
        } else {
            self.scheduled[d] += len;
            self.next_due[d] =
                self.origin[d].saturating_add(gap_ns(self.scheduled[d], self.rate[d]));
        }
    }

    /// The intended start of the I/O that unit `index` carries, given its actual `start`.
    #[inline]
    pub(crate) fn intended_start(&self, index: u32, start: u64) -> u64 {
        match self.unit_due[index as usize] {
            NO_DUE => start,
            due => due.min(start),
        }
    }

    /// Moves every schedule that is behind `now` on, so that its next I/O is due at `now`
    /// and the rest follow at the rate: after think time that the rate does not make up
    /// for (`rate_ignore_thinktime`; fio 3.33 then issues the next I/O at once and the
    /// following ones one gap apart).
    pub(crate) fn rebase(&mut self, now: u64) {
        for d in 0..3 {
            let behind = now.saturating_sub(self.next_due[d]);
            self.origin[d] = self.origin[d].saturating_add(behind);
            self.next_due[d] = self.next_due[d].saturating_add(behind);
        }
    }
}

/// The minimum-rate checks of a running job (`rate_min`, `rate_iops_min`).
#[derive(Debug, Clone)]
pub(crate) struct MinRate {
    min_bytes: [u64; 3],
    min_ios: [u64; 3],
    cycle_ns: u64,
    /// The directions the job performs (the others are never checked).
    dirs: [bool; 3],
    /// When the next check is due.
    next_check: u64,
    /// The baseline: its time, bytes and I/Os per direction.
    base: Option<(u64, [u64; 3], [u64; 3])>,
}

/// fio 3.33 checks nothing during a job's first two seconds.
const MIN_RATE_GRACE_NS: u64 = 2_000_000_000;

impl MinRate {
    /// The checks of `plan` for a job doing `dirs`, started at `now`.
    pub(crate) fn new(plan: &RatePlan, dirs: [bool; 3], now: u64) -> MinRate {
        MinRate {
            min_bytes: plan.rate_min,
            min_ios: plan.rate_iops_min,
            cycle_ns: plan.cycle_ms.saturating_mul(1_000_000),
            dirs,
            next_check: now.saturating_add(MIN_RATE_GRACE_NS),
            base: None,
        }
    }

    /// Whether a check is due at `now`.
    #[inline]
    pub(crate) fn due(&self, now: u64) -> bool {
        now >= self.next_check
    }

    /// Checks at `now` (when [`due`](Self::due)), with the job's totals so far; fio's
    /// message when a minimum was not met over the last cycle.
    #[cold]
    pub(crate) fn check(
        &mut self,
        now: u64,
        bytes: [u64; 3],
        ios: [u64; 3],
        job: &str,
    ) -> Option<String> {
        self.next_check = now.saturating_add(self.cycle_ns);
        let (t0, bytes0, ios0) = self.base.replace((now, bytes, ios))?;
        let ns = u128::from(now.saturating_sub(t0).max(1));
        let per_sec = |n: u64| u64::try_from(u128::from(n) * 1_000_000_000 / ns).unwrap_or(0);
        for d in (0..3).filter(|&d| self.dirs[d]) {
            let got = per_sec(bytes[d] - bytes0[d]);
            if self.min_bytes[d] > 0 && got < self.min_bytes[d] {
                return Some(format!(
                    "{job}: rate_min={}B/s not met, got {got}B/s",
                    self.min_bytes[d]
                ));
            }
            let got = per_sec(ios[d] - ios0[d]);
            if self.min_ios[d] > 0 && got < self.min_ios[d] {
                return Some(format!(
                    "{job}: rate_iops_min={} not met, got {got} IOPS",
                    self.min_ios[d]
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(rate: [u64; 3], process: RateProcess) -> RatePlan {
        RatePlan { rate, process, rate_min: [0; 3], rate_iops_min: [0; 3], cycle_ms: 1000 }
    }

    #[test]
    fn the_linear_schedule_is_fixed_from_the_start() {
        // 4 KiB at 4 MiB/s: one I/O every 1/1024 s.
        let mut p =
            Pacer::new(&plan([4 << 20, 0, 0], RateProcess::Linear), 1_000, 2, &FioSeeds::default());
        let dues: Vec<u64> = (0..4)
            .map(|i| {
                let due = p.due(0);
                p.issue(i % 2, 0, 4096);
                due
            })
            .collect();
        assert_eq!(dues, [1_000, 1_000 + 976_562, 1_000 + 1_953_125, 1_000 + 2_929_687]);
        // A late start keeps the due time; an early one cannot happen.
        assert_eq!(p.intended_start(1, 9_000_000), 1_000 + 2_929_687);
        assert_eq!(p.due(1), 0, "writes have no limit");
    }

    #[test]
    fn a_rebased_schedule_goes_on_from_now() {
        let mut p =
            Pacer::new(&plan([4096 * 1000, 0, 0], RateProcess::Linear), 0, 1, &FioSeeds::default());
        for _ in 0..10 {
            p.issue(0, 0, 4096);
        }
        p.rebase(19_000_000);
        assert_eq!(p.due(0), 19_000_000);
        p.issue(0, 0, 4096);
        assert_eq!(p.due(0), 20_000_000);
        p.rebase(5_000_000);
        assert_eq!(p.due(0), 20_000_000, "a schedule ahead of now stays");
    }

    #[test]
    fn poisson_gaps_have_the_linear_mean() {
        let seeds = FioSeeds::repeatable(7, 1);
        let mut p = Pacer::new(&plan([4096 * 1000, 0, 0], RateProcess::Poisson), 0, 1, &seeds);
        let n = 20_000;
        for _ in 0..n {
            p.issue(0, 0, 4096);
        }
        let mean = p.due(0) as f64 / f64::from(n);
        assert!((mean - 1e6).abs() < 2e4, "mean gap {mean} ns");
    }

    #[test]
    fn poisson_gaps_are_fio_3_33s() {
        // fio 3.33 `--rw=read --rate_iops=50 --rate_process=poisson` (default seed): reads
        // issued 46899, 56414 and 62603 µs after the first (each up to 10 µs off the schedule
        // of ⌊-ln(f) × 20000⌋ µs gaps).
        let seeds = FioSeeds::repeatable(0x89, 1);
        let mut p = Pacer::new(&plan([4096 * 50, 0, 0], RateProcess::Poisson), 0, 1, &seeds);
        let mut due = Vec::new();
        for _ in 0..3 {
            p.issue(0, 0, 4096);
            due.push(p.due(0) / 1000);
        }
        assert_eq!(due, [46_905, 56_421, 62_612]);
    }

    #[test]
    fn the_rates_correct_the_mixs_choice() {
        let seeds = FioSeeds::default();
        let p = Pacer::new(&plan([4096 * 100, 0, 0], RateProcess::Linear), 0, 1, &seeds);
        // The mix's choice goes when it is due or unlimited.
        assert_eq!(p.correct(0, true, 0), 0);
        assert_eq!(p.correct(1, true, 0), 1);
        let mut p = p;
        p.issue(0, 0, 4096);
        // Reads are due at 10 ms: before, the unlimited writes go instead, unless they have
        // no share.
        assert_eq!(p.correct(0, true, 5_000_000), 1);
        assert_eq!(p.correct(0, false, 5_000_000), 0);
        assert_eq!(p.correct(0, true, 10_000_000), 0);
        // Both limited and ahead: the earlier due, the mix's on a tie.
        let mut both =
            Pacer::new(&plan([4096 * 100, 4096 * 200, 0], RateProcess::Linear), 0, 1, &seeds);
        both.issue(0, 0, 4096);
        both.issue(0, 1, 4096);
        assert_eq!(both.correct(0, true, 1_000_000), 1, "writes are due at 5 ms, reads at 10");
        both.issue(0, 1, 4096);
        assert_eq!(both.correct(0, true, 1_000_000), 0, "a tie at 10 ms keeps the mix's");
        assert_eq!(both.correct(1, true, 1_000_000), 1);
    }

    #[test]
    fn the_minimum_is_checked_after_the_grace_and_one_cycle() {
        /// What the job loop does at a completion.
        fn at(m: &mut MinRate, t: u64, bytes: [u64; 3], ios: [u64; 3]) -> Option<String> {
            m.due(t).then(|| m.check(t, bytes, ios, "a")).flatten()
        }
        let p = RatePlan { rate_iops_min: [1000, 0, 0], ..plan([0; 3], RateProcess::Linear) };
        let mut m = MinRate::new(&p, [true, false, false], 0);
        let s = 1_000_000_000;
        assert!(!m.due(s), "grace");
        assert_eq!(at(&mut m, 2 * s, [0; 3], [200, 0, 0]), None, "baseline");
        assert_eq!(at(&mut m, 2 * s + s / 2, [0; 3], [250, 0, 0]), None, "within the cycle");
        assert_eq!(
            at(&mut m, 3 * s, [0; 3], [299, 0, 0]).as_deref(),
            Some("a: rate_iops_min=1000 not met, got 99 IOPS")
        );
        let p = RatePlan { rate_min: [0, 1 << 20, 0], ..plan([0; 3], RateProcess::Linear) };
        let mut m = MinRate::new(&p, [true, true, false], 0);
        at(&mut m, 2 * s, [0; 3], [0; 3]);
        assert_eq!(
            at(&mut m, 3 * s, [0, 402_285, 0], [0; 3]).as_deref(),
            Some("a: rate_min=1048576B/s not met, got 402285B/s")
        );
    }
}
