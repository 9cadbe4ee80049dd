//! The `bpf()` and `perf_event_open()` system calls the BPF path needs: maps made, a
//! program loaded (the verifier's log kept for the error) and attached to a tracepoint,
//! a map's value read, and a ring buffer map's records read from its shared pages
//! ([`RingBuf`]). Each `unsafe` block has its `// SAFETY:` line.
#![allow(unsafe_code)]

use super::asm::Insn;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// `enum bpf_map_type`: an array.
pub const MAP_ARRAY: u32 = 2;
/// `enum bpf_map_type`: a ring buffer shared by every CPU.
pub const MAP_RINGBUF: u32 = 27;
/// `enum bpf_prog_type`: a program on a tracepoint (its context: the event's record).
const PROG_TRACEPOINT: u32 = 5;
const BPF_MAP_CREATE: libc::c_long = 0;
const BPF_MAP_LOOKUP_ELEM: libc::c_long = 1;
const BPF_PROG_LOAD: libc::c_long = 5;
const BPF_OBJ_GET_INFO_BY_FD: libc::c_long = 15;
/// Where `recursion_misses` lies in `struct bpf_prog_info` (kernel 5.12 on).
const INFO_MISSES: usize = 208;
const PERF_TYPE_TRACEPOINT: u32 = 2;
const PERF_FLAG_FD_CLOEXEC: libc::c_ulong = 8;
const PERF_EVENT_IOC_ENABLE: libc::c_ulong = 0x2400;
const PERF_EVENT_IOC_SET_BPF: libc::c_ulong = 0x4004_2408;

/// `union bpf_attr`, as big as any of the commands used reads (zeros past the fields set).
#[repr(C, align(8))]
struct Attr([u8; 128]);

impl Attr {
    fn new() -> Attr {
        Attr([0; 128])
    }
    fn u32(&mut self, at: usize, v: u32) -> &mut Attr {
        self.0[at..at + 4].copy_from_slice(&v.to_ne_bytes());
        self
    }
    fn u64(&mut self, at: usize, v: u64) -> &mut Attr {
        self.0[at..at + 8].copy_from_slice(&v.to_ne_bytes());
        self
    }
}

