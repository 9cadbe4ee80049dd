//! `merge_blktrace_file`: the blktrace traces of `read_iolog` merged into one, which the job
//! replays instead (fio's HOWTO, "I/O replay - merging traces").
//!
//! Only the queue records of each trace are kept (what a replay makes I/Os of; upstream
//! fio's merged files hold only those too). Each trace's times are taken from its first
//! queue (so every trace starts at 0), multiplied by its `merge_blktrace_scalars`
//! percentage (50: twice as fast), and the trace is repeated `merge_blktrace_iters` times,
//! each pass starting when the one before ends (at the scaled time of its last queue). The
//! records of all the passes of all the traces are then ordered by time, a tie going to
//! the trace named first (and, within one trace, to its own order), and written one after
//! the other in this machine's byte order, every field but the time and every payload as
//! they were.
//!
//! fio 3.33 writes an empty file and says "iolog short read" for every merge (a bug fixed
//! upstream in 2026, axboe/fio#2099); upstream fio after the fix keeps the queues, their
//! order within a trace and their gaps, but starts each trace at an arbitrary time and
//! plays one pass whatever `merge_blktrace_iters` says, so no fio writes a merged file to
//! compare with iomark's byte for byte.

use super::blktrace::{Record, Records};
use crate::error::OptionError;
use iomark_options::keys;
use iomark_options::JobSpec;
use std::path::PathBuf;

/// A job's merge: which traces, how, and where the merged trace goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Merge {
    /// The traces, in `read_iolog`'s order.
    pub traces: Vec<PathBuf>,
    /// Each trace's time scale, in percent.
    pub scalars: Vec<f64>,
    /// How many times each trace is played.
    pub iters: Vec<u64>,
    /// `merge_blktrace_file`.
    pub output: PathBuf,
}

impl Merge {
    /// The merge `spec` asks for, if it sets `merge_blktrace_file`.
    pub fn of(spec: &JobSpec) -> Result<Option<Merge>, OptionError> {
        let Some(output) = spec.get(keys::MERGE_BLKTRACE_FILE).filter(|f| !f.is_empty()) else {
            return Ok(None);
        };
        let Some(logs) = spec.get(keys::READ_IOLOG).filter(|v| !v.is_empty()) else {
            let why = "needs the traces to merge in read_iolog";
            return Err(OptionError::new(keys::MERGE_BLKTRACE_FILE, why.to_string()));
        };
        let traces: Vec<PathBuf> =
            super::split_names(&logs).into_iter().map(PathBuf::from).collect();
        let list = |key: iomark_options::keys::Key<Vec<f64>>, default: f64| {
            let values = spec.get(key).unwrap_or_else(|| vec![default; traces.len()]);
            if values.len() != traces.len() {
                let why = format!(
                    "{} values for {} traces in read_iolog: give one per trace",
                    values.len(),
                    traces.len()
                );
                return Err(OptionError::new(key, why));
            }
            Ok(values)
        };
        let scalars = list(keys::MERGE_BLKTRACE_SCALARS, 100.0)?;
        if let Some(bad) = scalars.iter().find(|s| !s.is_finite() || **s <= 0.0) {
            let why = format!("{bad}: a percentage above 0");
            return Err(OptionError::new(keys::MERGE_BLKTRACE_SCALARS, why));
        }
        let iters = list(keys::MERGE_BLKTRACE_ITERS, 1.0)?;
        if let Some(bad) = iters.iter().find(|n| n.fract() != 0.0 || **n < 1.0 || **n > 1e6) {
            let why = format!("{bad}: a whole number of passes, at least 1");
            return Err(OptionError::new(keys::MERGE_BLKTRACE_ITERS, why));
        }
        let iters = iters.into_iter().map(|n| n as u64).collect();
        Ok(Some(Merge { traces, scalars, iters, output: PathBuf::from(output) }))
    }

