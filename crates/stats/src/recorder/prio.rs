//! [`PrioRecorder`]: the latency of each I/O priority of a job (fio's statistics for
//! `cmdprio_percentage`, `cmdprio_class`, `cmdprio_bssplit`), kept so that the priorities
//! of a direction add up exactly to the direction.
//!
//! Exact by construction: while the job runs, its own priority (the first) keeps only its
//! count and sums; its histogram is made when recording ends ([`PrioRecorder::settle`]) as
//! what is left of the direction's histogram once the other priorities' are taken out. The
//! priorities' histograms therefore add up, bucket by bucket, to the direction's, and since
//! a bin's value is its bucket's alone (see [`LatHistogram`](crate::LatHistogram)), their
//! json+ bins add up to the direction's bins under the same keys. It also spares the I/O
//! path a second histogram update for the I/Os of the job's own priority, usually most.
//!
//! Every later merge adds histograms: priorities of equal value merge (`group_reporting`),
//! the three directions merge into `mixed`, and a job that kept no priorities joins a merge
//! with all its I/Os under its own priority, as fio 3.33 counts them.
//!
//! Each direction lists its priorities as fio 3.33 does: the job's own, then those its
//! rule gives, in the order of the options; a merge appends the other side's that are new,
//! in its order; `mixed` lists the reads', then the writes' and trims' that are new
//! ([`PrioRecorder::mixed`]).

use super::lat::{DirRecorder, LatRecorder};
use crate::hist::NotAShare;

/// Latency per I/O priority: for each direction, each priority its I/Os may have with
/// their completion latency (the total latency with `lat_percentiles`, as fio 3.33
/// chooses).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PrioRecorder {
    /// Reads, writes, trims: each priority (an `ioprio_set(2)` value) the direction's I/Os
    /// may have, in the order fio 3.33 lists them, the job's own first, with its latency.
    pub dirs: [Vec<(u16, LatRecorder)>; 3],
    /// Whether the latency is the total latency rather than the completion latency.
    pub total_latency: bool,
    /// Whether the first priority's histograms hold their share (see the module doc).
    settled: bool,
}

impl PrioRecorder {
    /// The priorities of each direction in `listed` (each list the job's own first), with
    /// a histogram in the directions `hists` says.
    pub(crate) fn new(listed: [Vec<u16>; 3], total_latency: bool, hists: [bool; 3]) -> Self {
        let mut d = 0;
        let dirs = listed.map(|values| {
            let hist = hists[d];
            d += 1;
            values.into_iter().map(|v| (v, LatRecorder::new(hist))).collect()
        });
        PrioRecorder { dirs, total_latency, settled: false }
    }

    /// Priorities recorded elsewhere and complete (a remote job's, as fio's client/server
    /// protocol carries them): each direction's list, the job's own first.
    pub fn from_settled(dirs: [Vec<(u16, LatRecorder)>; 3], total_latency: bool) -> Self {
        PrioRecorder { dirs, total_latency, settled: true }
    }

    /// A job's I/Os all under its own priority `own`: how a job that kept no priorities
    /// takes part in a merge with one that did.
    pub(crate) fn whole(own: u16, dirs: &[DirRecorder; 3], total_latency: bool) -> Self {
        let kept = |d: &DirRecorder| if total_latency { d.lat.clone() } else { d.clat.clone() };
        PrioRecorder {
            dirs: [0, 1, 2].map(|d| vec![(own, kept(&dirs[d]))]),
            total_latency,
            settled: true,
        }
    }

    /// Records latency `ns` of an I/O of direction `d` with priority `ioprio`; 0, or a
    /// priority the direction does not list, is the job's own, which keeps its sums only.
    #[inline]
    pub(crate) fn record(&mut self, d: usize, ioprio: u16, ns: u64) {
        let Some(((_, own), others)) = self.dirs[d].split_first_mut() else { return };
        match others.iter_mut().find(|(v, _)| *v == ioprio && ioprio != 0) {
            Some((_, r)) => r.record(ns),
            None => own.moments.record(ns),
        }
    }

    /// Ends recording: gives the job's own priority, in each direction, what is left of
    /// the direction's histogram in `dirs` (the one of the kept latency) once the other
    /// priorities' are taken out. Once; later calls change nothing. [`Err`] if some
    /// priority held values its direction did not, which would be a bug of the recording.
    pub(crate) fn settle(&mut self, dirs: &[DirRecorder; 3]) -> Result<(), NotAShare> {
        if std::mem::replace(&mut self.settled, true) {
            return Ok(());
        }
        let mut result = Ok(());
        for (list, dir) in self.dirs.iter_mut().zip(dirs) {
            let whole = if self.total_latency { &dir.lat } else { &dir.clat };
            let Some(((_, own), others)) = list.split_first_mut() else { continue };
            if let (Some(share), Some(whole)) = (&mut own.hist, &whole.hist) {
                let taken = others.iter().filter_map(|(_, o)| o.hist.as_ref());
                result = result.and(share.set_remainder(whole, taken));
            }
        }
        result
    }

    /// Adds another job's priorities, direction by direction: equal values merge, new
    /// ones are appended in the other's order.
    pub(crate) fn merge(&mut self, other: &PrioRecorder) {
        for (mine, theirs) in self.dirs.iter_mut().zip(&other.dirs) {
            merge_list(mine, theirs.iter().map(|(v, r)| (*v, r)));
        }
    }

    /// The priorities of the three directions as one (fio's `mixed`): the reads', then
    /// the writes' and trims' that are new, each with its directions' latencies merged.
    pub fn mixed(&self) -> Vec<(u16, LatRecorder)> {
        let mut all = Vec::new();
        for list in &self.dirs {
            merge_list(&mut all, list.iter().map(|(v, r)| (*v, r)));
        }
        all
    }

    /// Forgets every value; keeps the allocations.
    pub(crate) fn clear(&mut self) {
        self.dirs.iter_mut().flatten().for_each(|(_, r)| r.clear());
    }
}

/// Merges `theirs` into `mine` by priority, appending the priorities `mine` lacks.
fn merge_list<'a>(
    mine: &mut Vec<(u16, LatRecorder)>,
    theirs: impl IntoIterator<Item = (u16, &'a LatRecorder)>,
) {
    for (v, rec) in theirs {
        match mine.iter_mut().find(|(m, _)| *m == v) {
            Some((_, r)) => r.merge(rec),
            None => mine.push((v, rec.clone())),
        }
    }
}
