//! Sweeps: one job run over a grid of options, what each point measured, the models fitted
//! to the points (seed 003's queue model over iodepth, the Universal Scalability Law over
//! numjobs), vdbench-style curves of response time against rate, and comparisons of two
//! runs with confidence intervals.
//!
//! This crate holds the logic and the formats, pure where it can be: the grid
//! ([`grid`]), the figures of a point from its [`iomark_stats::RunReport`] ([`measure`]),
//! the fits ([`fit`]), the statistics of comparisons ([`compare`]), curves ([`curve`]) and
//! the sweep's document with its table and CSV ([`doc`]). Running the points is the cli's
//! (`iomark sweep`, `iomark compare`), through the same plan and runner as any run.
#![forbid(unsafe_code)]

pub mod compare;
pub mod curve;
pub mod doc;
pub mod fit;
pub mod grid;
pub mod measure;
pub mod numeric;
pub mod table;
