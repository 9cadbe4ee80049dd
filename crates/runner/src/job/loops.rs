//! `unlink_each_loop`: between two loops the job's files are closed, removed and opened
//! again, off the I/O path (see [`crate::files::unlink_and_reopen`]).
//!
//! What fio 3.33 does (checked with `strace`): after each loop but the last, once the
//! loop's I/Os have completed, it closes the files, removes them and opens them again
//! (a job that writes creates them anew, empty; a job that only reads fails with `ENOENT`).
//! A job that ends before its last loop (`runtime`, `number_ios`, a stop) removes its files
//! at the end, and so does every `time_based` job; one that completes its last loop leaves
//! them. Passes that only complete an `io_size` beyond `size` are not loops: nothing is
//! removed between them.

use super::drive::Loop;
use crate::files::FileAction;

impl Loop<'_, '_, '_> {
    /// The workload paused at the end of a pass (it does with `unlink_each_loop`, and in a
    /// job that verifies each pass, see [`iomark_verify::VerifyJob::each_pass`]): waits for the I/Os in
    /// flight, removes and reopens the files if a loop ends here (`unlink_each_loop`), and
    /// starts the next pass. False when the job is over (its I/O done, or the files could not be
    /// opened again).
    #[cold]
    #[inline(never)]
    pub(super) fn next_loop(&mut self) -> bool {
        self.io.commit();
        while self.io.in_flight > 0 && self.io.error == 0 {
            let n = self.io.in_flight as usize;
            self.io.reap::<true>(&mut self.feat, n, n);
        }
        let (io, feat) = (&mut self.io, &mut self.feat);
        // Known before the pass count moves on.
        let loop_ends = io.workload.loops_left();
        if io.error != 0 || !io.workload.next_pass() {
            return false;
        }
        if loop_ends && feat.per_file {
            io.engine.next_loop();
        }
        if !loop_ends || feat.files.is_empty() || !feat.plan.files.unlink_each_loop {
            return true;
        }
        if let Err(e) = crate::files::unlink_and_reopen(&feat.plan.files, &mut feat.files) {
            let errno = e.source.raw_os_error().unwrap_or(libc::EIO);
            let text = std::io::Error::from_raw_os_error(errno);
            let call = if e.action == FileAction::Remove { "unlink" } else { "open" };
            io.set_error_text(errno, format!("{call}({}): {text}", e.path));
            return false;
        }
        io.fds.clear();
        io.fds.extend(feat.files.iter().map(std::os::fd::AsRawFd::as_raw_fd));
        if let Err(e) = io.engine.reopen(&io.fds) {
            io.set_error_text(libc::EIO, e.to_string());
            return false;
        }
        true
    }

    /// Whether the job removes its files when it ends (`unlink_each_loop`): when it ends
    /// before its last loop, or runs `time_based`.
    pub(super) fn unlinks_at_end(&self) -> bool {
        self.feat.plan.files.unlink_each_loop && self.io.workload.loops_left()
    }
}