    /// The merged trace.
    pub fn merged(&self) -> Result<Vec<u8>, String> {
        // Every record of every pass: (time, trace, the record).
        let mut all: Vec<(u64, usize, Record)> = Vec::new();
        for (i, path) in self.traces.iter().enumerate() {
            let records = read_all(path)?;
            let (Some(first), Some(last)) = (records.first(), records.last()) else {
                return Err(format!("'{}' holds no queue record", path.display()));
            };
            let start = first.time;
            let scale = |t: u64| (t.saturating_sub(start) as f64 * self.scalars[i] / 100.0) as u64;
            let span = scale(last.time);
            for pass in 0..self.iters[i] {
                let base = span.saturating_mul(pass);
                for r in &records {
                    all.push((base.saturating_add(scale(r.time)), i, r.clone()));
                }
            }
        }
        // A stable sort: ties keep the trace order, and each trace's own order.
        all.sort_by_key(|&(time, trace, _)| (time, trace));
        let mut out = Vec::with_capacity(all.len() * super::blktrace::RECORD_LEN);
        for (time, _, mut r) in all {
            r.time = time;
            r.write_to(&mut out);
        }
        Ok(out)
    }

    /// Writes the merged trace to `merge_blktrace_file`.
    pub fn write(&self) -> Result<(), String> {
        let bytes = self.merged()?;
        std::fs::write(&self.output, bytes)
            .map_err(|e| format!("cannot write '{}': {e}", self.output.display()))
    }
}

/// Writes the merged trace of every job of `specs` that sets `merge_blktrace_file`, as a
/// run does before its jobs start (and `--merge-blktrace-only` instead of them).
pub fn write_all(specs: &[JobSpec]) -> Result<(), crate::PlanError> {
    for spec in specs {
        if let Some(merge) = Merge::of(spec).map_err(|e| e.in_job(&spec.name))? {
            merge
                .write()
                .map_err(|e| OptionError::new(keys::MERGE_BLKTRACE_FILE, e).in_job(&spec.name))?;
        }
    }
    Ok(())
}

/// Every record of the trace at `path`.
fn read_all(path: &std::path::Path) -> Result<Vec<Record>, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    if !super::blktrace::is_trace(&bytes) {
        return Err(format!("'{}' is not a blktrace trace", path.display()));
    }
    let mut records = Records::new(&bytes[..]);
    let mut all = Vec::new();
    while let Some(r) = records.next_record().map_err(|e| format!("'{}': {e}", path.display()))? {
        if r.queue() {
            all.push(r);
        }
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::blktrace::tests::{rec, trace_bytes};

    #[test]
    fn traces_merge_in_time_order_scaled_and_repeated() {
        let dir = tempfile::tempdir().unwrap();
        // A queue, a completion (left out), two queues.
        let a = [rec(100, 1, 512, 1, 1), rec(150, 1, 512, 8, 1)]
            .into_iter()
            .chain([rec(200, 2, 512, 1, 1), rec(300, 3, 512, 1, 1)])
            .collect::<Vec<_>>();
        let mut named = rec(1150, 5, 512, 1, 2);
        named.pdu = b"name\0".to_vec();
        let b = [rec(1000, 4, 512, 1, 2), named];
        let (pa, pb) = (dir.path().join("a.bin"), dir.path().join("b.bin"));
        std::fs::write(&pa, trace_bytes(&a)).unwrap();
        std::fs::write(&pb, trace_bytes(&b)).unwrap();
        let output = dir.path().join("m.bin");
        let merge = Merge {
            traces: vec![pa, pb],
            scalars: vec![50.0, 100.0],
            iters: vec![2, 1],
            output: output.clone(),
        };
        merge.write().unwrap();
        let bytes = std::fs::read(&output).unwrap();
        let mut records = Records::new(&bytes[..]);
        let got: Vec<(u32, u64, u64, usize)> =
            std::iter::from_fn(|| records.next_record().unwrap())
                .map(|r| (r.sequence, r.time, r.sector, r.pdu.len()))
                .collect();
        assert_eq!(
            got,
            [(0, 0, 1, 0), (0, 0, 4, 0), (2, 50, 2, 0), (3, 100, 3, 0), (0, 100, 1, 0)]
                .into_iter()
                .chain([(2, 150, 2, 0), (1, 150, 5, 5), (3, 200, 3, 0)])
                .collect::<Vec<_>>()
        );
    }
}
