//! fio's metadata engines, which work on the job's files by name: `filecreate` creates
//! each file, `filestat` looks it up, `filedelete` removes it. None of them moves data.
//!
//! What fio 3.33 does (checked against it, see the runner's tests): each file gets the
//! operation once per loop, at the first I/O the job issues to it; that I/O's time is the
//! operation's, and it is the only latency recorded (as clat: no lat, no latency buckets).
//! Every I/O, the first and the others, counts its bytes and its I/O in the report, as
//! fio's do, so `filesize=16k bs=4k nrfiles=10` reports 40 I/Os and 10 clat samples. The
//! engine marks the first I/O of a file [`IoUnit::timed`] and the others not, and the
//! runner records accordingly.
//!
//! - `filecreate`: `open(O_CREAT|O_RDWR, 0600)`, as fio; the file stays open until the
//!   loop ends (fio closes it when it closes the job's files, outside the timing).
//! - `filestat`: `stat(2)`, `lstat(2)` or `statx(2)` (`stat_type`) on the laid-out file.
//! - `filedelete`: `unlink(2)` of the laid-out file; a second loop fails with `ENOENT`,
//!   as in fio.

use crate::interface::{Engine, EngineError, Queued};
pub use crate::options::StatCall;
use crate::unit::IoUnit;
use std::ffi::CString;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

/// What a metadata engine does to each file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileOp {
    /// `filecreate`.
    Create,
    /// `filestat`, with its system call.
    Stat(StatCall),
    /// `filedelete`.
    Delete,
}

/// A metadata engine (see the module doc).
#[derive(Debug)]
pub struct FileOpEngine {
    op: FileOp,
    /// The job's files, in the runner's order.
    paths: Vec<CString>,
    /// Which files had their operation in this loop.
    done: Vec<bool>,
    /// The files `filecreate` opened in this loop, closed when the loop ends.
    held: Vec<OwnedFd>,
}

impl FileOpEngine {
    /// An engine doing `op` to each file.
    pub fn new(op: FileOp) -> Self {
        FileOpEngine { op, paths: Vec::new(), done: Vec::new(), held: Vec::new() }
    }

    /// Does the operation on file `file`: 0, or a negated errno.
    fn operate(&mut self, file: usize) -> i64 {
        let Some(path) = self.paths.get(file) else {
            return -i64::from(libc::EBADF);
        };
        let r = match self.op {
            FileOp::Create => {
                let flags = libc::O_CREAT | libc::O_RDWR | libc::O_CLOEXEC;
                let mut fd = open(path, flags);
                if fd < 0 && errno() == libc::EMFILE && !self.held.is_empty() {
                    // Out of descriptors: close this loop's files early, and try again.
                    self.held.clear();
                    fd = open(path, flags);
                }
                if fd >= 0 {
                    // SAFETY: `fd` was just opened and is owned by nothing else.
                    self.held.push(unsafe { OwnedFd::from_raw_fd(fd) });
                }
                fd
            }
            FileOp::Stat(call) => stat(path, call),
            // SAFETY: `path` is a NUL-terminated string that lives across the call.
            FileOp::Delete => unsafe { libc::unlink(path.as_ptr()) },
        };
        if r < 0 {
            -i64::from(errno())
        } else {
            0
        }
    }
}

/// Grows the process's descriptor table now, before the job, to hold `n` more files:
/// in a process with several threads the kernel grows a full table with an RCU grace
/// period (milliseconds), which would otherwise land in the timing of a create (fio's jobs
/// are processes of their own, each with its own table). Best effort: past the soft
/// `RLIMIT_NOFILE` nothing is reserved.
fn reserve_descriptors(n: usize) {
    // SAFETY: getrlimit writes into the struct it is given; open and fcntl take a
    // NUL-terminated path and descriptors; every descriptor made here is closed here.
    unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) < 0 {
            return;
        }
        let want = (n as u64 + 64).min(limit.rlim_cur.saturating_sub(1)) as libc::c_int;
        let fd = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return;
        }
        let high = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, want);
        if high >= 0 {
            libc::close(high);
        }
        libc::close(fd);
    }
}

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO)
}

