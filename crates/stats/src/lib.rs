//! Histograms, running moments, samplers, per-job recorders, merging, and the immutable
//! [`RunReport`] that every printer reads.
//!
//! Records and reduces, never formats.
#![forbid(unsafe_code)]

pub mod report;

pub use report::RunReport;
