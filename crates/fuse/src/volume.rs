//! The exported file system: a root directory holding one file, `volume`, whose contents
//! are the backing file's (or block device's), and the answer to every request about it.
//!
//! [`Volume::answer`] decides what a request gets: a reply written at once into the
//! transport's reply area, an error, nothing (FORGET, INTERRUPT), or a [`DataOp`] on the
//! backing file, which the transport submits to its io_uring and answers when it completes.
//! Everything here is shared by all queues (`&self`); the size is the one value that
//! changes (SETATTR, a write or fallocate past the end of a regular file).

use crate::abi::{self, fopen, Attr, AttrOut, Dirent, EntryOut, OpenOut, StatfsOut, FATTR_SIZE};
use crate::request::{Request, VOLUME_NAME};
use crate::wire::{as_bytes, put};
use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::sync::atomic::{AtomicU64, Ordering};

/// The node id of `volume`.
pub const VOLUME_ID: u64 = 2;

/// The kinds of data requests, as fault injection and the summary count them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// READ.
    Read = 0,
    /// WRITE.
    Write = 1,
    /// FSYNC.
    Fsync = 2,
    /// FALLOCATE (fio's trims punch holes).
    Trim = 3,
}

impl Kind {
    /// All kinds, in the summary's order.
    pub const ALL: [Kind; 4] = [Kind::Read, Kind::Write, Kind::Fsync, Kind::Trim];

    /// Its name in flags and the summary.
    pub fn name(self) -> &'static str {
        ["read", "write", "fsync", "trim"][self as usize]
    }
}

/// An operation on the backing file that a request needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataOp {
    /// Read `len` bytes at `offset` into the reply area.
    Read {
        /// Where.
        offset: u64,
        /// How much (already clamped to the end of the volume).
        len: u32,
    },
    /// Write the request's `len` bytes of data at `offset`.
    Write {
        /// Where.
        offset: u64,
        /// How much.
        len: u32,
    },
    /// `fdatasync` the backing file.
    Fsync,
    /// `fallocate` the backing file.
    Fallocate {
        /// Start.
        offset: u64,
        /// Length.
        len: u64,
        /// `fallocate(2)` mode.
        mode: u32,
    },
}

impl DataOp {
    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            DataOp::Read { .. } => Kind::Read,
            DataOp::Write { .. } => Kind::Write,
            DataOp::Fsync => Kind::Fsync,
            DataOp::Fallocate { .. } => Kind::Trim,
        }
    }

    /// The byte range it touches (`None` for fsync).
    pub fn range(&self) -> Option<(u64, u64)> {
        match *self {
            DataOp::Read { offset, len } | DataOp::Write { offset, len } => {
                Some((offset, offset + u64::from(len)))
            }
            DataOp::Fallocate { offset, len, .. } => Some((offset, offset.saturating_add(len))),
            DataOp::Fsync => None,
        }
    }
}

/// What a request gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// A reply whose arguments are the first `n` bytes of the reply area.
    Reply(usize),
    /// An error reply (a positive errno).
    Error(i32),
    /// No reply at all.
    Nothing,
    /// An operation on the backing file, answered when it completes.
    Data(DataOp),
    /// Reply with nothing, then end the connection.
    Destroy,
}

/// How the volume is exported.
#[derive(Debug, Clone, Copy)]
pub struct Export {
    /// Refuse writes (EROFS).
    pub readonly: bool,
    /// Open the file with `FOPEN_DIRECT_IO` (no page cache in front of the export).
    pub direct_io: bool,
    /// The largest READ or WRITE served (the negotiated `max_write`).
    pub max_io: u32,
}

/// The exported file and its backing store.
#[derive(Debug)]
pub struct Volume {
    /// The backing file, opened for buffered I/O (and for everything when not `--direct`).
    pub file: File,
    /// The backing file opened with `O_DIRECT`, for aligned requests (`--direct`).
    pub direct: Option<File>,
    /// Whether the backing store is a block device (fixed size).
    pub block: bool,
    size: AtomicU64,
    export: Export,
    owner: (u32, u32),
    times: (u64, u32),
}