fn bpf(cmd: libc::c_long, attr: &mut Attr) -> io::Result<libc::c_long> {
    // SAFETY: `attr` is a live, 8-aligned buffer of the size passed, which the kernel reads
    // (and for some commands writes) only within that size; pointers in it are live.
    let r = unsafe { libc::syscall(libc::SYS_bpf, cmd, attr.0.as_mut_ptr(), attr.0.len()) };
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

fn fd_of(r: libc::c_long) -> OwnedFd {
    // SAFETY: `r` is a new file descriptor the kernel just returned, owned by no one else.
    unsafe { OwnedFd::from_raw_fd(r as i32) }
}

/// Makes a map.
pub fn map_create(kind: u32, key: u32, value: u32, entries: u32) -> io::Result<OwnedFd> {
    let mut a = Attr::new();
    a.u32(0, kind).u32(4, key).u32(8, value).u32(12, entries);
    bpf(BPF_MAP_CREATE, &mut a).map(fd_of)
}

/// Reads the `u64` value at `key` of an array map.
pub fn array_u64(map: &OwnedFd, key: u32) -> io::Result<u64> {
    let mut value = 0u64;
    let mut a = Attr::new();
    a.u32(0, map.as_raw_fd() as u32)
        .u64(8, &key as *const u32 as u64)
        .u64(16, &mut value as *mut u64 as u64);
    bpf(BPF_MAP_LOOKUP_ELEM, &mut a)?;
    Ok(value)
}

/// How many times the program `prog` was not run because another BPF program was
/// running on its CPU (`recursion_misses`: each a record not written); 0 where the
/// kernel does not say.
pub fn prog_misses(prog: &OwnedFd) -> u64 {
    let mut info = [0u64; 32];
    let mut a = Attr::new();
    a.u32(0, prog.as_raw_fd() as u32)
        .u32(4, std::mem::size_of_val(&info) as u32)
        .u64(8, info.as_mut_ptr() as u64);
    match bpf(BPF_OBJ_GET_INFO_BY_FD, &mut a) {
        Ok(_) => info[INFO_MISSES / 8],
        Err(_) => 0,
    }
}

/// Loads a tracepoint program; on refusal the error carries the verifier's log.
pub fn prog_load(insns: &[Insn], license: &std::ffi::CStr) -> io::Result<OwnedFd> {
    let mut log = vec![0u8; 1 << 16];
    let mut a = Attr::new();
    a.u32(0, PROG_TRACEPOINT)
        .u32(4, insns.len() as u32)
        .u64(8, insns.as_ptr() as u64)
        .u64(16, license.as_ptr() as u64);
    match bpf(BPF_PROG_LOAD, &mut a) {
        Ok(fd) => Ok(fd_of(fd)),
        Err(e) => {
            // Again with the log, to say why.
            a.u32(24, 1).u32(28, log.len() as u32).u64(32, log.as_mut_ptr() as u64);
            let _ = bpf(BPF_PROG_LOAD, &mut a);
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            let text = String::from_utf8_lossy(&log[..end]);
            let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
            Err(io::Error::new(e.kind(), format!("{e} (verifier: {last})")))
        }
    }
}

/// Runs `prog` on every firing of the tracepoint `id` (on every CPU), until the returned
/// descriptor is closed.
pub fn attach(id: u16, prog: &OwnedFd) -> io::Result<OwnedFd> {
    // `struct perf_event_attr` (PERF_ATTR_SIZE_VER5 = 112 bytes): type, size, config,
    // sample_period = 1.
    let mut a = Attr::new();
    a.u32(0, PERF_TYPE_TRACEPOINT).u32(4, 112).u64(8, u64::from(id)).u64(16, 1);
    // SAFETY: `a` is a live buffer holding a perf_event_attr of the size it declares.
    let r = unsafe {
        libc::syscall(libc::SYS_perf_event_open, a.0.as_ptr(), -1, 0, -1, PERF_FLAG_FD_CLOEXEC)
    };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    let event = fd_of(r);
    for (req, arg) in [(PERF_EVENT_IOC_SET_BPF, prog.as_raw_fd()), (PERF_EVENT_IOC_ENABLE, 0)] {
        // SAFETY: both requests take an integer argument, not a pointer.
        if unsafe { libc::ioctl(event.as_raw_fd(), req as _, arg) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(event)
}

/// A ring buffer map's pages, mapped: the consumer's position (written here), the
/// producer's position and the data (mapped twice in a row, so that a record that wraps
/// reads as one piece).
pub struct RingBuf {
    consumer: *mut u8,
    producer: *mut u8,
    page: usize,
    size: usize,
    _map: OwnedFd,
}

// SAFETY: the pages are the process's own mapping, used by one thread at a time (`&mut`).
unsafe impl Send for RingBuf {}

/// A record's header: its length, and two flags in the top bits.
const BUSY: u32 = 1 << 31;
const DISCARD: u32 = 1 << 30;
const HEADER: usize = 8;

impl RingBuf {
    /// Maps the ring buffer map `map` of `size` bytes (a power of two of pages).
    pub fn map(map: OwnedFd, size: usize) -> io::Result<RingBuf> {
        let page = crate::sys::page_size();
        let fd = map.as_raw_fd();
        let rw = libc::PROT_READ | libc::PROT_WRITE;
        // SAFETY: a fresh shared mapping of the map's consumer page; checked below.
        let consumer =
            unsafe { libc::mmap(std::ptr::null_mut(), page, rw, libc::MAP_SHARED, fd, 0) };
        if consumer == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let len = page + 2 * size;
        let off = page as libc::off_t;
        // SAFETY: a fresh read-only shared mapping of the producer page and the data.
        let producer = unsafe {
            libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_SHARED, fd, off)
        };
        if producer == libc::MAP_FAILED {
            let e = io::Error::last_os_error();
            // SAFETY: the consumer page mapped above, not used after.
            unsafe { libc::munmap(consumer, page) };
            return Err(e);
        }
        Ok(RingBuf { consumer: consumer.cast(), producer: producer.cast(), page, size, _map: map })
    }

    /// Hands every record written so far to `each`, oldest first; returns how many.
    pub fn drain(&mut self, mut each: impl FnMut(&[u8])) -> u64 {
        // SAFETY: both positions are the first 8 bytes of their pages, 8-aligned, and
        // written by the kernel (producer) or here (consumer) atomically.
        let (cons, prod) = unsafe {
            (&*(self.consumer as *const AtomicU64), &*(self.producer as *const AtomicU64))
        };
        let mut at = cons.load(Ordering::Acquire);
        let end = prod.load(Ordering::Acquire);
        let mut n = 0;
        // SAFETY: the data begins a page after the producer's page and is `2 * size` long.
        let data = unsafe { self.producer.add(self.page) };
        while at < end {
            let off = (at as usize) & (self.size - 1);
            // SAFETY: `off + HEADER` is within the first copy of the data; 8-aligned.
            let len = unsafe { &*(data.add(off) as *const AtomicU32) }.load(Ordering::Acquire);
            if len & BUSY != 0 {
                break;
            }
            let body = (len & !(BUSY | DISCARD)) as usize;
            if len & DISCARD == 0 && body <= self.size {
                // SAFETY: the record lies within the doubled mapping (it is at most
                // `size` long and starts in the first copy), and the kernel is done
                // writing it (not busy).
                each(unsafe { std::slice::from_raw_parts(data.add(off + HEADER), body) });
                n += 1;
            }
            at += ((body + HEADER + 7) & !7) as u64;
            cons.store(at, Ordering::Release);
        }
        n
    }
}

impl Drop for RingBuf {
    fn drop(&mut self) {
        // SAFETY: the two mappings made in `map`, with their lengths; nothing uses them after.
        unsafe {
            libc::munmap(self.consumer.cast(), self.page);
            libc::munmap(self.producer.cast(), self.page + 2 * self.size);
        }
    }
}
