//! blktrace binary traces: `read_iolog=FILE` where FILE is what `blkparse -d` (or
//! `--merge_blktrace_file`) writes, replayed as fio 3.33 replays it.
//!
//! The format is blktrace's `struct blk_io_trace`, one record after the other in the
//! byte order of the machine that wrote it: `magic` (0x65617400 | version, version 7),
//! `sequence`, `time` (ns, 64 bits), `sector` (512-byte units, 64 bits), `bytes`, `action`,
//! `pid`, `device` (the kernel's `major << 20 | minor`), `cpu` (all 32 bits), `error`,
//! `pdu_len` (16 bits each): 48 bytes, then `pdu_len` bytes of payload. The action's low 16
//! bits say what happened (1 queue, 2 and 3 merges, 8 complete...), its high 16 bits the
//! categories (read, write, flush, discard, notify...). A trace is recognised by its first
//! record's magic, in either byte order.
//!
//! What the replay does, as measured on fio 3.33 with synthesized traces
//! (`--debug=blktrace`, strace):
//!
//! - Every *queue* record (action 1, whatever its categories) that is not a notify is one
//!   I/O: a discard is a trim, else a flush is a sync (its bytes ignored), else a write if
//!   the write category is set, a read otherwise (readahead and passthrough too). Offset:
//!   `sector * 512`, divided by `replay_scale`, rounded down to `replay_align`; length:
//!   `bytes`, rounded *up* to `replay_align`. A queue of 0 bytes is left out (fio prints
//!   "ignoring zero byte trace"; iomark counts them in one note). `replay_skip` leaves out
//!   the kinds it names.
//! - Times: each I/O comes the time between its queue record and the previous one after
//!   the I/O before it (in whole microseconds, each gap rounded down); records that are
//!   not queues do not count, left-out queues do. `replay_time_scale` and
//!   `replay_no_stall` then act as for an iolog.
//! - Files: each record's device is found in `/dev` (a block device of that major and
//!   minor, not a symbolic link); a device that is not found sends its I/Os to the last
//!   one found (an I/O before any was found makes fio 3.33 crash; iomark refuses the
//!   trace); `replay_redirect` sends everything to its one file.
//! - Depth (unless the job sets `iodepth`): per direction (write category or not), the
//!   queues since the last completion of that direction, less one per merge; the most
//!   found at any completion, of either direction; 1 when none, at most 1024.

use super::parse::Adjust;
use super::ReplayIo;
use iomark_core::Ddir;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The magic of a record, less its version byte.
pub const MAGIC: u32 = 0x6561_7400;
/// The version of the format fio 3.33 and blktrace write.
pub const VERSION: u32 = 7;
/// The bytes of a record before its payload.
pub const RECORD_LEN: usize = 48;

/// Action codes (the low 16 bits).
const QUEUE: u32 = 1;
const BACKMERGE: u32 = 2;
const FRONTMERGE: u32 = 3;
const COMPLETE: u32 = 8;
/// Category bits (the high 16 bits of the action).
const TC_WRITE: u32 = 1 << (16 + 1);
const TC_FLUSH: u32 = 1 << (16 + 2);
const TC_NOTIFY: u32 = 1 << (16 + 10);
const TC_DISCARD: u32 = 1 << (16 + 13);

/// The most I/Os in flight a trace sets, as fio 3.33 caps it.
const MAX_DEPTH: u32 = 1024;

/// One record of a trace.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    /// `0x65617400 | version`.
    pub magic: u32,
    /// Its number, per CPU.
    pub sequence: u32,
    /// When, in nanoseconds.
    pub time: u64,
    /// Where, in 512-byte sectors.
    pub sector: u64,
    /// How many bytes.
    pub bytes: u32,
    /// What happened (code and categories).
    pub action: u32,
    /// The process.
    pub pid: u32,
    /// The device, `major << 20 | minor`.
    pub device: u32,
    /// The CPU.
    pub cpu: u32,
    /// The error, if any.
    pub error: u16,
    /// The payload (a process name, a message...).
    pub pdu: Vec<u8>,
}

