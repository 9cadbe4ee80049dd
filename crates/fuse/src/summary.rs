//! What the exporter served, counted per queue without sharing and added up at exit into
//! the summary it prints: requests and bytes per kind, faults injected per kind, delays,
//! corrupted reads, errors of the backing store, refused requests, and which channel the
//! requests came over.

use crate::inject::errno_name;
use crate::volume::Kind;
use std::fmt::Write as _;

/// Counts of one queue, or of all of them added up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    /// Data requests answered, per [`Kind`] (failed ones included).
    pub requests: [u64; 4],
    /// Bytes read and written (by [`Kind::Read`] and [`Kind::Write`]).
    pub bytes: [u64; 4],
    /// Faults injected, per kind.
    pub injected: [u64; 4],
    /// Errors of the backing store, per kind.
    pub backing_errors: [u64; 4],
    /// Data requests answered later than they could have been (`--delay`).
    pub delayed: u64,
    /// Reads returned with a byte flipped (`--corrupt`).
    pub corrupted: u64,
    /// Other requests answered (lookups, attributes, opens, directories…).
    pub metadata: u64,
    /// Requests refused as too large or malformed.
    pub refused: u64,
    /// Requests that came over FUSE-over-io_uring.
    pub over_uring: u64,
    /// Requests that came over `/dev/fuse`.
    pub over_dev: u64,
    /// The errno of the first injected fault, if any.
    pub first_injected: Option<i32>,
}

impl Counters {
    /// Adds `other` to these counts.
    pub fn add(&mut self, other: &Counters) {
        for k in 0..4 {
            self.requests[k] += other.requests[k];
            self.bytes[k] += other.bytes[k];
            self.injected[k] += other.injected[k];
            self.backing_errors[k] += other.backing_errors[k];
        }
        self.delayed += other.delayed;
        self.corrupted += other.corrupted;
        self.metadata += other.metadata;
        self.refused += other.refused;
        self.over_uring += other.over_uring;
        self.over_dev += other.over_dev;
        self.first_injected = self.first_injected.or(other.first_injected);
    }

    /// Faults injected of every kind.
    pub fn injected_total(&self) -> u64 {
        self.injected.iter().sum()
    }

    /// The summary printed at exit.
    pub fn text(&self) -> String {
        let mut out = String::from("iomark fuse-export: summary\n");
        let _ = writeln!(
            out,
            "  {:<6} {:>12} {:>16} {:>10} {:>14}",
            "kind", "requests", "bytes", "injected", "backing errors"
        );
        for kind in Kind::ALL {
            let k = kind as usize;
            let _ = writeln!(
                out,
                "  {:<6} {:>12} {:>16} {:>10} {:>14}",
                kind.name(),
                self.requests[k],
                self.bytes[k],
                self.injected[k],
                self.backing_errors[k]
            );
        }
        let _ = writeln!(
            out,
            "  delayed={} corrupted={} metadata={} refused={} over_uring={} over_dev={}",
            self.delayed,
            self.corrupted,
            self.metadata,
            self.refused,
            self.over_uring,
            self.over_dev
        );
        if let Some(errno) = self.first_injected {
            let _ = writeln!(out, "  first injected error: {} ({errno})", errno_name(errno));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_and_print_per_kind() {
        let mut a = Counters { requests: [1, 2, 0, 0], over_dev: 3, ..Default::default() };
        let b = Counters {
            requests: [4, 0, 1, 0],
            injected: [1, 0, 0, 0],
            first_injected: Some(libc::EIO),
            ..Default::default()
        };
        a.add(&b);
        assert_eq!(a.requests, [5, 2, 1, 0]);
        assert_eq!(a.injected_total(), 1);
        let text = a.text();
        assert!(text.contains("  read              5"), "{text}");
        assert!(text.contains("first injected error: EIO (5)"), "{text}");
    }
}
