//! fio's ETA line, built from snapshots of the running jobs ([`iomark_stats::progress`]).
//!
//! The runner samples the jobs' published counters every `--eta-interval`; [`EtaLine`]
//! turns each sample into the one line fio 3.33 redraws on a terminal:
//!
//! ```text
//! Jobs: 1 (f=1): [r(1)][45.0%][r=92.3MiB/s][r=23.6k IOPS][eta 00m:11s]
//! ```
//!
//! The rules below were established by running fio 3.33 under `script`:
//!
//! - `Jobs: N (f=F)` counts the started, unfinished jobs and their open files. For the first
//!   two seconds after the first job starts only that part is shown.
//! - The state of every job, run-length encoded: `P` not started, `/` ramping, `R`/`r` reading
//!   sequentially/randomly, `W`/`w` writing, `M`/`m` mixed, `D`/`d` trimming, `F` the final
//!   fsync, `_` done: `[_(2),R(1),_(1)]`.
//! - Percent done is `e / (e + eta)` with `e` the whole seconds since the first job started,
//!   rounded up. A job's eta is its time limit (startdelay + ramp_time + runtime) minus its
//!   elapsed seconds when it is time-limited, else it is extrapolated from its bytes done of
//!   the bytes planned (`io_size` × `loops`); not-started time-limited jobs count with their
//!   whole limit. The run's eta is the largest job eta (fio does not add up stonewalled waves).
//! - Rates are taken over the time since the previous update, one entry per direction that
//!   moved: `[r=…,w=…]` in KiB/s scaled to 4 figures, `[r=…,w=… IOPS]`; both are left out when
//!   nothing moved.
//! - The eta is `MMm:SSs`, `HHh:MMm:SSs` from one hour, `Dd:HHh:MMm:SSs` from one day.
//! - Each line ends with a carriage return and no newline; a line shorter than the previous
//!   one is padded with blanks. With `--eta-newline=T`, once T has passed since the last
//!   newline, the next line is preceded by a newline.

use crate::units::{scaled, Unit};
use iomark_stats::progress::{JobSample, JobShape, JobState, Sample};
use std::time::Duration;

/// How the ETA line shows numbers: a rate in bytes per second and a count (IOPS).
#[derive(Debug, Clone, Copy)]
pub struct NumberFormat {
    /// Formats bytes per second (`92.3MiB/s`).
    pub rate: fn(u64) -> String,
    /// Formats a count (`23.6k`).
    pub count: fn(u64) -> String,
}

impl NumberFormat {
    /// fio's: rates in KiB/s scaled to four figures (`5124KiB/s`, `92.3MiB/s`), counts
    /// scaled to four figures in powers of 1000 (`23.6k`).
    pub const FIO: NumberFormat = NumberFormat { rate: fio_rate, count: fio_count };
}

/// A rate on fio's ETA line.
fn fio_rate(bytes_per_sec: u64) -> String {
    let kib = bytes_per_sec / 1024;
    if kib < 10_000 {
        format!("{kib}KiB/s")
    } else {
        scaled(kib * 1024, 4, true, Unit::BytePerSec)
    }
}

/// A count (IOPS) on fio's ETA line.
fn fio_count(n: u64) -> String {
    scaled(n, 4, false, Unit::None)
}

/// Builds successive ETA lines from samples; keeps what the next line depends on.
#[derive(Debug)]
pub struct EtaLine {
    shapes: Vec<JobShape>,
    format: NumberFormat,
    newline_ms: Option<u64>,
    previous: Option<Sample>,
    last_len: usize,
    newline_mark_ms: Option<u64>,
    newline_pending: bool,
}

impl EtaLine {
    /// A line for jobs of these shapes; `newline` is `--eta-newline`.
    pub fn new(shapes: Vec<JobShape>, format: NumberFormat, newline: Option<Duration>) -> Self {
        EtaLine {
            shapes,
            format,
            newline_ms: newline.map(|d| d.as_millis() as u64).filter(|&ms| ms > 0),
            previous: None,
            last_len: 0,
            newline_mark_ms: None,
            newline_pending: false,
        }
    }