impl Record {
    /// Appends the record to `out`, in this machine's byte order as blktrace writes it.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.magic.to_ne_bytes());
        out.extend_from_slice(&self.sequence.to_ne_bytes());
        out.extend_from_slice(&self.time.to_ne_bytes());
        out.extend_from_slice(&self.sector.to_ne_bytes());
        for v in [self.bytes, self.action, self.pid, self.device, self.cpu] {
            out.extend_from_slice(&v.to_ne_bytes());
        }
        out.extend_from_slice(&self.error.to_ne_bytes());
        let len = u16::try_from(self.pdu.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&len.to_ne_bytes());
        out.extend_from_slice(&self.pdu[..usize::from(len)]);
    }

    /// Whether it is a queue, what a replay makes an I/O of (unless it has 0 bytes).
    pub(crate) fn queue(&self) -> bool {
        !self.notify() && self.code() == QUEUE
    }

    /// Whether it is a notify (a process name, a time stamp, a message), not an I/O event.
    fn notify(&self) -> bool {
        self.action & TC_NOTIFY != 0
    }

    /// The action's code.
    fn code(&self) -> u32 {
        self.action & 0xffff
    }

    /// The direction the depth counts it in: 1 for writes, 0 for the rest.
    fn side(&self) -> usize {
        usize::from(self.action & TC_WRITE != 0)
    }
}

/// Whether a file that starts with `head` is a blktrace trace (either byte order).
pub fn is_trace(head: &[u8]) -> bool {
    let Some(word) = head.get(..4) else { return false };
    let word: [u8; 4] = word.try_into().unwrap_or_default();
    [u32::from_le_bytes(word), u32::from_be_bytes(word)].iter().any(|m| m & !0xff == MAGIC)
}

/// The records of a trace, one at a time.
pub struct Records<R> {
    input: R,
    /// Whether the trace's byte order is the other one.
    swapped: Option<bool>,
    /// The record being read, before its payload.
    head: Vec<u8>,
    /// Where the next record starts.
    at: u64,
}

impl<R: Read> Records<R> {
    /// The records of `input`.
    pub fn new(input: R) -> Records<R> {
        Records { input, swapped: None, head: Vec::with_capacity(RECORD_LEN), at: 0 }
    }

    /// The next record; `None` at the end of the trace.
    pub fn next_record(&mut self) -> Result<Option<Record>, String> {
        read_upto(&mut self.input, RECORD_LEN, &mut self.head)?;
        let head = &self.head[..];
        if head.is_empty() {
            return Ok(None);
        }
        if head.len() < RECORD_LEN {
            return Err(format!("a truncated record at byte {}", self.at));
        }
        // The trace is in the byte order its first magic reads right in.
        let native = u32::from_ne_bytes(head[..4].try_into().unwrap_or_default());
        let swapped = *self.swapped.get_or_insert(native & !0xff != MAGIC);
        let little = cfg!(target_endian = "little") != swapped;
        let at = |i: usize, width: usize| number(&head[i..i + width], little);
        let u32_at = |i: usize| at(i, 4) as u32;
        let magic = u32_at(0);
        if magic & !0xff != MAGIC {
            return Err(format!("bad magic {magic:#x} at byte {}: not a blktrace record", self.at));
        }
        if magic & 0xff != VERSION {
            let why =
                format!("blktrace version {} at byte {} (iomark reads 7)", magic & 0xff, self.at);
            return Err(why);
        }
        let pdu_len = at(46, 2) as usize;
        let mut pdu = Vec::new();
        read_upto(&mut self.input, pdu_len, &mut pdu)?;
        if pdu.len() < pdu_len {
            return Err(format!("a truncated payload at byte {}", self.at));
        }
        let record = Record {
            magic,
            sequence: u32_at(4),
            time: at(8, 8),
            sector: at(16, 8),
            bytes: u32_at(24),
            action: u32_at(28),
            pid: u32_at(32),
            device: u32_at(36),
            cpu: u32_at(40),
            error: at(44, 2) as u16,
            pdu,
        };
        self.at += (RECORD_LEN + record.pdu.len()) as u64;
        Ok(Some(record))
    }
}

/// The unsigned number in `bytes`, in little- or big-endian order.
fn number(bytes: &[u8], little: bool) -> u64 {
    let fold = |n: u64, b: &u8| n << 8 | u64::from(*b);
    if little {
        bytes.iter().rev().fold(0, fold)
    } else {
        bytes.iter().fold(0, fold)
    }
}

/// Reads `len` bytes into `buf`, fewer if the input ends first.
fn read_upto(input: &mut impl Read, len: usize, buf: &mut Vec<u8>) -> Result<(), String> {
    buf.clear();
    input.take(len as u64).read_to_end(buf).map_err(|e| format!("cannot read: {e}"))?;
    Ok(())
}

/// How a trace is replayed: the options that change its I/Os.
#[derive(Debug, Clone, Default)]
pub(crate) struct Replay {
    /// `replay_scale`, `replay_align`, and whether `replay_redirect` is set.
    pub(crate) adjust: Adjust,
    /// `replay_skip`: reads, writes, trims, syncs.
    pub(crate) skip: [bool; 4],
    /// `replay_redirect`'s file.
    pub(crate) redirect: Option<PathBuf>,
}

