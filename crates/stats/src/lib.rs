//! Histograms, running moments, samplers, per-job recorders, merging, and the immutable
//! `RunReport` that every printer reads.
//!
//! Records and reduces, never formats. Filled by the runner issue.