fn open(path: &CString, flags: libc::c_int) -> libc::c_int {
    // SAFETY: `path` is a NUL-terminated string that lives across the call.
    unsafe { libc::open(path.as_ptr(), flags, 0o600 as libc::c_uint) }
}

fn stat(path: &CString, call: StatCall) -> libc::c_int {
    // SAFETY: the zeroed structs are plain data the kernel fills; `path` is NUL-terminated
    // and lives across the calls, and each call writes only into the struct it is given.
    unsafe {
        match call {
            StatCall::Stat => {
                let mut st: libc::stat = std::mem::zeroed();
                libc::stat(path.as_ptr(), &mut st)
            }
            StatCall::Lstat => {
                let mut st: libc::stat = std::mem::zeroed();
                libc::lstat(path.as_ptr(), &mut st)
            }
            StatCall::Statx => {
                let mut st: libc::statx = std::mem::zeroed();
                let mask = libc::STATX_BASIC_STATS;
                libc::statx(libc::AT_FDCWD, path.as_ptr(), 0, mask, &mut st)
            }
        }
    }
}

impl Engine for FileOpEngine {
    fn name(&self) -> &'static str {
        match self.op {
            FileOp::Create => "filecreate",
            FileOp::Stat(_) => "filestat",
            FileOp::Delete => "filedelete",
        }
    }

    fn is_sync(&self) -> bool {
        true
    }

    fn set_paths(&mut self, paths: &[PathBuf]) -> Result<(), EngineError> {
        self.paths = paths
            .iter()
            .map(|p| CString::new(p.as_os_str().as_bytes()))
            .collect::<Result<_, _>>()
            .map_err(|_| EngineError::other("a file name holds a NUL byte"))?;
        self.done = vec![false; paths.len()];
        if self.op == FileOp::Create {
            reserve_descriptors(paths.len());
        }
        Ok(())
    }

    fn next_loop(&mut self) {
        self.done.fill(false);
        self.held.clear();
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        let file = unit.file as usize;
        let first = self.done.get(file).is_some_and(|done| !done);
        unit.timed = first;
        unit.result = unit.len as i64;
        if first {
            self.done[file] = true;
            let r = self.operate(file);
            if r < 0 {
                unit.result = r;
            }
        }
        Queued::Completed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unit::IoUnit;
    use iomark_core::Ddir;

    fn unit(file: u32) -> IoUnit {
        let mut u = IoUnit::new(0, 4096, 4096).unwrap();
        (u.ddir, u.file, u.len) = (Ddir::Write, file, 4096);
        u
    }

    #[test]
    fn each_file_gets_its_operation_once_per_loop() {
        let dir = std::env::temp_dir().join(format!("iomark-fileops-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let paths: Vec<PathBuf> = (0..2).map(|i| dir.join(format!("f{i}"))).collect();
        let mut create = FileOpEngine::new(FileOp::Create);
        create.set_paths(&paths).unwrap();
        let mut timed = Vec::new();
        for file in [0, 0, 1, 1] {
            let mut u = unit(file);
            assert_eq!(create.queue(&mut u), Queued::Completed);
            assert_eq!(u.result, 4096);
            timed.push(u.timed);
        }
        assert_eq!(timed, [true, false, true, false]);
        assert!(paths.iter().all(|p| p.exists()));
        let mut stat = FileOpEngine::new(FileOp::Stat(StatCall::Statx));
        stat.set_paths(&paths).unwrap();
        assert_eq!(
            {
                let mut u = unit(1);
                stat.queue(&mut u);
                u.result
            },
            4096
        );
        let mut delete = FileOpEngine::new(FileOp::Delete);
        delete.set_paths(&paths).unwrap();
        for file in [0, 1] {
            let mut u = unit(file);
            delete.queue(&mut u);
            assert_eq!(u.result, 4096);
        }
        assert!(paths.iter().all(|p| !p.exists()));
        // A second loop finds the files gone, as fio's does.
        delete.next_loop();
        let mut u = unit(0);
        delete.queue(&mut u);
        assert_eq!(u.result, -i64::from(libc::ENOENT));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
