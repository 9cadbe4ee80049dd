//! Building the ring: which setup flags the options ask for, which the kernel has, and what
//! to tell the user when it lacks one.
//!
//! Everything here runs before the job's first I/O, so it may allocate and make system
//! calls freely.

use crate::interface::EngineError;
use crate::options::EngineOptions;
use crate::unit::IoUnit;
use io_uring::{opcode, IoUring, Probe};
use std::io;

/// How long the submission queue thread of `sqthread_poll` spins without work before it
/// sleeps, in milliseconds (the kernel's own default when none is given).
const SQ_THREAD_IDLE_MS: u32 = 1000;

/// The most submission queue entries a ring can have (`IORING_MAX_ENTRIES`); the completion
/// queue is twice as large.
const MAX_SQ_ENTRIES: u32 = 32768;

/// The running kernel's version, major and minor, from `uname(2)` (0.0 when unreadable).
pub fn kernel_version() -> (u32, u32) {
    // SAFETY: utsname is plain data; all-zero is a valid value.
    let mut uts: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: uname writes into the struct we own.
    if unsafe { libc::uname(&mut uts) } != 0 {
        return (0, 0);
    }
    let release: String =
        uts.release.iter().take_while(|&&c| c != 0).map(|&c| c as u8 as char).collect();
    parse_version(&release)
}

/// `"6.18.44-foo"` → (6, 18).
fn parse_version(release: &str) -> (u32, u32) {
    let mut parts = release.split(|c: char| !c.is_ascii_digit());
    let major = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let minor = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    (major, minor)
}

/// `"<what> needs Linux X.Y or later (this kernel is A.B)"`.
pub fn needs(what: &str, version: (u32, u32)) -> String {
    let (major, minor) = kernel_version();
    format!(
        "{what} needs Linux {}.{} or later (this kernel is {major}.{minor})",
        version.0, version.1
    )
}

/// Whether the running kernel is at least `version`.
pub fn kernel_at_least(version: (u32, u32)) -> bool {
    kernel_version() >= version
}

/// A ring as the options ask for it, and what the kernel told us while making it.
pub struct Built {
    /// The ring.
    pub ring: IoUring,
    /// Whether the ring was made disabled (`IORING_SETUP_R_DISABLED`) and must be enabled
    /// by the thread that will do the I/O (needed for `SINGLE_ISSUER`).
    pub disabled: bool,
    /// Whether the kernel has the non-vectored `READ`/`WRITE` operations.
    pub has_read_write: bool,
}

/// The extra setup flags tried, best first, when neither `SQPOLL` nor `IOPOLL` is in use:
/// each tier needs a newer kernel than the next, and an `EINVAL` falls back one tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tier {
    /// 6.6: `SINGLE_ISSUER` + `DEFER_TASKRUN` (completions run when we ask for them, in our
    /// own context) and `NO_SQARRAY`.
    DeferNoSqArray,
    /// 6.1: the same without `NO_SQARRAY`.
    Defer,
    /// 5.19: `COOP_TASKRUN` (no interrupting the task to post completions).
    Coop,
    /// Any kernel: no extra flags.
    Plain,
}

fn builder(options: &EngineOptions, tier: Tier) -> io_uring::Builder {
    let mut b = IoUring::builder();
    if options.hipri {
        b.setup_iopoll();
    }
    if options.sqthread_poll {
        b.setup_sqpoll(SQ_THREAD_IDLE_MS);
        if let Some(cpu) = options.sqthread_poll_cpu {
            b.setup_sqpoll_cpu(cpu);
        }
    }
    match tier {
        Tier::DeferNoSqArray | Tier::Defer => {
            b.setup_single_issuer().setup_defer_taskrun().setup_taskrun_flag();
            b.setup_submit_all().setup_r_disabled();
            if tier == Tier::DeferNoSqArray {
                b.setup_no_sqarray();
            }
        }
        Tier::Coop => {
            b.setup_coop_taskrun().setup_taskrun_flag().setup_submit_all();
        }
        Tier::Plain => {}
    }
    b
}

