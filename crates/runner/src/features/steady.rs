//! Steady state: a job that ends once its IOPS or bandwidth has settled (`steadystate`/`ss`,
//! `steadystate_duration`/`ss_dur`, `steadystate_ramp_time`/`ss_ramp`).
//!
//! What fio 3.33 does, measured on the null engine:
//!
//! - With `ss_dur` set (it is 0, off, by default) the job takes one sample a second of its
//!   IOPS and its bandwidth in bytes per second, all directions together, over the
//!   second just ended. Samples from before `ss_ramp` are left out.
//! - Once the last `ss_dur` seconds of samples are in, each new sample judges the window:
//!   `iops:L` and `bw:L` ask that every sample be within L of the window's mean (the
//!   largest distance is the "max deviation"); `iops_slope:L` and `bw_slope:L` that the
//!   least-squares slope of the samples (per second) be within L of 0. With `L%` the limit
//!   is a percentage of the window's mean (integer, as fio shows it). When the window
//!   passes, the job ends (`attained`).
//! - The report has fio's `steadystate` object (`ss`, `duration`, `attained`, `criterion`,
//!   `max_deviation`, `slope`, and `data` with the means and the samples, oldest first,
//!   zeros where a window never filled) and the normal report a `steadystate  :` line.
//!
//! fio 3.33 takes its samples on its own clock, one second apart from the start of the
//! program, so its windows end a fraction of a second before iomark's, which count from
//! the job's start. fio applies the criterion to a whole group under `group_reporting`;
//! iomark judges each job on its own.

use iomark_plan::pacing::{Criterion, SteadyPlan};
use iomark_stats::report::SteadyReport;

/// One second's sample.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Sample {
    iops: u64,
    bw: u64,
}

/// The steady-state watch of a running job.
#[derive(Debug, Clone)]
pub(crate) struct Steady {
    plan: SteadyPlan,
    /// The last `duration_s` samples, a ring.
    ring: Vec<Sample>,
    /// Samples taken so far (the ring's next slot is `taken % len`).
    taken: u64,
    /// When samples start to count.
    ramp_end: u64,
    /// The start of the second being sampled, and the totals then.
    last: (u64, u64, u64),
    /// When the next sample is due.
    next_at: u64,
    /// The judgement of the last full window: criterion, max deviation, slope, attained.
    verdict: Option<(f64, f64, f64, bool)>,
}

/// A sample a second.
const SECOND_NS: u64 = 1_000_000_000;

impl Steady {
    /// The watch of `plan` for a job started at `now`; allocates its window.
    pub(crate) fn new(plan: &SteadyPlan, now: u64) -> Steady {
        let n = usize::try_from(plan.duration_s).unwrap_or(usize::MAX).min(1 << 20);
        Steady {
            plan: plan.clone(),
            ring: vec![Sample::default(); n],
            taken: 0,
            ramp_end: now.saturating_add(plan.ramp_ns),
            last: (now, 0, 0),
            next_at: now.saturating_add(SECOND_NS),
            verdict: None,
        }
    }

    /// Called at each completion with the job's totals (I/Os and bytes, all directions);
    /// true when steady state is reached and the job should end.
    #[inline]
    pub(crate) fn tick(&mut self, now: u64, ios: u64, bytes: u64) -> bool {
        now >= self.next_at && self.sample(now, ios, bytes)
    }

    #[cold]
    fn sample(&mut self, now: u64, ios: u64, bytes: u64) -> bool {
        let (t0, ios0, bytes0) = std::mem::replace(&mut self.last, (now, ios, bytes));
        self.next_at = now.saturating_add(SECOND_NS);
        if t0 < self.ramp_end || ios < ios0 || bytes < bytes0 {
            // Still ramping, or the statistics started over (the end of `ramp_time`).
            return false;
        }
        let ns = u128::from((now - t0).max(1));
        let per_sec = |n: u64| u64::try_from(u128::from(n) * 1_000_000_000 / ns).unwrap_or(0);
        let len = self.ring.len() as u64;
        self.ring[(self.taken % len) as usize] =
            Sample { iops: per_sec(ios - ios0), bw: per_sec(bytes - bytes0) };
        self.taken += 1;
        if self.taken < len {
            return false;
        }
        let verdict = self.judge();
        self.verdict = Some(verdict);
        verdict.3
    }

    /// The samples, oldest first, zeros for those never taken.
    fn samples(&self) -> Vec<Sample> {
        let len = self.ring.len();
        if self.taken < len as u64 {
            return self.ring.clone();
        }
        let start = (self.taken % len as u64) as usize;
        self.ring[start..].iter().chain(&self.ring[..start]).copied().collect()
    }

