//! What the loop does when something fails: an I/O that completes with an error, an
//! engine call that fails, a log that cannot be written. The job's error is kept in
//! [`Hot`], where the loop looks at it every turn.

use super::features::Features;
use super::hot::Hot;
use iomark_core::Ddir;
use iomark_engine::Slot;

impl<'id> Hot<'_, '_, 'id> {
    /// Unit `index` completed with `errno`: `fill_device` ends the job on a full file
    /// system; anything else is the job's error unless `continue_on_error` lets it go (see
    /// [`super::describe::failed_io`]).
    /// A plain job has neither verification nor `fill_device`: `feat` is not looked at.
    #[cold]
    pub(super) fn failed<const RICH: bool>(
        &mut self,
        feat: &mut Features<'_, '_>,
        slot: Slot<'id>,
        errno: i32,
    ) {
        let (unit, index) = (self.units.get(slot), slot.index());
        if RICH && feat.streams && -i64::from(errno) == iomark_engine::net::END_OF_STREAM {
            // The other side closed or said it was done: the job ends cleanly, and this
            // read, which brought nothing, is not an I/O (its issue depth is taken back).
            feat.ended = true;
            let depth = iomark_stats::dist::depth_bucket(self.in_flight + 1);
            self.recorder.depth.remove(depth, 1);
            return;
        }
        if RICH {
            if let Some(v) = &mut feat.verify {
                v.unbind(index);
            }
            if let Some(l) = feat.lifetimes.as_mut().filter(|_| unit.ddir == Ddir::Trim) {
                l.trimmed(unit.file, unit.offset, unit.len as u64, false);
            }
            let full = errno == libc::ENOSPC || errno == libc::EDQUOT;
            if feat.plan.files.fill_device && full {
                // `fill_device`: full is the end, not an error; fio counts the I/O as
                // issued.
                if let Some(d) = unit.ddir.data_index() {
                    self.recorder.dirs[d].ios += 1;
                }
                feat.filled = true;
                return;
            }
        }
        if RICH && feat.per_file && unit.timed {
            // A metadata engine's operation failed: as fio's, it fails the job when the
            // file is "opened", before any I/O is counted (`delete(PATH): ...`).
            let func = match self.engine.name() {
                "filecreate" => "create",
                "filestat" => "stat",
                _ => "delete",
            };
            let path = feat.plan.files.list.get(unit.file as usize).map(|f| f.path.display());
            let text = super::describe::errno_text(errno);
            let line =
                format!("{func}({}): {text}", path.map(|p| p.to_string()).unwrap_or_default());
            eprintln!("iomark: job '{}': {line}", self.on_error.0);
            self.set_error_text(errno, line);
            // Not an I/O: its issue depth is taken back.
            let depth = iomark_stats::dist::depth_bucket(self.in_flight + 1);
            self.recorder.depth.remove(depth, 1);
            return;
        }
        let op = super::describe::ddir_name(unit.ddir);
        if super::describe::failed_io(self.on_error, &mut self.recorder, unit, op, errno) {
            self.set_error(errno, op);
        } else if self.error_text.is_empty() {
            self.error_text = format!("{op}: {}", super::describe::errno_text(errno));
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
            let text = super::describe::errno_text(errno);
            self.set_error_text(errno, format!("{during}: {text}"));
        }
    }
}