    /// The text to write for `sample` (with its padding, carriage return and any newline), or
    /// `None` while no job has started.
    pub fn update(&mut self, sample: Sample) -> Option<String> {
        let first_start = sample.jobs.iter().filter_map(|j| j.started_ms).min()?;
        let line = self.render(&sample, first_start);
        let mut out = String::with_capacity(line.len() + 8);
        if self.newline_pending {
            out.push('\n');
            self.newline_pending = false;
        }
        out.push_str(&line);
        for _ in line.len()..self.last_len {
            out.push(' ');
        }
        out.push('\r');
        self.last_len = line.len();
        if let Some(every) = self.newline_ms {
            match self.newline_mark_ms {
                None => self.newline_mark_ms = Some(sample.now_ms),
                Some(mark) if sample.now_ms.saturating_sub(mark) > every => {
                    self.newline_mark_ms = Some(sample.now_ms);
                    self.newline_pending = true;
                }
                Some(_) => {}
            }
        }
        self.previous = Some(sample);
        Some(out)
    }

    /// The line itself, without padding.
    fn render(&self, sample: &Sample, first_start: u64) -> String {
        let running = |j: &&JobSample| {
            matches!(j.state, JobState::Ramp | JobState::Running | JobState::Fsync)
        };
        let jobs = sample.jobs.iter().filter(running).count();
        let files: u32 = sample.jobs.iter().filter(running).map(|j| j.files).sum();
        let mut line = format!("Jobs: {jobs} (f={files})");
        let elapsed_ms = sample.now_ms.saturating_sub(first_start);
        let eta = self.eta_s(sample);
        let (Some(eta), true) = (eta, elapsed_ms >= 2000) else {
            return line;
        };
        line.push_str(": [");
        line.push_str(&self.states(sample));
        let e = elapsed_ms.div_ceil(1000);
        let pct = if e + eta == 0 { 100.0 } else { e as f64 * 100.0 / (e + eta) as f64 };
        line.push_str(&format!("][{pct:.1}%]"));
        let (bw, iops) = self.rates(sample);
        let names = ["r", "w", "t"];
        let list = |v: [u64; 3], f: fn(u64) -> String| {
            let parts: Vec<String> =
                (0..3).filter(|&d| v[d] > 0).map(|d| format!("{}={}", names[d], f(v[d]))).collect();
            parts.join(",")
        };
        if bw.iter().any(|&b| b >= 1024) {
            let kib = bw.map(|b| b / 1024 * 1024);
            line.push_str(&format!("[{}]", list(kib, self.format.rate)));
        }
        if iops.iter().any(|&n| n > 0) {
            line.push_str(&format!("[{} IOPS]", list(iops, self.format.count)));
        }
        line.push_str(&format!("[eta {}]", eta_text(eta)));
        line
    }

    /// `R(1),_(2)`: each job's state letter, run-length encoded.
    fn states(&self, sample: &Sample) -> String {
        let letters = sample.jobs.iter().zip(&self.shapes).map(|(j, s)| match j.state {
            JobState::Pending => 'P',
            JobState::Ramp => '/',
            JobState::Running => s.letter,
            JobState::Fsync => 'F',
            JobState::Done => '_',
        });
        let mut runs: Vec<(char, usize)> = Vec::new();
        for c in letters {
            match runs.last_mut() {
                Some((last, n)) if *last == c => *n += 1,
                _ => runs.push((c, 1)),
            }
        }
        let parts: Vec<String> = runs.iter().map(|(c, n)| format!("{c}({n})")).collect();
        parts.join(",")
    }

    /// Bytes and I/Os per second per direction since the previous sample (or the start).
    fn rates(&self, sample: &Sample) -> ([u64; 3], [u64; 3]) {
        let mut bytes = [0u64; 3];
        let mut ios = [0u64; 3];
        let mut since = u64::MAX;
        for (k, job) in sample.jobs.iter().enumerate() {
            let before = self.previous.as_ref().and_then(|p| p.jobs.get(k));
            let from = match before {
                Some(b) if b.started_ms.is_some() => self.previous.as_ref().map_or(0, |p| p.now_ms),
                _ => job.started_ms.unwrap_or(sample.now_ms),
            };
            since = since.min(from);
            for d in 0..3 {
                bytes[d] += job.bytes[d] - before.map_or(0, |b| b.bytes[d].min(job.bytes[d]));
                ios[d] += job.ios[d] - before.map_or(0, |b| b.ios[d].min(job.ios[d]));
            }
        }
        let ms = sample.now_ms.saturating_sub(since).max(1);
        (bytes.map(|b| b * 1000 / ms), ios.map(|n| n * 1000 / ms))
    }