/// How long the kernel may cache names and attributes, in seconds.
const VALID_SECS: u64 = 1;

impl Volume {
    /// The volume over `file` (and `direct`, its `O_DIRECT` twin), `size` bytes long.
    pub fn new(file: File, direct: Option<File>, size: u64, block: bool, export: Export) -> Volume {
        let meta = file.metadata().ok();
        let owner = meta.as_ref().map_or((0, 0), |m| (m.uid(), m.gid()));
        let times = meta.as_ref().map_or((0, 0), |m| (m.mtime() as u64, m.mtime_nsec() as u32));
        Volume { file, direct, block, size: AtomicU64::new(size), export, owner, times }
    }

    /// The volume's size now.
    pub fn size(&self) -> u64 {
        self.size.load(Ordering::Relaxed)
    }

    /// How it is exported.
    pub fn export(&self) -> Export {
        self.export
    }

    /// Notes that the backing file now reaches `end` (a write or fallocate past the end).
    pub fn reached(&self, end: u64) {
        self.size.fetch_max(end, Ordering::Relaxed);
    }

    /// The answer to `req` about node `nodeid`; replies are written into `out`.
    pub fn answer(&self, nodeid: u64, req: &Request, out: &mut [u8]) -> Action {
        use Action::{Error, Reply};
        let e = &self.export;
        match *req {
            Request::Init(_) => Error(libc::EPROTO),
            Request::Lookup { volume: true } => Reply(put(out, &self.entry())),
            Request::Lookup { volume: false } => Error(libc::ENOENT),
            Request::Getattr => match self.attr(nodeid) {
                Some(attr) => Reply(put(out, &attr_out(attr))),
                None => Error(libc::ENOENT),
            },
            Request::Setattr(s) => self.setattr(nodeid, &s, out),
            Request::Open { flags } if nodeid == VOLUME_ID => {
                if e.readonly && flags & libc::O_ACCMODE as u32 != libc::O_RDONLY as u32 {
                    return Error(libc::EROFS);
                }
                let mut open_flags = fopen::PARALLEL_DIRECT_WRITES;
                if e.direct_io {
                    open_flags |= fopen::DIRECT_IO;
                }
                Reply(put(out, &OpenOut { fh: 0, open_flags, backing_id: 0 }))
            }
            Request::Open { .. } => Error(libc::EISDIR),
            Request::Read { size, .. } | Request::Write { size, .. } if size > e.max_io => {
                Error(libc::EINVAL)
            }
            Request::Read { offset, size } => {
                let end = self.size();
                if offset >= end || size == 0 {
                    return Reply(0);
                }
                let len = (end - offset).min(u64::from(size)) as u32;
                Action::Data(DataOp::Read { offset, len })
            }
            Request::Write { .. } | Request::Fallocate(_) if e.readonly => Error(libc::EROFS),
            Request::Write { offset, size } => {
                if self.block && offset + u64::from(size) > self.size() {
                    return Error(libc::ENOSPC);
                }
                Action::Data(DataOp::Write { offset, len: size })
            }
            Request::Fallocate(f) => {
                Action::Data(DataOp::Fallocate { offset: f.offset, len: f.length, mode: f.mode })
            }
            Request::Fsync => Action::Data(DataOp::Fsync),
            Request::Statfs => Reply(put(out, &self.statfs())),
            Request::Release | Request::Flush | Request::Releasedir => Reply(0),
            Request::Opendir if nodeid == abi::ROOT_ID => {
                Reply(put(out, &OpenOut { fh: 0, open_flags: 0, backing_id: 0 }))
            }
            Request::Opendir => Error(libc::ENOTDIR),
            Request::Readdir { offset, size, plus } => {
                let room = (size as usize).min(out.len());
                Reply(self.readdir(offset, plus, &mut out[..room]))
            }
            Request::Interrupt | Request::Forget => Action::Nothing,
            Request::Destroy => Action::Destroy,
            Request::Unsupported(_) => Error(libc::ENOSYS),
            Request::Malformed(_) => Error(libc::EINVAL),
        }
    }

