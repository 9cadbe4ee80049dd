//! Syncs: which count in the report and where, as fio 3.33 counts them, and
//! `sync_file_range`'s calls, ranges and iolog lines.

mod counts;
mod file_range;
