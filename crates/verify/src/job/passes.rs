//! Verifying after every pass over the files, as fio 3.33 does.
//!
//! fio 3.33 verifies a job's writes after each pass (each of `loops`, and each pass that
//! `io_size` adds beyond them), then writes the next pass: `rw=write size=32k loops=2`
//! issues 8 writes, 8 verify reads, 8 writes, 8 verify reads (read off its
//! `--write_iolog`). That holds where a pass covers the files (sequential writes without
//! a `:N` skip, random writes with the random map, `trimwrite` alike); a random job
//! without the map (`norandommap`), one with a skip, a mixed one (`rw`, `randrw`) and a
//! `time_based` one are verified once, after all their writes (fio 3.33 verifies
//! `norandommap` and skipping jobs once too, and never verifies a `time_based` one).
//!
//! The plan decides which jobs verify each pass ([`crate::VerifyJob::each_pass`]); the job
//! loop then pauses the workload between passes and calls in here.
//!
//! Before a pass beyond `loops`, fio 3.33 counts the verify reads with the writes
//! against `io_size`: the pass starts only if their bytes are below `io_size` by at least
//! the largest block (`size=32k io_size=40k`: 8 writes and 8 reads, then no second
//! pass; `io_size=68k`: two passes). Within a pass only the writes count, as without
//! verification. `number_ios` counts every I/O, verify reads too, as the job loop already
//! does.

use super::JobVerify;

impl JobVerify {
    /// Counts `len` bytes of an I/O the job issues (or, under `verify_only`, would issue).
    #[inline]
    pub fn count_issued(&mut self, len: usize) {
        self.issued_bytes += len as u64;
    }

    /// Whether another pass may start after the verify phase of the pass that just
    /// ended: always within `loops` (`beyond_loops` false); beyond them, only if what the
    /// job issued (writes, trims and verify reads) is below `io_size` by at least the
    /// largest block `max_bs`.
    pub fn next_pass_allowed(&self, beyond_loops: bool, io_size: u64, max_bs: u64) -> bool {
        !beyond_loops || io_size.saturating_sub(self.issued_bytes) >= max_bs.max(1)
    }

    /// The verify phase of a pass is over: back to writing, with nothing logged or owed.
    pub fn end_reading(&mut self) {
        self.reading = false;
        self.queue.clear();
        self.log.clear();
        self.next = 0;
        self.pending = None;
        self.trim_drawn = None;
        self.batch_left = 0;
        self.after_backlog_read = false;
        self.unverified = 0;
        if let Some(t) = &mut self.trims {
            t.reset();
        }
        if let Some(newest) = &mut self.newest {
            newest.clear();
        }
    }
}
