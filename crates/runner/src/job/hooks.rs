//! The loop's hooks for features a plain job does not use (`lockfile`, serializing
//! overlapping I/Os, verification). The loop reaches them only when it runs as a job with
//! such features (see [`Features::any`]), so a plain job does not even test for them.
//!
//! The per-I/O turns of verification are the features' own ([`Features::verify_issue`],
//! [`Features::verify_completed`]); what waits for the I/Os in flight first (a lock held
//! by another job, an overlapping I/O, the verify phase) is the loop's.

use super::drive::Loop;
use super::features::Features;
use super::hot::Hot;
use crate::request::Request;
use iomark_core::Ddir;
use iomark_verify::JobVerify;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether an I/O of `ddir` changes the file's data (a write or a trim).
fn changes_data(ddir: Ddir) -> bool {
    matches!(ddir, Ddir::Write | Ddir::Trim)
}

impl Features<'_, '_> {
    /// Before unit `index` is filled for the I/O `req`: verification's turn. Returns false
    /// when the I/O is not to be issued (`verify_only` issues nothing but its verify reads;
    /// its writes are only logged); the caller then gives the unit back.
    pub(super) fn verify_issue(&mut self, index: u32, req: Request) -> bool {
        let Some(v) = &mut self.verify else { return true };
        let Request { ddir, file, offset, len } = req;
        if ddir.is_data() {
            v.count_issued(len);
        }
        let verify_read = ddir == Ddir::Read && v.bind_read(index, file, offset, len);
        if ddir == Ddir::Trim {
            v.bind_trim(index, file, offset, len);
        }
        if v.verify_only() && !verify_read {
            if ddir == Ddir::Write {
                v.pretend_write(file, offset, len);
            }
            return false;
        }
        true
    }

    /// Unit `index` of `io` completed: a write is logged for verification, a verify read is
    /// checked.
    pub(super) fn verify_completed(&mut self, io: &mut Hot<'_, '_, '_>, index: u32) {
        let Some(v) = &mut self.verify else { return };
        let unit = &mut io.units.units_mut()[index as usize];
        let checked = match unit.ddir {
            Ddir::Write => v.written(index, true),
            Ddir::Trim => {
                v.trimmed(index);
                Ok(())
            }
            Ddir::Read => {
                // A short read is checked with zeros for what did not come (so it fails).
                let got = (unit.result.max(0) as usize).min(unit.len);
                let buf = &mut unit.buf.as_mut_slice()[..unit.len];
                buf[got..].fill(0);
                v.check(index, buf)
            }
            _ => Ok(()),
        };
        if let Err(report) = checked {
            // The uncommon path: the report is printed as fio prints it.
            eprint!("{report}");
            if !v.plan.continue_on_error {
                io.set_error(libc::EILSEQ, "verify");
            }
        }
    }
}

impl Loop<'_, '_, '_> {
    /// `lockfile`: takes the lock of `file` for one I/O. When another job holds it, the
    /// job first completes its I/Os in flight (giving back its own locks), then waits; see
    /// [`crate::links::lockfile`].
    #[cold]
    pub(super) fn take_lock(&mut self, file: usize) {
        if self.feat.locks.as_mut().is_some_and(|l| l.try_take(file)) {
            return;
        }
        self.quiesce();
        if let Some(locks) = &mut self.feat.locks {
            locks.wait(file);
        }
    }

    /// `serialize_overlap`, and every verifying job: until no in-flight I/O of the job
    /// overlaps `req`, about to be issued on unit `index`, where either writes, commit and
    /// reap. Two overlapping writes in flight may reach the file in either order, which
    /// would make a verification fail for no fault of the storage. Off the common path: it
    /// scans the pool, and only serializing jobs come here.
    #[cold]
    pub(super) fn wait_for_overlaps(&mut self, index: u32, req: Request) {
        let Request { ddir, file, offset, len } = req;
        let end = offset + len as u64;
        let races = |io: &Hot<'_, '_, '_>| {
            io.units.units().iter().enumerate().any(|(i, u)| {
                i != index as usize
                    && !io.units.is_free(i as u32)
                    && u.ddir.is_data()
                    && (changes_data(ddir) || changes_data(u.ddir))
                    && u.file as usize == file
                    && u.offset < end
                    && offset < u.offset + u.len as u64
            })
        };
        while self.io.in_flight > 0 && self.io.error == 0 && races(&self.io) {
            self.io.commit();
            self.io.reap::<true>(&mut self.feat, 1, self.io.in_flight as usize);
        }
    }

    /// After the writes (of a pass, for a job that verifies each pass), with none in
    /// flight: the verify phase (see [`iomark_verify`]), with the `verify_async` helpers
    /// waited for before and after it. Returns whether a next pass began, for a job that
    /// verifies each pass (see [`iomark_verify::VerifyJob::each_pass`]).
    pub(super) fn verify_phase(&mut self, stop: &AtomicBool) -> bool {
        // A request drawn and held for a sync or the rate was not issued in the write
        // phase; it is not issued at all (a write issued now would not be verified, and
        // could overwrite a block the verify phase checks).
        self.feat.sync.held = None;
        self.settle_verify();
        let stopped = |l: &Self| l.io.error != 0 || stop.load(Ordering::Relaxed);
        if !stopped(self) && self.feat.verify.as_mut().is_some_and(JobVerify::begin_reading) {
            if let Some(logs) = self.feat.logs.as_mut() {
                logs.verify_begins(self.io.last_now, self.io.workload.closed_files());
            }
            self.run(stop);
            self.settle_verify();
        }
        let ended = stopped(self) || self.io.exit.load(Ordering::Relaxed) || self.feat.ended;
        let plan = self.feat.plan;
        if ended || !plan.verify.as_ref().is_some_and(|v| v.job.each_pass) {
            return false;
        }
        let beyond_loops = !self.io.workload.loops_left();
        let (io_size, max_bs) = (plan.limits.io_bytes, plan.max_block_size());
        let Some(v) = &mut self.feat.verify else { return false };
        v.end_reading();
        v.next_pass_allowed(beyond_loops, io_size, max_bs) && self.next_loop()
    }

    /// When the job is over: each bad block found is an error of the job.
    pub(super) fn count_verify_failures(&mut self) {
        let Some(v) = &self.feat.verify else { return };
        if v.failures > 0 {
            if v.plan.continue_on_error {
                // Each bad block the job went on past counts as an error (fio's total_err).
                for _ in 0..v.failures {
                    self.io.recorder.record_error(None, libc::EILSEQ);
                }
            }
            self.io.set_error(libc::EILSEQ, "verify");
        }
    }

    /// Waits for the `verify_async` helpers and prints the bad blocks they found, which
    /// end the job unless `continue_on_error` says otherwise.
    fn settle_verify(&mut self) {
        let Some(v) = &mut self.feat.verify else { return };
        let report = v.settle();
        if !report.is_empty() {
            eprint!("{report}");
            if !v.plan.continue_on_error {
                self.io.set_error(libc::EILSEQ, "verify");
            }
        }
    }
}
