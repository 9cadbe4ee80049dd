//! `--idle-prof`: how idle the CPUs were while the jobs ran, measured as fio 3.33 measures
//! it.
//!
//! First a unit of work (a fixed run of arithmetic no compiler can drop) is timed on every
//! CPU in turn, at normal priority ([`IdleProfiler::calibrate`]), leaving out the units
//! that something interrupted (over twice the CPU's median): their mean and standard
//! deviation are the report's `unit work`. Then, for the run, a spinner pinned to each CPU
//! under `SCHED_IDLE` (it runs only when the CPU has nothing else to run) does units of
//! work until the jobs end ([`IdleProfiler::start`], [`Spinners::finish`]). A CPU's
//! idleness is the time its units would have taken at their calibrated pace, as a share
//! of the time the spinner was out; the system's is the mean of the CPUs'.
//!
//! Beyond fio: a CPU's figure is capped at 100% (fio's goes past it when the calibration
//! ran slower than the spinner, e.g. on a busy machine). This runs beside the jobs, off
//! their I/O path; none of it is timed in tests (bench/ has the figures).

use iomark_engine::thread as sys;
use iomark_stats::report::IdleReport;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// Iterations in one unit of work.
const UNIT_STEPS: u32 = 6_144;
/// Units timed on each CPU for the calibration (after as many unmeasured ones).
const CALIBRATION_UNITS: usize = 64;

/// One unit of work: `UNIT_STEPS` rounds of xorshift on a value the compiler cannot see
/// through.
fn unit(seed: u64) -> u64 {
    let mut x = black_box(seed) | 1;
    for _ in 0..UNIT_STEPS {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    black_box(x)
}

/// The times of `units` that nothing interrupted: those at most twice their median (a unit
/// that took longer was preempted, or met an interrupt, and says nothing of the pace).
fn undisturbed(mut units: Vec<f64>) -> Vec<f64> {
    units.sort_by(f64::total_cmp);
    let median = units.get(units.len() / 2).copied().unwrap_or(0.0);
    units.retain(|&t| t <= 2.0 * median);
    units
}

/// The calibrated unit of work of every CPU.
#[derive(Debug, Clone)]
pub struct IdleProfiler {
    /// Per CPU (in CPU order), its unit's mean time in nanoseconds; `None` for a CPU the
    /// calibration could not run on.
    per_cpu_ns: Vec<Option<f64>>,
    /// The mean of every unit timed, in microseconds.
    pub unit_mean_us: f64,
    /// Their standard deviation, in microseconds.
    pub unit_stddev_us: f64,
}

impl IdleProfiler {
    /// Times the unit of work on every online CPU, one after the other.
    pub fn calibrate() -> IdleProfiler {
        let cpus = iomark_engine::system::online_cpus() as u32;
        let mut all = Vec::new();
        let mut per_cpu_ns = Vec::new();
        for cpu in 0..cpus {
            let samples = std::thread::spawn(move || {
                sys::set_affinity(&[cpu]).ok()?;
                (0..CALIBRATION_UNITS as u64).for_each(|i| {
                    unit(i);
                });
                let times = (0..CALIBRATION_UNITS as u64).map(|i| {
                    let start = Instant::now();
                    unit(i);
                    start.elapsed().as_nanos() as f64
                });
                Some(undisturbed(times.collect()))
            })
            .join()
            .ok()
            .flatten();
            per_cpu_ns.push(samples.as_ref().map(|s| s.iter().sum::<f64>() / s.len() as f64));
            all.extend(samples.unwrap_or_default());
        }
        let n = all.len().max(1) as f64;
        let mean = all.iter().sum::<f64>() / n;
        let var = all.iter().map(|t| (t - mean) * (t - mean)).sum::<f64>() / (n - 1.0).max(1.0);
        IdleProfiler {
            per_cpu_ns,
            unit_mean_us: mean / 1000.0,
            unit_stddev_us: var.sqrt() / 1000.0,
        }
    }

    /// The calibration alone, as a report with no idleness measured.
    pub fn report(&self) -> IdleReport {
        IdleReport {
            system: 0.0,
            percpu: Vec::new(),
            unit_mean_us: self.unit_mean_us,
            unit_stddev_us: self.unit_stddev_us,
        }
    }

    /// Starts an idle-priority spinner on every CPU the calibration ran on.
    pub fn start(&self) -> Spinners {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = self
            .per_cpu_ns
            .iter()
            .enumerate()
            .map(|(cpu, unit_ns)| {
                let stop = Arc::clone(&stop);
                unit_ns.map(|_| std::thread::spawn(move || spin(cpu as u32, &stop)))
            })
            .collect();
        Spinners { profiler: self.clone(), stop, threads }
    }
}

/// What a spinner did: how many units, in how many nanoseconds.
type Spun = (u64, f64);

/// The spinner on `cpu`: units of work under `SCHED_IDLE` until `stop`; what it did (none
/// if it could not be placed).
fn spin(cpu: u32, stop: &AtomicBool) -> Option<Spun> {
    sys::set_affinity(&[cpu]).ok()?;
    sys::set_idle_policy().ok()?;
    let start = Instant::now();
    let mut units = 0u64;
    while !stop.load(Ordering::Relaxed) {
        unit(units);
        units += 1;
    }
    Some((units, start.elapsed().as_nanos() as f64))
}

/// The spinners of a run, running.
#[derive(Debug)]
pub struct Spinners {
    profiler: IdleProfiler,
    stop: Arc<AtomicBool>,
    threads: Vec<Option<JoinHandle<Option<Spun>>>>,
}

impl Spinners {
    /// Stops the spinners and reports the CPUs' idleness (each CPU's too when `percpu`).
    pub fn finish(self, percpu: bool) -> IdleReport {
        self.stop.store(true, Ordering::Relaxed);
        let idleness: Vec<f64> = self
            .threads
            .into_iter()
            .zip(&self.profiler.per_cpu_ns)
            .map(|(thread, unit_ns)| {
                let spun = thread.and_then(|t| t.join().ok().flatten());
                match (spun, unit_ns) {
                    (Some((units, ns)), Some(unit_ns)) if ns > 0.0 => {
                        (units as f64 * unit_ns / ns * 100.0).min(100.0)
                    }
                    _ => 0.0,
                }
            })
            .collect();
        let system = idleness.iter().sum::<f64>() / idleness.len().max(1) as f64;
        IdleReport {
            system,
            percpu: if percpu { idleness } else { Vec::new() },
            unit_mean_us: self.profiler.unit_mean_us,
            unit_stddev_us: self.profiler.unit_stddev_us,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figures are in range (their values depend on the machine; bench/ shows them).
    #[test]
    fn interrupted_units_are_left_out() {
        assert_eq!(undisturbed(vec![10.0, 500.0, 11.0, 9.0, 12.0]), [9.0, 10.0, 11.0, 12.0]);
        assert!(undisturbed(Vec::new()).is_empty());
    }

    #[test]
    fn idleness_is_a_share_and_the_unit_takes_time() {
        let profiler = IdleProfiler::calibrate();
        assert!(profiler.unit_mean_us > 0.0 && profiler.unit_stddev_us >= 0.0);
        let report = profiler.start().finish(true);
        assert_eq!(report.percpu.len(), iomark_engine::system::online_cpus() as usize);
        for share in report.percpu.iter().chain([&report.system]) {
            assert!((0.0..=100.0).contains(share), "{share}");
        }
    }
}
