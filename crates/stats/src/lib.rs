//! Histograms, running moments, samplers, per-job recorders, merging, and the immutable
//! [`RunReport`] that every printer reads.
//!
//! Records and reduces, never formats. The runner's completion point feeds a
//! [`JobRecorder`] (which allocates everything when it is made, so recording never
//! allocates); after the run, [`reduce::job_report`] and [`reduce::group_reports`] turn
//! recorders into the report types. [`progress`] holds the snapshots of a run's live
//! progress that the runner takes and the ETA line reads.
#![forbid(unsafe_code)]

pub mod act;
pub mod block;
pub mod dist;
pub mod hist;
pub mod interval;
pub mod lifetimes;
pub mod log;
pub mod moments;
pub mod notes;
pub mod percentile_list;
pub mod progress;
pub mod recorder;
pub mod reduce;
pub mod report;
pub mod sampler;
pub mod sums;

pub use hist::LatHistogram;
pub use moments::Moments;
pub use notes::Notes;
pub use recorder::{DirRecorder, JobRecorder, LatRecorder, RecorderConfig};
pub use reduce::{JobMeta, JobTimes, PercentileList, PercentileListError};
pub use report::RunReport;
pub use sampler::{RateSampler, RateUnit, SamplerError};
