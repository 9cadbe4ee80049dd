//! [`RecorderConfig`]: which statistics a job keeps, and [`SyncKind`], how a sync counts.

/// The kind of a sync I/O, which decides how fio 3.33 counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SyncKind {
    /// `fsync=N`: in the sync latency and in the syncs issued.
    Fsync,
    /// `fdatasync=N`: in the sync latency only (fio 3.33 also adds it to the short
    /// reads, its count of syncs spilling into the next count; iomark does not).
    Fdatasync,
    /// `sync_file_range`: in the sync latency only (fio 3.33 also adds it to the short
    /// writes, likewise; iomark does not).
    FileRange,
}

/// Which statistics a job keeps; decides what [`super::JobRecorder::new`] allocates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RecorderConfig {
    /// The directions the job performs (from `rw`); histograms exist only for these.
    pub dirs: [bool; 3],
    /// Whether the engine measures a separate submission latency (async engines). Sync
    /// engines have none, and fio prints no slat line for them. fio's `disable_slat`
    /// turns it off for any engine.
    pub slat: bool,
    /// Whether completion latency is recorded (off with fio's `disable_clat`): then the
    /// clat figures stay empty, and so do the latency buckets, which count clat.
    pub clat: bool,
    /// Whether total latency is recorded (off with fio's `disable_lat`).
    pub lat: bool,
    /// fio's `clat_percentiles` (default on): a clat histogram per direction.
    pub clat_percentiles: bool,
    /// fio's `lat_percentiles` (default off): a lat histogram per direction.
    pub lat_percentiles: bool,
    /// fio's `slat_percentiles` (default off): a slat histogram per direction, if `slat`.
    pub slat_percentiles: bool,
    /// Whether the job issues `fsync`/`fdatasync`/`sync_file_range` I/Os; their latency
    /// histogram exists when this and clat or lat percentiles are on, as fio reports it.
    pub syncs: bool,
    /// fio's `bwavgtime`, in milliseconds (default 500).
    pub bw_avg_ms: u64,
    /// fio's `iopsavgtime`, in milliseconds (default 500).
    pub iops_avg_ms: u64,
    /// Directions whose every I/O has lat equal to clat (reads and trims on a synchronous
    /// engine, which start and issue an I/O at one clock reading): their lat is not
    /// recorded apart but copied from clat by [`super::JobRecorder::settle`], which saves the
    /// I/O path a second set of sums. Ignored unless both `clat` and `lat` are kept.
    pub lat_is_clat: [bool; 3],
    /// Whether the job is rate-limited and records its latency corrected for coordinated
    /// omission: from each I/O's intended start (when its schedule said it was due) to its
    /// completion ([`super::DirRecorder::lat_corrected`]).
    pub corrected: bool,
    /// The job's own I/O priority (`prio`/`prioclass` as `ioprio_set(2)` packs them, 0
    /// for the system's default): under it a job that kept no latencies per priority
    /// counts its I/Os when it is merged with one that did
    /// ([`super::JobRecorder::merge`]).
    pub own_prio: u16,
}

impl Default for RecorderConfig {
    /// A read-only sync-engine job with fio's defaults.
    fn default() -> Self {
        RecorderConfig {
            dirs: [true, false, false],
            slat: false,
            clat: true,
            lat: true,
            clat_percentiles: true,
            lat_percentiles: false,
            slat_percentiles: false,
            syncs: false,
            bw_avg_ms: 500,
            iops_avg_ms: 500,
            lat_is_clat: [false; 3],
            corrected: false,
            own_prio: 0,
        }
    }
}
