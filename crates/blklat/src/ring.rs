//! The kernel side: the block tracepoints recorded into a trace instance of the job's own
//! (`instances/iomark-PID-N` in tracefs, removed after), filtered to the job's disks,
//! stamped with the TSC (`trace_clock` `x86-tsc`, where the kernel's clock source is the
//! TSC) or on `CLOCK_MONOTONIC` (`mono`), and read a page at a time from each
//! CPU's `trace_pipe_raw` without blocking ([`Rings`]); `page` decodes the pages.
//!
//! Why tracefs and not `perf_event_open`: perf's tracepoint handler drops some records
//! without counting them. On this project's machine (a virtual machine whose disk
//! completions often run in a soft interrupt on top of a thread of another program)
//! `perf stat -a -e block:block_rq_complete` counted 2008 completions of a run where a
//! trace instance recorded 2620, and the I/Os whose completion perf missed went unmatched.
//! The trace instance records every one, and says how many it dropped when full.

use crate::page::{self, Header};
use crate::tracefs::EVENTS;
use crate::BlkError;
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

pub use crate::page::Raw;

/// Every CPU's ring of the job's trace instance.
#[derive(Debug)]
pub struct Rings {
    dir: PathBuf,
    cpus: Vec<(i32, File)>,
    page: Vec<u8>,
    header: Header,
    /// Records the pages said were dropped (a full ring).
    missed: u64,
    /// The records are stamped with the TSC (`x86-tsc`), not `CLOCK_MONOTONIC` (`mono`).
    tsc: bool,
}

/// Instances made by this process so far (for their names).
static NEXT: AtomicU32 = AtomicU32::new(0);

/// The ring of each CPU, at most this many KiB (and at most `TOTAL_KB` over all CPUs).
const CPU_KB: usize = 4096;
const TOTAL_KB: usize = 256 << 10;

fn put(path: &Path, value: &str) -> Result<(), BlkError> {
    fs::write(path, value).map_err(|e| {
        BlkError::Open(std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    })
}

impl Rings {
    /// Makes a trace instance under the tracefs at `root`, follows the block events on
    /// the disks `devs` (kernel `dev_t`s) and opens every online CPU's ring.
    pub fn open(root: &Path, devs: &[u32]) -> Result<Rings, BlkError> {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = root.join("instances").join(format!("iomark-{}-{n}", std::process::id()));
        fs::create_dir(&dir).map_err(|e| {
            BlkError::Open(std::io::Error::new(e.kind(), format!("{}: {e}", dir.display())))
        })?;
        let text = fs::read_to_string(root.join("events/header_page")).unwrap_or_default();
        let page_len = crate::sys::page_size();
        // From here on, dropping `rings` removes the instance.
        let mut rings = Rings {
            dir,
            cpus: Vec::new(),
            page: vec![0; page_len],
            header: page::header(&text),
            missed: 0,
            tsc: false,
        };
        let cpus = crate::sys::online_cpus();
        let kb = CPU_KB.min(TOTAL_KB / cpus.len().max(1)).max(64);
        // The TSC where the kernel keeps time by it (stable, and the same on every CPU):
        // `mono` reads the clock source through a call and an indirect call for every
        // record, `x86-tsc` is the ordered `rdtsc` alone (half a point of the job thread's
        // time less on this project's machine); the reader maps it onto `CLOCK_MONOTONIC`
        // (`sys::tsc_pair`).
        let clock = rings.dir.join("trace_clock");
        rings.tsc = crate::sys::tsc_is_clock() && fs::write(&clock, "x86-tsc").is_ok();
        if !rings.tsc {
            put(&clock, "mono")?;
        }
        put(&rings.dir.join("buffer_size_kb"), &kb.to_string())?;
        // A full ring drops new records (and counts them) rather than overwriting old ones.
        let _ = fs::write(rings.dir.join("options/overwrite"), "0");
        let filter = devs.iter().map(|d| format!("dev == {d}")).collect::<Vec<_>>().join(" || ");
        for name in EVENTS {
            let event = rings.dir.join("events/block").join(name);
            put(&event.join("filter"), &filter)?;
            put(&event.join("enable"), "1")?;
        }
        for cpu in cpus {
            let path = rings.dir.join(format!("per_cpu/cpu{cpu}/trace_pipe_raw"));
            let file = OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&path)
                .map_err(BlkError::Open)?;
            rings.cpus.push((cpu, file));
        }
        Ok(rings)
    }

    /// Whether the records' times are TSC ticks (`x86-tsc`); else `CLOCK_MONOTONIC` ns.
    pub fn tsc(&self) -> bool {
        self.tsc
    }

    /// The rings (one per online CPU).
    pub fn len(&self) -> usize {
        self.cpus.len()
    }

    /// Reads every record written so far, oldest first per CPU, handing each to `each`
    /// with the ring's number (below [`Rings::len`]); returns how many were read.
    pub fn drain(&mut self, mut each: impl FnMut(usize, Raw<'_>)) -> u64 {
        let mut n = 0;
        for (i, (_, file)) in self.cpus.iter_mut().enumerate() {
            let mut each = |raw: Raw<'_>| each(i, raw);
            loop {
                match file.read(&mut self.page) {
                    Ok(0) => break,
                    Ok(len) => {
                        let got = page::decode(&self.header, &self.page[..len], &mut each);
                        n += got.records;
                        self.missed += got.missed;
                    }
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
        }
        n
    }

    /// Records the kernel dropped: what the instance's statistics count (a full ring's
    /// dropped events and overruns), or what the pages said if that is more.
    pub fn lost(&self) -> u64 {
        let mut stats = 0;
        for (cpu, _) in &self.cpus {
            let path = self.dir.join(format!("per_cpu/cpu{cpu}/stats"));
            let text = fs::read_to_string(path).unwrap_or_default();
            stats += page::dropped(&text);
        }
        stats.max(self.missed)
    }
}

impl Drop for Rings {
    fn drop(&mut self) {
        // The instance cannot go while its files are open.
        self.cpus.clear();
        let _ = fs::remove_dir(&self.dir);
    }
}
