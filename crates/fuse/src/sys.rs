//! The system calls the exporter makes outside io_uring, each in a small safe function:
//! `mount(2)` and `umount2(2)`, the `/dev/fuse` clone ioctl, pinning a thread to a CPU,
//! `fork(2)` for `--daemon`, and moving a descriptor onto another.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::Path;

fn cstr(text: &[u8]) -> io::Result<CString> {
    CString::new(text).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

fn check(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

/// `mount(source, target, fstype, flags, data)`.
pub fn mount(source: &Path, target: &Path, fstype: &str, flags: u64, data: &str) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let source = cstr(source.as_os_str().as_bytes())?;
    let target = cstr(target.as_os_str().as_bytes())?;
    let fstype = cstr(fstype.as_bytes())?;
    let data = cstr(data.as_bytes())?;
    // SAFETY: every pointer is a NUL-terminated string that lives until the call returns.
    check(unsafe {
        libc::mount(source.as_ptr(), target.as_ptr(), fstype.as_ptr(), flags, data.as_ptr().cast())
    })?;
    Ok(())
}

/// `umount2(target, flags)`.
pub fn umount2(target: &Path, flags: libc::c_int) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let target = cstr(target.as_os_str().as_bytes())?;
    // SAFETY: `target` is a NUL-terminated string that lives until the call returns.
    check(unsafe { libc::umount2(target.as_ptr(), flags) })?;
    Ok(())
}

/// Attaches `clone` (a fresh open of `/dev/fuse`) to the connection of `session`, so that
/// requests can be read from and answered on it as on `session`.
pub fn clone_fuse_fd(clone: &OwnedFd, session: RawFd) -> io::Result<()> {
    let mut fd = session as u32;
    // SAFETY: FUSE_DEV_IOC_CLONE reads one u32 (the session's descriptor) from the pointer,
    // which points at `fd`, alive for the call.
    check(unsafe {
        libc::ioctl(clone.as_raw_fd(), crate::abi::DEV_IOC_CLONE as _, &mut fd as *mut u32)
    })?;
    Ok(())
}

/// Pins the calling thread to `cpu`.
pub fn pin_to_cpu(cpu: usize) -> io::Result<()> {
    // SAFETY: a zeroed cpu_set_t is an empty set; CPU_SET writes inside it (cpu is checked
    // against its capacity first).
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    if cpu >= 8 * std::mem::size_of::<libc::cpu_set_t>() {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    // SAFETY: `cpu` is inside the set (checked above).
    unsafe { libc::CPU_SET(cpu, &mut set) };
    // SAFETY: `set` is a valid cpu_set_t of the size passed; 0 is the calling thread.
    check(unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) })?;
    Ok(())
}

/// Whether this process is the parent or the child after [`fork`].
pub enum Forked {
    /// The parent.
    Parent,
    /// The child.
    Child,
}

/// `fork(2)`. Call it only while the process has one thread (before the exporter starts
/// any): the child gets a copy of this thread alone.
pub fn fork() -> io::Result<Forked> {
    // SAFETY: the caller forks while single-threaded, so no lock held by another thread is
    // copied into the child; both sides go on with ordinary Rust code.
    match check(unsafe { libc::fork() })? {
        0 => Ok(Forked::Child),
        _ => Ok(Forked::Parent),
    }
}

/// `setsid(2)`: a new session, without a controlling terminal.
pub fn setsid() -> io::Result<()> {
    // SAFETY: setsid takes no arguments and only changes this process's session.
    check(unsafe { libc::setsid() })?;
    Ok(())
}

/// Makes descriptor `target` a copy of `source` (`dup2`), closing what `target` was.
pub fn dup_onto(source: &impl AsRawFd, target: RawFd) -> io::Result<()> {
    // SAFETY: dup2 on two descriptor numbers; `source` is open for the call.
    check(unsafe { libc::dup2(source.as_raw_fd(), target) })?;
    Ok(())
}

/// A pipe: (read end, write end), both close-on-exec.
pub fn pipe() -> io::Result<(std::fs::File, std::fs::File)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    check(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    // SAFETY: pipe2 succeeded, so both are open descriptors that nothing else owns.
    Ok(unsafe { (std::fs::File::from_raw_fd(fds[0]), std::fs::File::from_raw_fd(fds[1])) })
}

/// Sets or clears `O_NONBLOCK` on `fd`.
pub fn set_nonblocking(fd: &impl AsRawFd, on: bool) -> io::Result<()> {
    let fd = fd.as_raw_fd();
    // SAFETY: F_GETFL/F_SETFL on an open descriptor take and return plain integers.
    let flags = check(unsafe { libc::fcntl(fd, libc::F_GETFL) })?;
    let flags = if on { flags | libc::O_NONBLOCK } else { flags & !libc::O_NONBLOCK };
    // SAFETY: as above.
    check(unsafe { libc::fcntl(fd, libc::F_SETFL, flags) })?;
    Ok(())
}

/// `fallocate(2)` on `file`.
pub fn fallocate(file: &impl AsRawFd, mode: u32, offset: u64, len: u64) -> io::Result<()> {
    // SAFETY: fallocate takes plain integers and an open descriptor.
    check(unsafe { libc::fallocate(file.as_raw_fd(), mode as i32, offset as i64, len as i64) })?;
    Ok(())
}

/// Whether `statfs(2)` on `path` works (a FUSE mount whose server is gone answers
/// `ENOTCONN` or `ECONNABORTED`, even when its attributes are still cached).
pub fn statfs_ok(path: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let path = cstr(path.as_os_str().as_bytes())?;
    // SAFETY: a zeroed statfs is a valid buffer for the kernel to fill.
    let mut buf: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: `path` is NUL-terminated and `buf` is a statfs, both alive for the call.
    check(unsafe { libc::statfs(path.as_ptr(), &mut buf) })?;
    Ok(())
}
