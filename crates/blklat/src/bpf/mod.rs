//! The BPF path ([`Source`]): programs on the block tracepoints (written in Rust with a
//! small assembler of the eBPF instruction set, `asm.rs`; no BPF compiler at build or run
//! time) keep each request's Q, I and D in BPF maps in the kernel and write one
//! record per completed request into a BPF ring buffer, instead of the trace instance's
//! record per event (`ring.rs`). The reader turns each record back into the events the
//! matcher takes, so both paths are matched alike.
//!
//! Needs root (or CAP_BPF with CAP_PERFMON) and a kernel with BPF ring buffers (5.8);
//! where it cannot be had, the session falls back to the trace instance.

mod asm;
mod kernel;
mod prog;

use crate::matcher::{op_of, Event};
use crate::tracefs::{self, Kind, Layout};
use crate::BlkError;
use prog::{Maps, Record, KIND_BIO, RECORD_LEN};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;

/// The ring buffer's bytes: room for some 58,000 requests between two reads.
const RING_BYTES: usize = 4 << 20;
/// The programs' licence (they call no helper reserved to GPL programs).
const LICENSE: &std::ffi::CStr = c"MIT OR Apache-2.0";

/// The programs attached to the block tracepoints for one job, and their ring buffer.
pub struct Source {
    ring: kernel::RingBuf,
    lost: OwnedFd,
    /// The attachments (closing them detaches the programs), then the programs and maps.
    _links: Vec<OwnedFd>,
    progs: Vec<OwnedFd>,
    _maps: Vec<OwnedFd>,
}

fn refused(what: &str) -> impl Fn(std::io::Error) -> BlkError + '_ {
    move |e| BlkError::Bpf(format!("{what}: {e}"))
}

impl Source {
    /// Loads the programs for the disks `devs` (kernel `dev_t`s) and attaches them to
    /// the block tracepoints described under the tracefs at `root`.
    pub fn open(root: &Path, devs: &[u32]) -> Result<Source, BlkError> {
        let at = |name| tracefs::layout(root, name);
        let (q, i, d, c) = (
            at("block_bio_queue")?,
            at("block_rq_insert")?,
            at("block_rq_issue")?,
            at("block_rq_complete")?,
        );
        let (back, front, merge) =
            (at("block_bio_backmerge")?, at("block_bio_frontmerge")?, at("block_rq_merge")?);
        let map = |kind, key, value, n| kernel::map_create(kind, key, value, n);
        let bios =
            map(kernel::MAP_ARRAY, 4, prog::BIO_LEN, prog::SLOTS).map_err(refused("a map"))?;
        let reqs =
            map(kernel::MAP_ARRAY, 4, prog::REQ_LEN, prog::SLOTS).map_err(refused("a map"))?;
        let lost = map(kernel::MAP_ARRAY, 4, 8, 1).map_err(refused("a map"))?;
        let ring =
            map(kernel::MAP_RINGBUF, 0, 0, RING_BYTES as u32).map_err(refused("a ring buffer"))?;
        let m = Maps {
            bios: bios.as_raw_fd(),
            reqs: reqs.as_raw_fd(),
            ring: ring.as_raw_fd(),
            lost: lost.as_raw_fd(),
        };
        let programs: [(&Layout, Option<Vec<asm::Insn>>); 7] = [
            (&q, prog::queue(&q, devs, &m)),
            (&i, prog::request(&i, devs, &m, prog::AT_I)),
            (&d, prog::request(&d, devs, &m, prog::AT_D)),
            (&c, prog::complete(&c, devs, &m)),
            (&back, prog::bio_merge(&back, devs, &m)),
            (&front, prog::bio_merge(&front, devs, &m)),
            (&merge, prog::rq_merge(&merge, devs, &m)),
        ];
        let (mut progs, mut links) = (Vec::new(), Vec::new());
        for (layout, insns) in programs {
            let insns = insns.ok_or_else(|| BlkError::Bpf("a program did not assemble".into()))?;
            let fd = kernel::prog_load(&insns, LICENSE).map_err(refused("loading a program"))?;
            links.push(kernel::attach(layout.id, &fd).map_err(refused("attaching a program"))?);
            progs.push(fd);
        }
        let ring = kernel::RingBuf::map(ring, RING_BYTES).map_err(refused("the ring buffer"))?;
        Ok(Source { ring, lost, _links: links, progs, _maps: vec![bios, reqs] })
    }

    /// Reads every record written so far, appending its events to `out` (a request's in
    /// the order Q, I, D, C); returns how many records were read.
    pub fn drain(&mut self, out: &mut std::collections::VecDeque<Event>) -> u64 {
        self.ring.drain(|bytes| {
            if bytes.len() < RECORD_LEN {
                return;
            }
            if let Some(r) = Record::decode(bytes) {
                events(&r, |e| out.push_back(e));
            }
        })
    }

    /// Records lost: those the ring buffer had no room for, and the programs' runs the
    /// kernel skipped (another BPF program running on the CPU, `recursion_misses`).
    pub fn lost(&self) -> u64 {
        let misses: u64 = self.progs.iter().map(kernel::prog_misses).sum();
        kernel::array_u64(&self.lost, 0).unwrap_or(0) + misses
    }
}

/// The events of one record.
fn events(r: &Record, mut each: impl FnMut(Event)) {
    let op = op_of(&r.rwbs);
    let e = |kind, nr, time| Event { kind, dev: r.dev, sector: r.sector, nr, time, op };
    if r.q != 0 {
        each(e(Kind::Queue, r.qnr, r.q));
    }
    if r.kind == KIND_BIO {
        return;
    }
    for (kind, t) in [(Kind::Insert, r.i), (Kind::Issue, r.d)] {
        if t != 0 {
            each(e(kind, r.nr, t));
        }
    }
    each(e(Kind::Complete, r.nr, r.c));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel's verifier takes every program, and a drain of nothing reads nothing
    /// (root and a kernel with BPF ring buffers; skipped otherwise).
    #[test]
    fn the_programs_load_and_attach_where_bpf_is_allowed() {
        let root = Path::new("/sys/kernel/tracing");
        if !root.join("events/block").is_dir() {
            eprintln!("skipped: tracefs is not mounted on /sys/kernel/tracing");
            return;
        }
        // A disk no one has (major 4095): the programs run and record nothing.
        let mut source = match Source::open(root, &[crate::sys::kernel_dev(4095, 1)]) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("skipped: {e}");
                return;
            }
        };
        let mut out = std::collections::VecDeque::new();
        assert_eq!(source.drain(&mut out), 0);
        assert!(out.is_empty());
        assert_eq!(source.lost(), 0);
    }

    #[test]
    fn a_request_record_gives_its_events_in_order() {
        let mut rwbs = [0; 8];
        rwbs[0] = b'W';
        let r =
            Record { dev: 7, nr: 16, sector: 80, rwbs, q: 10, qnr: 8, i: 0, d: 30, c: 40, kind: 0 };
        let mut got = Vec::new();
        events(&r, |e| got.push((e.kind, e.nr, e.time, e.op)));
        let w = Some(iomark_core::Ddir::Write);
        let want =
            vec![(Kind::Queue, 8, 10, w), (Kind::Issue, 16, 30, w), (Kind::Complete, 16, 40, w)];
        assert_eq!(got, want);
        let bio = Record { kind: KIND_BIO, i: 0, d: 0, c: 0, ..r };
        got.clear();
        events(&bio, |e| got.push((e.kind, e.nr, e.time, e.op)));
        assert_eq!(got, vec![(Kind::Queue, 8, 10, w)]);
    }
}
