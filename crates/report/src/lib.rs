//! Printers over `&RunReport`: fio 3.33's `normal`, `terse`, `json` and `json+` output.
//!
//! A run's statistics are reduced once, into [`iomark_stats::RunReport`]; the printers here
//! only format them, in fio's layouts, so that people and tools that read fio's reports read
//! iomark's unchanged. [`normal`] prints the human report, [`terse`] the `;`-separated
//! lines (versions 2 to 5), [`json`] the JSON document, [`json_plus`] the same with
//! histogram bins, [`json_stream`] one JSON object per line (events, then the final
//! report), [`notes`] the run's notes for the text formats, [`act`] the table and verdict of `--profile=act`, and [`job_header_line`] the line fio shows for each job before the run starts. [`eta`] builds fio's ETA line from snapshots of the running jobs. Number and
//! unit formatting (fio's scaled numbers, `kb_base`, `unit_base`, latency units) lives in
//! [`units`].
#![forbid(unsafe_code)]

mod act;
pub mod eta;
mod json;
pub mod json_stream;
mod lifetimes;
mod normal;
mod terse;
pub mod units;

pub use act::act;
pub use json::{json, json_plus};

/// The run's notes as the text reports print them, before the report: one `note: …` line
/// each (empty when there is none).
pub fn notes(report: &iomark_stats::RunReport) -> String {
    report.notes.iter().map(|n| format!("note: {n}\n")).collect()
}
pub use normal::{cpu_idleness, job_header_line, normal, start_line};
pub use terse::{client_disk_line, terse, TerseVersion};
pub use units::PrintOptions;