/// A trace, read for its replay.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Trace {
    /// The devices its I/Os go to, in the order they first appear.
    pub(crate) files: Vec<PathBuf>,
    /// Its I/Os, in order.
    pub(crate) ios: Vec<ReplayIo>,
    /// The depth it sets (when the job does not).
    pub(crate) depth: u32,
    /// The queues of 0 bytes left out.
    pub(crate) zero_bytes: u64,
}

/// Reads a whole trace for its replay; `find` looks a device up (major, minor).
pub(crate) fn load(
    input: impl Read,
    how: &Replay,
    find: &mut dyn FnMut(u32, u32) -> Option<PathBuf>,
) -> Result<Trace, String> {
    let mut records = Records::new(input);
    let mut trace = Trace::default();
    if let Some(target) = &how.redirect {
        trace.files.push(target.clone());
    }
    // Devices looked up so far: (device, its file if found).
    let mut devices: Vec<(u32, Option<u32>)> = Vec::new();
    let mut current: Option<u32> = None;
    let (mut queued, mut depth) = ([0u32; 2], 0u32);
    let (mut last_ns, mut time_us): (Option<u64>, u64) = (None, 0);
    while let Some(r) = records.next_record()? {
        if r.notify() {
            continue;
        }
        let side = r.side();
        match r.code() {
            BACKMERGE | FRONTMERGE => queued[side] = queued[side].saturating_sub(1),
            COMPLETE => depth = depth.max(std::mem::take(&mut queued[side])),
            _ => {}
        }
        if !r.queue() {
            continue;
        }
        queued[side] += 1;
        if let Some(last) = last_ns {
            time_us += r.time.saturating_sub(last) / 1000;
        }
        last_ns = Some(r.time);
        let ddir = if r.action & TC_DISCARD != 0 {
            Ddir::Trim
        } else if r.action & TC_FLUSH != 0 {
            Ddir::Sync
        } else if r.action & TC_WRITE != 0 {
            Ddir::Write
        } else {
            Ddir::Read
        };
        let skipped = match ddir {
            Ddir::Read => how.skip[0],
            Ddir::Write => how.skip[1],
            Ddir::Trim => how.skip[2],
            _ => how.skip[3],
        };
        if ddir != Ddir::Sync && r.bytes == 0 {
            trace.zero_bytes += 1;
            continue;
        }
        if skipped {
            continue;
        }
        let file = if how.redirect.is_some() {
            0
        } else {
            match devices.iter().find(|d| d.0 == r.device) {
                Some(&(_, found)) => found.or(current),
                None => {
                    let (major, minor) = (r.device >> 20, r.device & 0xf_ffff);
                    let found = find(major, minor).map(|path| {
                        trace.files.push(path);
                        trace.files.len() as u32 - 1
                    });
                    devices.push((r.device, found));
                    found.or(current)
                }
            }
            .ok_or_else(|| {
                format!(
                    "no block device {}:{} in /dev for the I/O at byte {} (replay_redirect \
                     names one)",
                    r.device >> 20,
                    r.device & 0xf_ffff,
                    records.at - (RECORD_LEN + r.pdu.len()) as u64
                )
            })?
        };
        current = Some(file);
        let (offset, len) = match ddir {
            Ddir::Sync => (0, 0),
            _ => (how.adjust.offset(r.sector.saturating_mul(512)), how.adjust.len(r.bytes.into())),
        };
        trace.ios.push(ReplayIo { time_us, file, ddir, offset, len });
    }
    if trace.ios.is_empty() {
        return Err("no I/O in the blktrace trace (fio 3.33: \"found no ios\")".into());
    }
    trace.depth = depth.clamp(1, MAX_DEPTH);
    Ok(trace)
}

/// The block device of `major`:`minor` under `/dev`, as fio 3.33 finds it: the first,
/// directories in name order, that is not a symbolic link.
pub(crate) fn find_device(major: u32, minor: u32) -> Option<PathBuf> {
    find_under(Path::new("/dev"), major, minor, 0)
}

fn find_under(dir: &Path, major: u32, minor: u32, level: u32) -> Option<PathBuf> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let mut entries: Vec<_> = std::fs::read_dir(dir).ok()?.flatten().map(|e| e.path()).collect();
    entries.sort();
    let mut dirs = Vec::new();
    for path in entries {
        let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
        let ft = meta.file_type();
        if ft.is_block_device()
            && libc::major(meta.rdev()) == major
            && libc::minor(meta.rdev()) == minor
        {
            return Some(path);
        }
        if ft.is_dir() && level < 8 {
            dirs.push(path);
        }
    }
    dirs.into_iter().find_map(|d| find_under(&d, major, minor, level + 1))
}

#[cfg(test)]
#[path = "blktrace_tests.rs"]
pub(crate) mod tests;