    /// The run's eta in seconds: the largest job eta, `None` while a running job's is unknown.
    fn eta_s(&self, sample: &Sample) -> Option<u64> {
        run_eta_s(sample, &self.shapes)
    }
}

/// The run's eta in seconds for `sample` of jobs of these `shapes`, as the ETA line shows
/// it: the largest job eta, `None` while a running job's is unknown.
pub fn run_eta_s(sample: &Sample, shapes: &[JobShape]) -> Option<u64> {
    let mut eta = 0u64;
    for (job, shape) in sample.jobs.iter().zip(shapes) {
        let job_eta = match (job.state, job.started_ms) {
            (JobState::Done, _) => 0,
            (JobState::Pending, _) | (_, None) => shape.time_limit_s.unwrap_or(0),
            (_, Some(start)) => job_eta(job, shape, sample.now_ms.saturating_sub(start))?,
        };
        eta = eta.max(job_eta);
    }
    Some(eta)
}

/// A started job's eta in seconds after `elapsed_ms` of running.
fn job_eta(job: &JobSample, shape: &JobShape, elapsed_ms: u64) -> Option<u64> {
    let by_time = shape.time_limit_s.map(|t| t.saturating_sub(elapsed_ms.div_ceil(1000)));
    if shape.time_based {
        return by_time;
    }
    let done: u64 = job.bytes.iter().sum();
    let by_bytes = if done > 0 && shape.planned_bytes > 0 {
        let fraction = (done as f64 / shape.planned_bytes as f64).min(1.0);
        let secs = elapsed_ms as f64 / 1000.0;
        Some((secs / fraction - secs).round() as u64)
    } else {
        None
    };
    match (by_time, by_bytes) {
        (Some(t), Some(b)) => Some(t.min(b)),
        (t, b) => t.or(b),
    }
}

