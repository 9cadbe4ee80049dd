//! The single completion point ([`Hot::complete`]): every I/O the engine hands back, at
//! once or reaped, is recorded here, from the clock reading taken when it (or its batch)
//! was seen complete.

use super::features::Features;
use super::hot::Hot;
use iomark_core::Ddir;
use iomark_engine::Slot;
use iomark_stats::recorder::SyncKind;

impl<'id> Hot<'_, '_, 'id> {
    /// Unit `index`, stamped `(start, issue)`, completed by `now` (which the caller has
    /// made [`Hot::last_now`], once for a reaped batch). The completion latency
    /// is recorded here when `clat` says so; a reaped batch (`slat` without `clat`)
    /// records it, and the moments of slat and lat, per run of equal clat instead (see
    /// [`Hot::reap`]). A rich job's features take their turn
    /// ([`Features::completed`]). Returns the direction of a data I/O that succeeded.
    #[inline(always)]
    pub(super) fn complete<const RICH: bool>(
        &mut self,
        feat: &mut Features<'_, '_>,
        slot: Slot<'id>,
        (start, issue): (u64, u64),
        slat: Option<u64>,
        clat: Option<u64>,
        now: u64,
    ) -> Option<Ddir> {
        self.units.push(slot);
        let unit = self.units.get(slot);
        if let Some(locks) = feat.locks.as_mut().filter(|_| RICH) {
            locks.give(unit.file as usize);
        }
        if unit.result < 0 {
            self.failed::<RICH>(feat, slot, (-unit.result) as i32);
            return None;
        }
        let Some(d) = unit.ddir.data_index() else {
            let kind = match unit.ddir {
                Ddir::Sync => SyncKind::Fsync,
                Ddir::Datasync => SyncKind::Fdatasync,
                _ => SyncKind::FileRange,
            };
            self.recorder.record_sync(now - start, kind);
            return None;
        };
        if RICH {
            // Only `number_ios` (a rich job) reads it.
            self.ios_done += 1;
        }
        let dir = unit.ddir;
        let bytes = unit.result as u64;
        if RICH && feat.per_file {
            // A metadata engine: every I/O counts, only a file's operation is timed, and
            // as clat alone (see iomark_engine::fileops).
            self.active[d] = true;
            self.recorder.record_io(dir, bytes, unit.len as u64, None, None, None);
            if let Some(ns) = clat.filter(|_| unit.timed) {
                self.recorder.record_clat_alone(dir, ns);
            }
        } else if let (Some(slat), None) = (slat, clat) {
            // Reaped: the moments of its slat and lat go with its run of equal clat
            // (`Hot::reap`), which marks its direction active. (Metadata engines, above,
            // complete in `queue`.)
            self.recorder.record_reaped(dir, bytes, unit.len as u64, slat, now - start);
        } else {
            self.active[d] = true;
            self.recorder.record_io(dir, bytes, unit.len as u64, slat, clat, Some(now - start));
        }
        self.published.add(d, bytes);
        if now >= self.next_tick {
            self.tick(now);
        }
        if RICH {
            feat.completed(self, slot, dir, (start, issue), slat, now);
        }
        Some(dir)
    }

    /// The bandwidth and IOPS samplers and the progress counters at `now`, once one of
    /// them is due: what [`Hot::next_tick`] leaves out of every completion before.
    #[cold]
    #[inline(never)]
    pub(super) fn tick(&mut self, now: u64) {
        self.recorder.tick(now);
        self.published.publish_due(now);
        self.next_tick = self.recorder.next_tick_ns().min(self.published.next_ns());
    }
}
