//! The long way of [`Workload::next`] and the room it leaves for the short one: `next`
//! is inlined into the runner's loop, where while [`Workload::fast_room`] allows it does
//! one turn of [`Workload::next_general`]'s loop (the one-block shortcut on the only file)
//! and nothing else; everything else comes here, out of line.

use super::{Ddir, IoRequest, Workload};

impl Workload {
    /// `next` the long way, after which the room of the short way is measured again.
    #[cold]
    #[inline(never)]
    pub(super) fn next_slow(&mut self) -> Option<IoRequest> {
        self.settle_fast();
        let req = self.next_general();
        (self.fast_left, self.fast_dir) = self.fast_room();
        self.fast_granted = self.fast_left;
        req
    }

    /// `next`'s shortcut when the block drawn, `from`, has no free block after it in its
    /// word: the map's long way, or the file's pass is over.
    #[cold]
    #[inline(never)]
    pub(super) fn next_fast_long(&mut self, from: u64) -> Option<IoRequest> {
        let cursor = &mut self.files[0];
        if let Some(b) = cursor.map.as_mut().and_then(|m| m.take_one_long(from)) {
            self.fast_left -= 1;
            let (dir, unit) = (self.fast_dir, self.map_unit);
            return Some(IoRequest {
                dir,
                file: 0,
                offset: cursor.region.offset + b * unit,
                len: unit,
            });
        }
        self.file_done(0);
        self.next_slow()
    }

    /// The shortcut's I/Os not yet counted in the budgets and the mix.
    #[inline]
    pub(super) fn fast_taken(&self) -> u64 {
        self.fast_granted - self.fast_left
    }

    /// Counts the shortcut's I/Os since the long way last ran, as `account` would have
    /// one by one (each is one map block of the direction `fast_dir`), and ends the
    /// shortcut's room until the long way measures it again.
    pub(super) fn settle_fast(&mut self) {
        let taken = self.fast_taken();
        let bytes = taken * self.map_unit;
        self.total_bytes += bytes;
        self.counted_bytes += bytes;
        self.counted_ios += taken;
        self.mix.issued_n(self.fast_dir, taken);
        (self.fast_left, self.fast_granted) = (0, 0);
    }

    /// The next I/O, or `None` once the job's I/O (all loops) is done: every case.
    fn next_general(&mut self) -> Option<IoRequest> {
        if self.pending.is_some() {
            return self.pending_write();
        }
        loop {
            if self.finished {
                return None;
            }
            if self.budget_spent() {
                self.finished = true;
                return None;
            }
            if self.files_done == self.files.len() {
                if self.pause_between_passes {
                    return None;
                }
                if !self.start_next_pass() {
                    self.finished = true;
                }
                continue;
            }
            let file = self.pick_file();
            match self.generate(file) {
                Some(req) => {
                    // trimwrite: only the writes count toward the budgets; a trim of a
                    // pair is followed by its write.
                    let counts = !self.trimwrite || req.dir == Ddir::Write;
                    if !counts && !self.trimwrite_apart {
                        self.pending = Some(IoRequest { dir: Ddir::Write, ..req });
                    }
                    self.account(&req, counts);
                    if self.trimwrite_apart && !counts {
                        // Apart, `number_ios` counts trims too (twice the pairs).
                        self.counted_ios += 1;
                    }
                    return Some(req);
                }
                None => self.file_done(file),
            }
        }
    }

    /// How many of the next calls of `next` are certain to make one turn of
    /// `next_general`'s loop that generates on the only file with the one-block shortcut,
    /// or finds that file's pass over: no trimwrite write pending (nor any trimwrite), the
    /// job not finished, one file whose pass is not over, a direction that is fixed (not a
    /// mix, which draws and which rate limits steer), and the I/O budgets not spent before
    /// that many more one-block I/Os; and that direction. 0 when any of it does not hold.
    fn fast_room(&self) -> (u64, Ddir) {
        let plain = self.one_block
            && !self.trimwrite
            && self.pending.is_none()
            && !self.finished
            && self.files.len() == 1
            && self.files_done == 0;
        let Some(dir) = self.mix.fixed_direction().filter(|_| plain && !self.budget_spent()) else {
            return (0, Ddir::Read);
        };
        // Every shortcut I/O is one map block of `map_unit` bytes.
        let by_bytes = match self.byte_cap {
            u64::MAX => u64::MAX,
            cap => (cap - self.counted_bytes).div_ceil(self.map_unit.max(1)),
        };
        (by_bytes.min(self.ios_cap - self.counted_ios), dir)
    }
}