/// Makes the ring for `options`, or says clearly why it cannot.
pub fn build(options: &EngineOptions) -> Result<Built, EngineError> {
    if !kernel_at_least((5, 1)) && kernel_version() != (0, 0) {
        return Err(EngineError::option("ioengine", needs("io_uring", (5, 1))));
    }
    if options.hipri && !options.direct {
        return Err(EngineError::option(
            "hipri",
            "polled completion (IORING_SETUP_IOPOLL) works only with direct=1",
        ));
    }
    if options.force_async > 0 && !kernel_at_least((5, 6)) {
        return Err(EngineError::option("force_async", needs("IOSQE_ASYNC", (5, 6))));
    }
    let depth = options.iodepth.max(1);
    if depth > 2 * MAX_SQ_ENTRIES {
        return Err(EngineError::option(
            "iodepth",
            format!("an io_uring completion queue holds at most {}", 2 * MAX_SQ_ENTRIES),
        ));
    }
    // The completion queue is twice the submission queue, so it holds every unit in flight.
    let entries = depth.min(MAX_SQ_ENTRIES);
    let tiers: &[Tier] = if options.hipri || options.sqthread_poll {
        &[Tier::Plain]
    } else {
        &[Tier::DeferNoSqArray, Tier::Defer, Tier::Coop, Tier::Plain]
    };
    let mut made = None;
    for (i, &tier) in tiers.iter().enumerate() {
        match builder(options, tier).build(entries) {
            Ok(ring) => {
                made = Some((ring, tier));
                break;
            }
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) && i + 1 < tiers.len() => {}
            Err(e) => return Err(setup_error(options, &e)),
        }
    }
    let (ring, tier) = made.expect("the last tier either builds or returns an error");
    if options.sqthread_poll
        && !options.registerfiles
        && !ring.params().is_feature_sqpoll_nonfixed()
    {
        return Err(EngineError::option(
            "sqthread_poll",
            needs("sqthread_poll without registerfiles", (5, 11)),
        ));
    }
    let mut probe = Probe::new();
    let has_read_write = ring.submitter().register_probe(&mut probe).is_ok()
        && probe.is_supported(opcode::Read::CODE)
        && probe.is_supported(opcode::Write::CODE);
    if options.nonvectored > 0 && !has_read_write {
        return Err(EngineError::option("nonvectored", needs("non-vectored READ/WRITE", (5, 6))));
    }
    let disabled = matches!(tier, Tier::DeferNoSqArray | Tier::Defer);
    Ok(Built { ring, disabled, has_read_write })
}

/// What a failed `io_uring_setup` means, in words.
fn setup_error(options: &EngineOptions, e: &io::Error) -> EngineError {
    match e.raw_os_error() {
        Some(libc::ENOSYS) if !kernel_at_least((5, 1)) => {
            EngineError::option("ioengine", needs("io_uring", (5, 1)))
        }
        Some(libc::ENOSYS) => EngineError::option(
            "ioengine",
            "io_uring is not available: this kernel was built without it (io_uring_setup: ENOSYS)",
        ),
        Some(libc::EPERM) if options.sqthread_poll && !kernel_at_least((5, 11)) => {
            EngineError::option(
                "sqthread_poll",
                needs("sqthread_poll without CAP_SYS_ADMIN", (5, 11)),
            )
        }
        Some(libc::EPERM) => EngineError::option("ioengine", disabled_reason()),
        Some(libc::EINVAL) if options.sqthread_poll && options.sqthread_poll_cpu.is_some() => {
            EngineError::option(
                "sqthread_poll_cpu",
                format!(
                    "the kernel refused CPU {} for the submission queue thread (io_uring_setup: \
                     EINVAL); is that CPU online and allowed?",
                    options.sqthread_poll_cpu.unwrap_or(0)
                ),
            )
        }
        Some(libc::ENOMEM) => EngineError::option(
            "ioengine",
            format!("io_uring_setup: {e} (is the locked-memory limit, ulimit -l, too low?)"),
        ),
        _ => EngineError::option("ioengine", format!("io_uring_setup failed: {e}")),
    }
}

/// Why `io_uring_setup` said EPERM: the `kernel.io_uring_disabled` sysctl, or a sandbox.
fn disabled_reason() -> String {
    let sysctl = std::fs::read_to_string("/proc/sys/kernel/io_uring_disabled").unwrap_or_default();
    match sysctl.trim() {
        "2" => "io_uring is disabled on this machine (sysctl kernel.io_uring_disabled = 2)".into(),
        "1" => "io_uring is disabled for this user (sysctl kernel.io_uring_disabled = 1: only \
                root and members of kernel.io_uring_group may use it)"
            .into(),
        _ => "io_uring is not permitted here (io_uring_setup: EPERM; a seccomp filter or \
              container policy may block it)"
            .into(),
    }
}

