//! The completion ring of a Linux AIO context, read in user space.
//!
//! The kernel maps each context's ring into the process; the context id that `io_setup`
//! returns is its address. The ring starts with a header (`id`, `nr`, `head`, `tail`,
//! `magic`, `compat_features`, `incompat_features`, `header_length`, all `u32`) followed by
//! `nr` `io_event`s. The kernel stores an event, then advances `tail` (release); whoever
//! consumes events reads them, then advances `head`. Reading `tail` with acquire and storing
//! `head` with release pairs with the kernel's barriers, so completions can be taken without
//! a system call (fio's `userspace_reap`), and `tail - head` tells how many have arrived.

use super::abi::{AioContext, IoEvent};
use std::sync::atomic::{AtomicU32, Ordering};

/// The ring's `magic`.
const AIO_RING_MAGIC: u32 = 0xa10a_10a1;

/// The ring's header, `struct aio_ring` of the kernel without its events.
#[repr(C)]
#[allow(dead_code)] // `id` and `compat_features` are there for the layout only.
struct Header {
    id: u32,
    nr: u32,
    head: AtomicU32,
    tail: AtomicU32,
    magic: u32,
    compat_features: u32,
    incompat_features: u32,
    header_length: u32,
}

/// A view of a context's completion ring.
#[derive(Debug)]
pub struct Ring {
    header: *const Header,
    events: *const IoEvent,
    nr: u32,
}

impl Ring {
    /// The ring of `ctx`, or `None` when its header is not the one described above (a
    /// kernel that lays the ring out differently: reap with `io_getevents` then).
    ///
    /// # Safety
    /// `ctx` must be a live context returned by `io_setup` in this process, and the ring
    /// must not be used after the context is destroyed.
    pub unsafe fn new(ctx: AioContext) -> Option<Ring> {
        let header = ctx as *const Header;
        if header.is_null() {
            return None;
        }
        // SAFETY: the caller guarantees `ctx` is the address of the mapped ring, which
        // starts with this header.
        let h = unsafe { &*header };
        let size = std::mem::size_of::<Header>() as u32;
        if h.magic != AIO_RING_MAGIC || h.incompat_features != 0 || h.header_length != size {
            return None;
        }
        if h.nr == 0 {
            return None;
        }
        // SAFETY: the events follow the header in the same mapping.
        let events = unsafe { header.add(1) }.cast::<IoEvent>();
        Some(Ring { header, events, nr: h.nr })
    }

    fn header(&self) -> &Header {
        // SAFETY: `header` points to the live ring (see `new`).
        unsafe { &*self.header }
    }

    /// How many completions are in the ring, not yet consumed.
    pub fn ready(&self) -> usize {
        let h = self.header();
        let tail = h.tail.load(Ordering::Acquire);
        let head = h.head.load(Ordering::Acquire);
        (tail.wrapping_add(self.nr).wrapping_sub(head) % self.nr) as usize
    }

    /// Moves up to `out.len()` completions out of the ring; returns how many.
    pub fn take(&self, out: &mut [IoEvent]) -> usize {
        let h = self.header();
        let mut head = h.head.load(Ordering::Acquire);
        let tail = h.tail.load(Ordering::Acquire);
        let mut n = 0;
        while n < out.len() && head != tail {
            let slot = (head % self.nr) as usize;
            // SAFETY: `slot < nr`, and the ring holds `nr` events after its header; the
            // acquire load of `tail` makes the kernel's store of this event visible.
            out[n] = unsafe { self.events.add(slot).read_volatile() };
            head = (head + 1) % self.nr;
            n += 1;
        }
        if n > 0 {
            h.head.store(head, Ordering::Release);
        }
        n
    }
}