    fn setattr(&self, nodeid: u64, s: &abi::SetattrIn, out: &mut [u8]) -> Action {
        let Some(_) = self.attr(nodeid) else { return Action::Error(libc::ENOENT) };
        if nodeid == VOLUME_ID && s.valid & FATTR_SIZE != 0 && s.size != self.size() {
            if self.export.readonly {
                return Action::Error(libc::EROFS);
            }
            if self.block {
                return Action::Error(libc::EINVAL);
            }
            if let Err(err) = self.file.set_len(s.size) {
                return Action::Error(err.raw_os_error().unwrap_or(libc::EIO));
            }
            self.size.store(s.size, Ordering::Relaxed);
        }
        // Modes, owners and times are not kept: the answer is the attributes as they are.
        match self.attr(nodeid) {
            Some(attr) => Action::Reply(put(out, &attr_out(attr))),
            None => Action::Error(libc::ENOENT),
        }
    }

    /// The attributes of node `nodeid`, if it exists.
    fn attr(&self, nodeid: u64) -> Option<Attr> {
        let (mode, nlink, size) = match nodeid {
            abi::ROOT_ID => (libc::S_IFDIR | 0o755, 2, 0),
            VOLUME_ID => {
                let perm = if self.export.readonly { 0o444 } else { 0o644 };
                (libc::S_IFREG | perm, 1, self.size())
            }
            _ => return None,
        };
        let (secs, nsec) = self.times;
        Some(Attr {
            ino: nodeid,
            size,
            blocks: size.div_ceil(512),
            atime: secs,
            mtime: secs,
            ctime: secs,
            atimensec: nsec,
            mtimensec: nsec,
            ctimensec: nsec,
            mode,
            nlink,
            uid: self.owner.0,
            gid: self.owner.1,
            rdev: 0,
            blksize: 4096,
            flags: 0,
        })
    }

    fn entry(&self) -> EntryOut {
        EntryOut {
            nodeid: VOLUME_ID,
            generation: 1,
            entry_valid: VALID_SECS,
            attr_valid: VALID_SECS,
            entry_valid_nsec: 0,
            attr_valid_nsec: 0,
            attr: self.attr(VOLUME_ID).unwrap_or_default(),
        }
    }

    fn statfs(&self) -> StatfsOut {
        let blocks = self.size().div_ceil(4096);
        StatfsOut {
            blocks,
            bfree: 0,
            bavail: 0,
            files: 2,
            ffree: 0,
            bsize: 4096,
            namelen: 255,
            frsize: 4096,
            ..Default::default()
        }
    }

    /// Directory entries from index `offset` on that fit in `out`; the bytes written.
    fn readdir(&self, offset: u64, plus: bool, out: &mut [u8]) -> usize {
        let entries: [(u64, &[u8], u32); 3] = [
            (abi::ROOT_ID, b".", u32::from(libc::DT_DIR)),
            (abi::ROOT_ID, b"..", u32::from(libc::DT_DIR)),
            (VOLUME_ID, VOLUME_NAME, u32::from(libc::DT_REG)),
        ];
        let mut at = 0;
        for (i, &(ino, name, typ)) in entries.iter().enumerate().skip(offset as usize) {
            let dirent = Dirent { ino, off: i as u64 + 1, namelen: name.len() as u32, typ };
            let entry = if plus && ino == VOLUME_ID { self.entry() } else { EntryOut::default() };
            let head = if plus { 128 } else { 0 } + 24;
            let len = (head + name.len()).div_ceil(8) * 8;
            if at + len > out.len() {
                break;
            }
            let rec = &mut out[at..at + len];
            rec.fill(0);
            if plus {
                rec[..128].copy_from_slice(as_bytes(&entry));
            }
            rec[head - 24..head].copy_from_slice(as_bytes(&dirent));
            rec[head..head + name.len()].copy_from_slice(name);
            at += len;
        }
        at
    }
}