/// Checks with one small `preadv2` that the file open as `fd` takes `RWF_DONTCACHE`, so that
/// a job with `uncached` fails at setup rather than at its first I/O. Only `EOPNOTSUPP`
/// means no; any other answer (a short read, `EINVAL` for an unaligned direct read, `EBADF`
/// for a write-only file) comes after the kernel accepted the flag, or says nothing.
pub fn check_dontcache(fd: libc::c_int) -> Result<(), EngineError> {
    let mut byte = [0u8; 1];
    let iov = libc::iovec { iov_base: byte.as_mut_ptr().cast(), iov_len: 1 };
    // SAFETY: the iovec describes one byte of `byte`, alive for the call.
    let r = unsafe { libc::preadv2(fd, &iov, 1, 0, libc::RWF_DONTCACHE) };
    if r >= 0 || io::Error::last_os_error().raw_os_error() != Some(libc::EOPNOTSUPP) {
        return Ok(());
    }
    let message = if kernel_at_least((6, 14)) {
        "the file system of the job's file does not support RWF_DONTCACHE".to_string()
    } else {
        needs("RWF_DONTCACHE", (6, 14))
    };
    Err(EngineError::option("uncached", message))
}

/// Registers the ring's file descriptor with the calling thread
/// (`IORING_REGISTER_RING_FDS`, Linux 5.18), so that `io_uring_enter` skips the descriptor
/// lookup; returns the registered index, or `None` when the kernel cannot.
pub fn register_ring_fd(ring_fd: libc::c_int) -> Option<u32> {
    const IORING_REGISTER_RING_FDS: libc::c_long = 20;
    let mut update = RsrcUpdate { offset: u32::MAX, resv: 0, data: ring_fd as u64 };
    // SAFETY: the kernel reads and writes back one io_uring_rsrc_update, which `update` is.
    let r = unsafe {
        libc::syscall(
            libc::SYS_io_uring_register,
            ring_fd,
            IORING_REGISTER_RING_FDS,
            &mut update as *mut RsrcUpdate,
            1,
        )
    };
    (r == 1).then_some(update.offset)
}

/// Undoes [`register_ring_fd`] (on the thread that registered it).
pub fn unregister_ring_fd(ring_fd: libc::c_int, index: u32) {
    const IORING_UNREGISTER_RING_FDS: libc::c_long = 21;
    let mut update = RsrcUpdate { offset: index, resv: 0, data: 0 };
    // SAFETY: the kernel reads one io_uring_rsrc_update, which `update` is.
    unsafe {
        libc::syscall(
            libc::SYS_io_uring_register,
            ring_fd,
            IORING_UNREGISTER_RING_FDS,
            &mut update as *mut RsrcUpdate,
            1,
        );
    }
}

/// The kernel's `struct io_uring_rsrc_update`.
#[repr(C)]
struct RsrcUpdate {
    offset: u32,
    resv: u32,
    data: u64,
}

/// Registers every unit's whole buffer, at the unit's index (`fixedbufs`).
pub fn register_buffers(ring: &IoUring, units: &[IoUnit], slots: usize) -> Result<(), EngineError> {
    // The kernel's limit on registered buffers (IORING_MAX_REG_BUFFERS).
    const MAX_BUFFERS: usize = 1 << 14;
    if slots > MAX_BUFFERS {
        return Err(EngineError::option(
            "fixedbufs",
            format!("io_uring registers at most {MAX_BUFFERS} buffers (iodepth is {slots})"),
        ));
    }
    let mut iovecs = vec![libc::iovec { iov_base: std::ptr::null_mut(), iov_len: 0 }; slots];
    for unit in units {
        iovecs[unit.index as usize] = libc::iovec {
            iov_base: unit.buf.as_ptr() as *mut libc::c_void,
            iov_len: unit.buf.len(),
        };
    }
    // SAFETY: every iovec describes a unit's whole buffer, which never moves; the kernel
    // pins the pages while they are registered, and does I/O into them only for units in
    // flight, which the runner keeps alive until they are reaped.
    unsafe { ring.submitter().register_buffers(&iovecs) }.map_err(|e| {
        let hint = if e.raw_os_error() == Some(libc::ENOMEM) {
            " (is the locked-memory limit, ulimit -l, too low?)"
        } else {
            ""
        };
        EngineError::option("fixedbufs", format!("registering the buffers: {e}{hint}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_from_uname_releases() {
        assert_eq!(parse_version("6.18.44-fc-v769"), (6, 18));
        assert_eq!(parse_version("5.4.0-150-generic"), (5, 4));
        assert_eq!(parse_version("6.1"), (6, 1));
        assert_eq!(parse_version("garbage"), (0, 0));
    }

    #[test]
    fn the_message_names_both_versions() {
        let m = needs("RWF_DONTCACHE", (6, 14));
        assert!(m.starts_with("RWF_DONTCACHE needs Linux 6.14 or later (this kernel is "), "{m}");
    }
}