    /// Judges the full window: (criterion, max deviation, slope, attained).
    fn judge(&self) -> (f64, f64, f64, bool) {
        let values: Vec<f64> = self
            .samples()
            .iter()
            .map(|s| if self.plan.criterion.bw() { s.bw } else { s.iops } as f64)
            .collect();
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let int_mean = mean.trunc();
        let (mut max_dev, mut slope) = (0.0, 0.0);
        let measure = if self.plan.criterion.slope() {
            let x_mean = (n - 1.0) / 2.0;
            let (mut sxy, mut sxx) = (0.0, 0.0);
            for (i, y) in values.iter().enumerate() {
                let dx = i as f64 - x_mean;
                sxy += dx * (y - mean);
                sxx += dx * dx;
            }
            slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
            slope
        } else {
            max_dev = values.iter().map(|v| (v - mean).abs()).fold(0.0, f64::max);
            max_dev
        };
        let criterion = match (self.plan.percent, int_mean > 0.0) {
            (true, true) => measure * 100.0 / int_mean,
            (true, false) => 0.0,
            (false, _) => measure,
        };
        (criterion, max_dev, slope, criterion.abs() <= self.plan.limit)
    }

    /// What the report shows.
    pub(crate) fn report(&self) -> SteadyReport {
        let samples = self.samples();
        let n = samples.len().max(1) as u64;
        let (criterion, max_deviation, slope, attained) =
            self.verdict.unwrap_or((0.0, 0.0, 0.0, false));
        let plan = &self.plan;
        SteadyReport {
            ss: format!(
                "{}:{:.6}{}",
                plan.criterion.name(),
                plan.limit,
                if plan.percent { "%" } else { "" }
            ),
            criterion_name: match plan.criterion {
                Criterion::Iops => "iops mean dev",
                Criterion::IopsSlope => "iops slope",
                Criterion::Bw => "bw mean dev",
                Criterion::BwSlope => "bw slope",
            }
            .into(),
            percent: plan.percent,
            duration_s: plan.duration_s,
            attained,
            criterion,
            max_deviation,
            slope,
            bw_mean: samples.iter().map(|s| s.bw).sum::<u64>() / n,
            iops_mean: samples.iter().map(|s| s.iops).sum::<u64>() / n,
            iops: samples.iter().map(|s| s.iops).collect(),
            bw: samples.iter().map(|s| s.bw).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(criterion: Criterion, limit: f64, percent: bool, duration_s: u64) -> SteadyPlan {
        SteadyPlan { criterion, limit, percent, duration_s, ramp_ns: 0 }
    }

    /// Feeds one sample a second with these I/O counts (4 KiB each).
    fn feed(s: &mut Steady, counts: &[u64]) -> Vec<bool> {
        let mut ios = 0;
        counts
            .iter()
            .enumerate()
            .map(|(i, c)| {
                ios += c;
                s.tick((i as u64 + 1) * SECOND_NS, ios, ios * 4096)
            })
            .collect()
    }

    #[test]
    fn a_slope_within_its_limit_is_steady_state() {
        // fio 3.33: samples 2001, 2001, 2000 have a slope of -0.5, -0.025% of 2000.
        let mut s = Steady::new(&plan(Criterion::IopsSlope, 5.0, true, 3), 0);
        assert_eq!(feed(&mut s, &[2001, 2001, 2000]), [false, false, true]);
        let r = s.report();
        assert_eq!((r.ss.as_str(), r.attained, r.slope), ("iops_slope:5.000000%", true, -0.5));
        assert_eq!((r.criterion, r.iops_mean, r.bw_mean), (-0.025, 2000, 2000 * 4096 + 2730));
        assert_eq!(r.iops, [2001, 2001, 2000]);
    }

    #[test]
    fn a_deviation_is_measured_from_the_mean() {
        // fio 3.33: bw samples 8200200 and 8192000 deviate 4100 from their mean, 0.050024%.
        let mut s = Steady::new(&plan(Criterion::Iops, 2.0, false, 2), 0);
        assert_eq!(feed(&mut s, &[2001, 2000]), [false, true]);
        assert_eq!((s.report().max_deviation, s.report().criterion), (0.5, 0.5));
        let mut s = Steady::new(&plan(Criterion::Bw, 0.01, true, 2), 0);
        assert_eq!(feed(&mut s, &[2002, 2000, 1000, 1000]), [false, false, false, true]);
        let r = s.report();
        assert_eq!(r.bw, [4_096_000, 4_096_000], "the window rolls on");
        assert_eq!(r.max_deviation, 0.0);
    }

    #[test]
    fn a_window_that_never_fills_reports_zeros() {
        let mut s = Steady::new(&plan(Criterion::Iops, 50.0, true, 3), 0);
        feed(&mut s, &[300, 300]);
        let r = s.report();
        assert_eq!((r.attained, r.criterion, r.iops.as_slice()), (false, 0.0, &[300, 300, 0][..]));
        assert_eq!(r.iops_mean, 200);
    }

    #[test]
    fn samples_before_the_ramp_do_not_count() {
        let mut s = Steady::new(
            &SteadyPlan { ramp_ns: SECOND_NS, ..plan(Criterion::Iops, 0.0, false, 1) },
            0,
        );
        assert_eq!(feed(&mut s, &[5, 7, 7]), [false, true, true]);
        assert_eq!(s.report().iops, [7]);
    }
}
