//! What the loop does when something fails: an I/O that completes with an error, an
//! engine call that fails, a log that cannot be written.

use super::Loop;
use iomark_core::Ddir;

impl Loop<'_, '_> {
    /// Unit `index` completed with `errno`: `fill_device` ends the job on a full file
    /// system; anything else is the job's error unless `continue_on_error` lets it go (see
    /// [`crate::errors::failed_io`]).
    #[cold]
    pub(super) fn failed(&mut self, index: u32, errno: i32) {
        if let Some(v) = &mut self.verify {
            v.unbind(index);
        }
        let unit = &self.units[index as usize];
        if self.plan.files.fill_device && (errno == libc::ENOSPC || errno == libc::EDQUOT) {
            // `fill_device`: full is the end, not an error; fio counts the I/O as issued.
            if let Some(d) = unit.ddir.data_index() {
                self.recorder.dirs[d].ios += 1;
            }
            self.filled = true;
            return;
        }
        let op = ddir_name(unit.ddir);
        let plan = self.plan;
        let job = (plan.job.name.as_str(), &plan.errors, &plan.files);
        if crate::errors::failed_io(job, &mut self.recorder, unit, op, errno) {
            self.set_error(errno, op);
        } else if self.error_text.is_empty() {
            self.error_text = format!("{op}: {}", crate::errors::errno_text(errno));
        }
    }

    /// Records a failure explained by `text` (a log that could not be written).
    pub(super) fn set_error_text(&mut self, errno: i32, text: String) {
        if self.error == 0 {
            self.error = errno;
            self.error_text = text;
        }
    }

    /// Records `errno` as the job's error, failing `during` (the first error stays).
    pub(super) fn set_error(&mut self, errno: i32, during: &str) {
        if self.error == 0 {
            let text = crate::errors::errno_text(errno);
            self.set_error_text(errno, format!("{during}: {text}"));
        }
    }
}

/// The name fio gives an I/O of `d` in its error messages.
pub(super) fn ddir_name(d: Ddir) -> &'static str {
    match d {
        Ddir::Read => "read",
        Ddir::Write => "write",
        Ddir::Trim => "trim",
        Ddir::Sync => "fsync",
        Ddir::Datasync => "fdatasync",
        Ddir::SyncFileRange => "sync_file_range",
    }
}
