//! The kernel side: the block tracepoints opened through `perf_event_open`, one event per
//! tracepoint and CPU, all of a CPU's events writing into one ring ([`Rings`]) that is read
//! without a system call. Times are `CLOCK_MONOTONIC` (`use_clockid`), the clock the job's
//! stamps are mapped onto.
//!
//! This file and `sys.rs` hold the crate's `unsafe`: the system call, three ioctls and the
//! ring's shared memory.
#![allow(unsafe_code)]

use crate::tracefs::{Kind, Layout};
use crate::BlkError;
use perf_event_open_sys as sys;
use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::{fence, Ordering};

/// One raw record: which event, when, and its tracepoint data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raw<'a> {
    /// `CLOCK_MONOTONIC` nanoseconds.
    pub time: u64,
    /// The tracepoint's fields (starting with `common_type`).
    pub data: &'a [u8],
}

/// One CPU's ring.
struct Ring {
    /// The first event's descriptor (the others of the CPU write into its ring).
    _fds: Vec<OwnedFd>,
    base: *mut u8,
    len: usize,
    data_off: usize,
    data_size: usize,
}

// SAFETY: the mapping belongs to the ring alone and is only read through `&mut self`.
unsafe impl Send for Ring {}

/// Every CPU's ring for the followed events.
pub struct Rings {
    rings: Vec<Ring>,
    scratch: Vec<u8>,
    /// Records the kernel dropped (perf's `PERF_RECORD_LOST`).
    pub lost: u64,
}

/// Data pages per ring (a power of two): 2 MiB, room for 20 ms of a million records a
/// second on one CPU; halved while the kernel refuses the size.
const RING_PAGES: usize = 512;

fn open_one(layout: &Layout, cpu: i32) -> Result<OwnedFd, std::io::Error> {
    let mut attr = sys::bindings::perf_event_attr {
        type_: sys::bindings::PERF_TYPE_TRACEPOINT,
        size: std::mem::size_of::<sys::bindings::perf_event_attr>() as u32,
        config: u64::from(layout.id),
        sample_type: u64::from(sys::bindings::PERF_SAMPLE_TIME | sys::bindings::PERF_SAMPLE_RAW),
        clockid: libc::CLOCK_MONOTONIC,
        ..Default::default()
    };
    attr.__bindgen_anon_1.sample_period = 1;
    attr.set_disabled(1);
    attr.set_use_clockid(1);
    attr.set_watermark(0);
    attr.__bindgen_anon_2.wakeup_events = 0;
    // SAFETY: `attr` is a fully initialised perf_event_attr that lives across the call.
    let fd = unsafe {
        sys::perf_event_open(&mut attr, -1, cpu, -1, sys::bindings::PERF_FLAG_FD_CLOEXEC as _)
    };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: the call returned a fresh descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn ioctl_ok(r: i32) -> Result<(), std::io::Error> {
    if r < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(())
    }
}

impl Rings {
    /// Opens the events of `layouts` on every CPU, filtered to the devices `devs` (kernel
    /// `dev_t`s) where the kernel takes the filter, and starts them.
    pub fn open(layouts: &[Layout; 4], devs: &[u32]) -> Result<Rings, BlkError> {
        let cpus = crate::sys::online_cpus();
        let page = crate::sys::page_size();
        let filter = devs.iter().map(|d| format!("dev == {d}")).collect::<Vec<_>>().join(" || ");
        let filter = CString::new(filter).unwrap_or_default();
        let mut rings = Vec::new();
        for cpu in cpus {
            let mut fds = Vec::new();
            for layout in layouts {
                let fd = open_one(layout, cpu).map_err(BlkError::Open)?;
                // A kernel that refuses the filter sends every device's records; the matcher
                // looks at the device anyway.
                // SAFETY: the filter is a NUL-terminated string alive across the call.
                let _ =
                    unsafe { sys::ioctls::SET_FILTER(fd.as_raw_fd(), filter.as_ptr() as *mut _) };
                fds.push(fd);
            }
            let (base, len, pages) = map_ring(&fds[0], page)?;
            for fd in &fds[1..] {
                // SAFETY: both descriptors are perf events on the same CPU and clock.
                ioctl_ok(unsafe { sys::ioctls::SET_OUTPUT(fd.as_raw_fd(), fds[0].as_raw_fd()) })
                    .map_err(BlkError::Open)?;
            }
            rings.push(Ring { _fds: fds, base, len, data_off: page, data_size: pages * page });
        }
        for ring in &rings {
            for fd in &ring._fds {
                // SAFETY: a perf event descriptor; ENABLE takes no pointer.
                ioctl_ok(unsafe { sys::ioctls::ENABLE(fd.as_raw_fd(), 0) })
                    .map_err(BlkError::Open)?;
            }
        }
        Ok(Rings { rings, scratch: Vec::new(), lost: 0 })
    }

