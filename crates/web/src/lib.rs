//! The pictures of a run: the self-contained HTML report, its charts as SVG (and PNG), and
//! the live page with its small loopback server.
//!
//! This crate reads [`iomark_stats::RunReport`]s and interval events
//! ([`iomark_stats::interval`]) only, so the runner stays unaware of HTML: the cli hands it
//! what a run produced, and `iomark report` hands it what it read from fio's or iomark's
//! JSON and log files ([`input`]). The charts are SVG written in Rust ([`svg`]), binned or
//! decimated beforehand so that a chart holds a few thousand points whatever the number of
//! I/Os ([`decimate`]); the same SVG goes into the HTML page, into files
//! (`--format=svg`), through resvg into PNG files ([`png`]), and into the live page.
#![forbid(unsafe_code)]

pub mod charts;
pub mod decimate;
pub mod html;
pub mod input;
pub mod live;
pub mod model;
pub mod png;
pub mod svg;
pub mod sweep;