fn attr_out(attr: Attr) -> AttrOut {
    AttrOut { attr_valid: VALID_SECS, attr_valid_nsec: 0, dummy: 0, attr }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::read;

    fn volume(readonly: bool) -> (tempfile::NamedTempFile, Volume) {
        let tmp = tempfile::NamedTempFile::new().unwrap();
        tmp.as_file().set_len(10_000).unwrap();
        let file = tmp.reopen().unwrap();
        let export = Export { readonly, direct_io: true, max_io: 8192 };
        (tmp, Volume::new(file, None, 10_000, false, export))
    }

    #[test]
    fn reads_are_clamped_to_the_end_and_oversized_ones_refused() {
        let (_t, v) = volume(false);
        let mut out = vec![0u8; 8192];
        let read = |offset, size| Request::Read { offset, size };
        assert_eq!(
            v.answer(VOLUME_ID, &read(8192, 4096), &mut out),
            Action::Data(DataOp::Read { offset: 8192, len: 1808 })
        );
        assert_eq!(v.answer(VOLUME_ID, &read(10_000, 4096), &mut out), Action::Reply(0));
        assert_eq!(v.answer(VOLUME_ID, &read(0, 8193), &mut out), Action::Error(libc::EINVAL));
    }

    #[test]
    fn a_readonly_export_refuses_writes_and_opens_for_writing() {
        let (_t, v) = volume(true);
        let mut out = vec![0u8; 8192];
        let write = Request::Write { offset: 0, size: 512 };
        assert_eq!(v.answer(VOLUME_ID, &write, &mut out), Action::Error(libc::EROFS));
        let open = Request::Open { flags: libc::O_RDWR as u32 };
        assert_eq!(v.answer(VOLUME_ID, &open, &mut out), Action::Error(libc::EROFS));
        let open = Request::Open { flags: libc::O_RDONLY as u32 };
        let Action::Reply(n) = v.answer(VOLUME_ID, &open, &mut out) else { panic!() };
        let reply: OpenOut = read(&out[..n]).unwrap();
        assert_eq!(reply.open_flags, fopen::DIRECT_IO | fopen::PARALLEL_DIRECT_WRITES);
    }

    #[test]
    fn the_root_lists_dot_dotdot_and_volume_and_resumes_at_an_offset() {
        let (_t, v) = volume(false);
        let mut out = vec![0u8; 4096];
        let Action::Reply(n) =
            v.answer(1, &Request::Readdir { offset: 0, size: 4096, plus: false }, &mut out)
        else {
            panic!()
        };
        assert_eq!(n, 32 + 32 + 32);
        let last: Dirent = read(&out[64..]).unwrap();
        assert_eq!((last.ino, last.off, last.namelen), (VOLUME_ID, 3, 6));
        assert_eq!(&out[88..94], b"volume");
        let Action::Reply(n) =
            v.answer(1, &Request::Readdir { offset: 2, size: 4096, plus: true }, &mut out)
        else {
            panic!()
        };
        assert_eq!(n, (128 + 24 + 6usize).div_ceil(8) * 8);
        let entry: EntryOut = read(&out).unwrap();
        assert_eq!((entry.nodeid, entry.attr.size), (VOLUME_ID, 10_000));
    }

    #[test]
    fn setattr_size_truncates_the_backing_file() {
        let (t, v) = volume(false);
        let mut out = vec![0u8; 4096];
        let s = abi::SetattrIn { valid: FATTR_SIZE, size: 4096, ..Default::default() };
        let Action::Reply(_) = v.answer(VOLUME_ID, &Request::Setattr(s), &mut out) else {
            panic!()
        };
        assert_eq!(std::fs::metadata(t.path()).unwrap().len(), 4096);
        assert_eq!(v.size(), 4096);
    }
}