    /// Reads every record written so far, oldest first per CPU, handing each sample to
    /// `each`; returns how many samples were read.
    pub fn drain(&mut self, mut each: impl FnMut(Raw<'_>)) -> u64 {
        let mut n = 0;
        for ring in &mut self.rings {
            n += ring.drain(&mut self.scratch, &mut self.lost, &mut each);
        }
        n
    }
}

fn map_ring(fd: &OwnedFd, page: usize) -> Result<(*mut u8, usize, usize), BlkError> {
    let mut pages = RING_PAGES;
    loop {
        let len = (pages + 1) * page;
        // SAFETY: a fresh shared mapping of the event's ring; checked against MAP_FAILED.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd.as_raw_fd(),
                0,
            )
        };
        if p != libc::MAP_FAILED {
            return Ok((p.cast(), len, pages));
        }
        let e = std::io::Error::last_os_error();
        if pages <= 8 {
            return Err(BlkError::Open(e));
        }
        pages /= 2;
    }
}

impl Ring {
    fn header(&self) -> *mut sys::bindings::perf_event_mmap_page {
        self.base.cast()
    }

    fn drain(
        &mut self,
        scratch: &mut Vec<u8>,
        lost: &mut u64,
        each: &mut impl FnMut(Raw<'_>),
    ) -> u64 {
        let h = self.header();
        // SAFETY: `h` is the mapping's first page, the kernel's perf_event_mmap_page; the
        // head is read volatile and fenced before the data it covers is read.
        let head = unsafe { std::ptr::addr_of!((*h).data_head).read_volatile() };
        fence(Ordering::Acquire);
        // SAFETY: as above; only this reader writes the tail.
        let mut tail = unsafe { std::ptr::addr_of!((*h).data_tail).read_volatile() };
        let mut n = 0;
        while tail < head {
            let rec = self.copy(tail, 8, scratch);
            let kind = u32::from_ne_bytes([rec[0], rec[1], rec[2], rec[3]]);
            let size = u16::from_ne_bytes([rec[6], rec[7]]) as u64;
            if size < 8 {
                break;
            }
            let rec = self.copy(tail, size as usize, scratch);
            match kind {
                sys::bindings::PERF_RECORD_SAMPLE if rec.len() >= 20 => {
                    let time = u64::from_ne_bytes(rec[8..16].try_into().unwrap_or([0; 8]));
                    let raw = u32::from_ne_bytes(rec[16..20].try_into().unwrap_or([0; 4])) as usize;
                    let data = &rec[20..(20 + raw).min(rec.len())];
                    each(Raw { time, data });
                    n += 1;
                }
                sys::bindings::PERF_RECORD_LOST if rec.len() >= 24 => {
                    *lost += u64::from_ne_bytes(rec[16..24].try_into().unwrap_or([0; 8]));
                }
                _ => {}
            }
            tail += size;
        }
        fence(Ordering::Release);
        // SAFETY: the tail tells the kernel what it may overwrite; everything before it
        // has been read (and copied where it wrapped).
        unsafe { std::ptr::addr_of_mut!((*h).data_tail).write_volatile(tail) };
        n
    }

    /// `len` bytes of the ring from position `pos`, copied into `scratch` (the ring wraps).
    fn copy<'s>(&self, pos: u64, len: usize, scratch: &'s mut Vec<u8>) -> &'s [u8] {
        scratch.clear();
        let start = (pos as usize) % self.data_size;
        let first = len.min(self.data_size - start);
        // SAFETY: both slices lie inside the mapped data area (offset `data_off`, size
        // `data_size`), which the kernel does not overwrite before the tail passes them.
        unsafe {
            let data = self.base.add(self.data_off);
            scratch.extend_from_slice(std::slice::from_raw_parts(data.add(start), first));
            scratch.extend_from_slice(std::slice::from_raw_parts(data, len - first));
        }
        scratch
    }
}

impl Drop for Ring {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `map_ring`, unmapped once; nothing refers to it now.
        unsafe { libc::munmap(self.base.cast(), self.len) };
    }
}

/// The kind of a raw record, by its `common_type`.
pub fn kind_of(layouts: &[Layout; 4], data: &[u8]) -> Option<Kind> {
    let id = u16::from_ne_bytes([*data.first()?, *data.get(1)?]);
    layouts.iter().position(|l| l.id == id).map(|i| Kind::ALL[i])
}