/// fio's eta: `05m:09s`, `01h:02m:03s`, `2d:01h:02m:03s`.
pub fn eta_text(secs: u64) -> String {
    let (d, h, m, s) = (secs / 86_400, secs / 3600 % 24, secs / 60 % 60, secs % 60);
    if d > 0 {
        format!("{d}d:{h:02}h:{m:02}m:{s:02}s")
    } else if h > 0 {
        format!("{h:02}h:{m:02}m:{s:02}s")
    } else {
        format!("{m:02}m:{s:02}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORMAT: NumberFormat =
        NumberFormat { rate: |b| format!("{}KiB/s", b / 1024), count: |n| n.to_string() };

    fn shape(letter: char, time_limit_s: Option<u64>, planned_bytes: u64) -> JobShape {
        JobShape { letter, time_limit_s, time_based: time_limit_s.is_some(), planned_bytes }
    }

    fn job(state: JobState, started_ms: Option<u64>, bytes: [u64; 3], ios: [u64; 3]) -> JobSample {
        JobSample { state, files: 1, started_ms, bytes, ios }
    }

    #[test]
    fn eta_text_follows_fios_three_layouts() {
        assert_eq!(eta_text(11), "00m:11s");
        assert_eq!(eta_text(3600 + 62), "01h:01m:02s");
        assert_eq!(eta_text(4_294_967_295), "49710d:06h:28m:15s");
    }

    #[test]
    fn nothing_is_shown_before_a_job_starts() {
        let mut line = EtaLine::new(vec![shape('r', Some(5), 0)], FORMAT, None);
        let sample =
            Sample { now_ms: 1000, jobs: vec![job(JobState::Pending, None, [0; 3], [0; 3])] };
        assert_eq!(line.update(sample), None);
    }

    #[test]
    fn the_first_two_seconds_show_only_the_job_count() {
        let mut line = EtaLine::new(vec![shape('r', Some(5), 0)], FORMAT, None);
        let sample = Sample {
            now_ms: 1999,
            jobs: vec![job(JobState::Running, Some(0), [4096, 0, 0], [1, 0, 0])],
        };
        assert_eq!(line.update(sample).as_deref(), Some("Jobs: 1 (f=1)\r"));
    }

    #[test]
    fn a_full_line_has_states_percent_rates_and_eta() {
        let shapes =
            vec![shape('w', Some(3), 0), shape('M', Some(3), 0), shape('R', None, 1 << 30)];
        let mut line = EtaLine::new(shapes, FORMAT, None);
        // 2.5 s in: job 0 done, job 1 (time-based, 3 s) started at 0, job 2 not started.
        let sample = Sample {
            now_ms: 2500,
            jobs: vec![
                job(JobState::Done, Some(0), [0, 8192, 0], [0, 2, 0]),
                job(JobState::Running, Some(500), [10 << 20, 5 << 20, 0], [2560, 1280, 0]),
                job(JobState::Pending, None, [0; 3], [0; 3]),
            ],
        };
        // e = 3 s (rounded up), eta = 3 - ceil(2.0) = 1 s: 75%. Rates over the 2.5 s since
        // the first start: 15 MiB+8 KiB written in all, 10 MiB read.
        assert_eq!(
            line.update(sample).as_deref(),
            Some(
                "Jobs: 1 (f=1): [_(1),M(1),P(1)][75.0%][r=4096KiB/s,w=2051KiB/s]\
                 [r=1024,w=512 IOPS][eta 00m:01s]\r"
            )
        );
    }

    #[test]
    fn byte_limited_jobs_extrapolate_and_rates_use_the_previous_sample() {
        let mut line = EtaLine::new(vec![shape('r', None, 100 << 20)], FORMAT, None);
        let at = |ms: u64, mib: u64| Sample {
            now_ms: ms,
            jobs: vec![job(JobState::Running, Some(0), [mib << 20, 0, 0], [mib * 256, 0, 0])],
        };
        line.update(at(1000, 10));
        // 2 s for 20% → 8 s to go; e = 2: 20%. 10 MiB in the last second.
        assert_eq!(
            line.update(at(2000, 20)).as_deref(),
            Some("Jobs: 1 (f=1): [r(1)][20.0%][r=10240KiB/s][r=2560 IOPS][eta 00m:08s]\r")
        );
        // Nothing moved: no rate brackets, and the shorter line is padded.
        let text = line.update(at(3000, 20)).unwrap();
        assert!(text.starts_with("Jobs: 1 (f=1): [r(1)][20.0%][eta 00m:12s]  "), "{text}");
        assert!(text.ends_with(" \r"));
    }

    #[test]
    fn eta_newline_puts_a_newline_before_the_line_after_the_period() {
        let mut line =
            EtaLine::new(vec![shape('r', Some(9), 0)], FORMAT, Some(Duration::from_secs(1)));
        let at = |ms: u64| Sample {
            now_ms: ms,
            jobs: vec![job(JobState::Running, Some(0), [0; 3], [0; 3])],
        };
        let texts: Vec<String> =
            [500, 1000, 1500, 2000, 2500].map(|ms| line.update(at(ms)).unwrap()).into();
        let newlines: Vec<bool> = texts.iter().map(|t| t.starts_with('\n')).collect();
        // Marked at 500; 1500 is not more than 1 s later, 2000 is: the 2500 line gets it.
        assert_eq!(newlines, [false, false, false, false, true]);
    }

    #[test]
    fn fios_number_format_scales_rates_from_ten_thousand_kib() {
        let f = NumberFormat::FIO;
        assert_eq!((f.rate)(5124 * 1024), "5124KiB/s");
        assert_eq!((f.rate)(9999 * 1024 + 1023), "9999KiB/s");
        assert_eq!((f.rate)(92_300 * 1024), "90.1MiB/s");
        assert_eq!((f.count)(999), "999");
        assert_eq!((f.count)(23_600), "23.6k");
    }
}
