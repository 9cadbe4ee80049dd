//! One job's tracing ([`Session`]): its files placed on their disks, its rings, and the
//! thread that reads them and matches the I/Os the job hands over.

use crate::matcher::{Event, MappedIo, Matcher, Range};
use crate::ring::Rings;
use crate::seglog::SegLogs;
use crate::sys::{self, Extent};
use crate::tracefs::{kind_of, Layout};
use crate::BlkError;
use iomark_stats::block::{BlockRecorder, IoTrace, IoTraceSink, TracedJob};
use std::collections::VecDeque;
use std::fs::File;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

/// Where one file of the job lies.
#[derive(Debug, Clone)]
struct Place {
    /// The disk (kernel `dev_t`).
    dev: u32,
    /// The first sector of the partition (or file system) on the disk.
    base: u64,
    /// A regular file's extents (`None`: a block device, offsets are the device's).
    extents: Option<Vec<Extent>>,
    /// Opened `O_DIRECT`.
    direct: bool,
}

impl Place {
    fn of(file: &File) -> Result<Place, BlkError> {
        let meta = file.metadata().map_err(|e| BlkError::Place(e.to_string()))?;
        let direct = sys::is_direct(file);
        if meta.file_type().is_block_device() {
            let (maj, min, base) = split_dev(meta.rdev());
            return Ok(Place { dev: sys::kernel_dev(maj, min), base, extents: None, direct });
        }
        let (maj, min, base) = split_dev(meta.dev());
        let extents = sys::extents(file).unwrap_or_default();
        Ok(Place { dev: sys::kernel_dev(maj, min), base, extents: Some(extents), direct })
    }

    /// The device ranges of `len` bytes at `offset`, appended to `out`.
    fn map(&self, offset: u64, len: u64, out: &mut Vec<Range>) {
        let range = |byte: u64, n: u64| Range {
            dev: self.dev,
            sector: self.base + byte / 512,
            nr: n.div_ceil(512),
        };
        let Some(extents) = &self.extents else {
            out.push(range(offset, len));
            return;
        };
        let end = offset + len;
        for e in extents.iter().filter(|e| e.logical < end && e.logical + e.len > offset) {
            let from = offset.max(e.logical);
            let to = end.min(e.logical + e.len);
            out.push(range(e.physical + (from - e.logical), to - from));
        }
    }
}

/// A user-space device number's disk, and the first sector of the partition on it.
fn split_dev(dev: u64) -> (u32, u32, u64) {
    let (maj, min) = (libc::major(dev), libc::minor(dev));
    sys::whole_disk(maj, min)
}

/// Where the records come from: a trace instance writing one per event (the default), or
/// BPF programs writing one per request (`IOMARK_BLOCK_TRACER=bpf`, where the kernel takes
/// them: not cheaper for the job thread and losing more records, see
/// docs/block-latency.md).
enum Source {
    Trace(Rings),
    Bpf(crate::bpf::Source),
}

/// The variable that picks the path: `bpf` (the trace instance where BPF is refused);
/// unset or anything else: the trace instance.
pub const TRACER_VAR: &str = "IOMARK_BLOCK_TRACER";

impl Source {
    /// The source for the disks `devs`, and the note that says which it is.
    fn open(root: &std::path::Path, devs: &[u32]) -> Result<(Source, String), BlkError> {
        let want = std::env::var(TRACER_VAR).unwrap_or_default();
        let note = if want == "bpf" {
            match crate::bpf::Source::open(root, devs) {
                Ok(bpf) => {
                    let note = "block latency: traced by BPF programs on the block tracepoints \
                                (one record per request)";
                    return Ok((Source::Bpf(bpf), note.into()));
                }
                Err(e) => format!(
                    "block latency: traced through a trace instance (one record per event; \
                     not BPF: {e})"
                ),
            }
        } else {
            "block latency: traced through a trace instance (one record per event)".into()
        };
        Ok((Source::Trace(Rings::open(root, devs)?), note))
    }
}

/// What the job thread sends.
enum Msg {
    /// I/Os, and a pair of readings (job clock, `CLOCK_MONOTONIC`) taken after them.
    Batch(Vec<IoTrace>, (u64, u64)),
    /// A copy of the recorder so far, once the batches before are matched.
    Snapshot(Sender<BlockRecorder>),
    /// The job ended; the recorder goes back on the channel.
    Finish((u64, u64), Sender<BlockRecorder>),
}

/// One job's tracing: the job thread's end of it.
pub struct Session {
    tx: Sender<Msg>,
    back: Receiver<Vec<IoTrace>>,
    thread: Option<JoinHandle<()>>,
}

impl Session {
    /// Places `files`, opens the rings for their disks and starts the reading thread.
    pub fn start(
        root: &std::path::Path,
        layouts: &[Layout; 4],
        job: TracedJob<'_>,
        note: Option<String>,
    ) -> Result<Session, BlkError> {
        // Segment logs that cannot be made leave the split itself (a note says why).
        let (log, log_note) = match job.log.as_ref().map(SegLogs::create).transpose() {
            Ok(log) => (log, None),
            Err(e) => (None, Some(format!("block latency: the segment logs: {e}"))),
        };
        let places = job.files.iter().map(|f| Place::of(f)).collect::<Result<Vec<_>, _>>()?;
        let mut devs: Vec<u32> = places.iter().map(|p| p.dev).collect();
        devs.sort_unstable();
        devs.dedup();
        let (source, path_note) = Source::open(root, &devs)?;
        let rings = match &source {
            Source::Trace(rings) => rings.len(),
            Source::Bpf(_) => 1,
        };
        let pending: Vec<_> = (0..rings).map(|_| VecDeque::with_capacity(PENDING)).collect();
        let tsc = matches!(&source, Source::Trace(r) if r.tsc()).then(sys::tsc_pair);
        let (tx, rx) = mpsc::channel();
        let (back_tx, back) = mpsc::channel();
        let mut reader = Reader {
            layouts: *layouts,
            source,
            places,
            matcher: Matcher::default(),
            pairs: None,
            monotonic: job.monotonic,
            log,
            offset: None,
            max_clat: 0,
            ranges: Vec::new(),
            held: vec![0; pending.len()],
            pending,
            tsc,
        };
        reader.matcher.rec.notes.extend(note.into_iter().chain(log_note).chain([path_note]));
        let thread = std::thread::Builder::new()
            .name("iomark-blklat".into())
            .spawn(move || reader.run(rx, back_tx))
            .map_err(|e| BlkError::Place(e.to_string()))?;
        Ok(Session { tx, back, thread: Some(thread) })
    }
}

impl IoTraceSink for Session {
    fn take(&mut self, ios: &mut Vec<IoTrace>, now_ns: u64) {
        let pair = (now_ns, sys::monotonic_ns());
        let mut fresh = self.back.try_recv().unwrap_or_else(|_| Vec::with_capacity(ios.capacity()));
        fresh.clear();
        std::mem::swap(ios, &mut fresh);
        let _ = self.tx.send(Msg::Batch(fresh, pair));
    }

    fn snapshot(&mut self) -> Option<BlockRecorder> {
        let (reply, answer) = mpsc::channel();
        self.tx.send(Msg::Snapshot(reply)).ok()?;
        answer.recv().ok()
    }

    fn finish(mut self: Box<Self>, now_ns: u64) -> BlockRecorder {
        let pair = (now_ns, sys::monotonic_ns());
        let (reply, answer) = mpsc::channel();
        let _ = self.tx.send(Msg::Finish(pair, reply));
        let rec = answer.recv().unwrap_or_else(|_| {
            BlockRecorder::unavailable("block latency: the tracing thread failed".into())
        });
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        rec
    }
}

/// The reading thread's state.
struct Reader {
    layouts: [Layout; 4],
    source: Source,
    places: Vec<Place>,
    matcher: Matcher,
    /// The last pair of clock readings (job, monotonic).
    pairs: Option<(u64, u64)>,
    /// The job's clock is `CLOCK_MONOTONIC` (from its own origin).
    monotonic: bool,
    /// The per-I/O segment logs, if the job keeps them.
    log: Option<SegLogs>,
    /// The smallest difference monotonic − job over the pairs.
    offset: Option<i128>,
    /// The longest clat seen (ns), for how long records are kept.
    max_clat: u64,
    ranges: Vec<Range>,
    /// Records read but not yet handed to the matcher, per ring, each in its ring's (time)
    /// order (see [`Reader::drain`]).
    pending: Vec<VecDeque<Event>>,
    /// Where the records are stamped with the TSC: the last pair (TSC, `CLOCK_MONOTONIC`)
    /// read, which maps them (see [`Reader::drain`]).
    tsc: Option<(u64, u64)>,
    /// How many records each ring's queue held before a read (where the new ones begin).
    held: Vec<usize>,
}

/// How often the rings are read while no batch of I/Os comes: often enough that a ring
/// (4 MiB, some 50,000 records) does not fill at a million records a second on one CPU,
/// seldom enough that most reads take whole pages (a page still being written is copied
/// record by record).
const POLL: Duration = Duration::from_millis(25);
/// Room for records read and not yet matched, per ring, made at the start.
const PENDING: usize = 1 << 14;
/// How long after its time stamp a record is surely in its ring.
const MARGIN_NS: u64 = 100_000;
/// Below this difference in rate the two clocks are taken for one (both `CLOCK_MONOTONIC`,
/// the pairs' jitter aside); above it the job's clock is another (the TSC).
const SAME_CLOCK_PPM: f64 = 20.0;
/// How long records are kept past the last I/O handed over, at least.
const KEEP_NS: u64 = 1_000_000_000;

impl Reader {
    fn run(mut self, rx: Receiver<Msg>, back: Sender<Vec<IoTrace>>) {
        loop {
            match rx.recv_timeout(POLL) {
                Ok(Msg::Batch(mut ios, pair)) => {
                    self.drain(pair.1);
                    self.batch(&ios, pair);
                    ios.clear();
                    let _ = back.send(ios);
                }
                Ok(Msg::Snapshot(reply)) => {
                    let _ = reply.send(self.matcher.rec.clone());
                }
                Ok(Msg::Finish(pair, reply)) => {
                    self.drain(pair.1);
                    self.batch(&[], pair);
                    let _ = reply.send(self.finish());
                    return;
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.drain(sys::monotonic_ns().saturating_sub(MARGIN_NS))
                }
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    /// Reads the rings and hands the matcher, in time order, every record from before
    /// `until` (`CLOCK_MONOTONIC` ns, at least `MARGIN_NS` in the past, so that every
    /// CPU's ring holds all of its records from before then); later ones wait for the
    /// next call. The rings are per CPU: a request issued on one CPU may complete on
    /// another whose ring is read first.
    fn drain(&mut self, until: u64) {
        let now = sys::monotonic_ns();
        let ready = until.saturating_add(MARGIN_NS);
        if now < ready {
            std::thread::sleep(Duration::from_nanos(ready - now));
        }
        for (h, q) in self.held.iter_mut().zip(&self.pending) {
            *h = q.len();
        }
        let (layouts, pending) = (&self.layouts, &mut self.pending);
        let rings = match &mut self.source {
            Source::Trace(rings) => rings,
            Source::Bpf(bpf) => {
                // One ring for every CPU, a record per request, in the order the CPUs
                // wrote them (nearly that of their C): every event from before `until` is
                // handed to the matcher (which puts them in time order), the rest wait.
                self.matcher.rec.counts.records += bpf.drain(&mut pending[0]);
                let matcher = &mut self.matcher;
                pending[0].retain(|e| {
                    let now = e.time < until;
                    if now {
                        matcher.add(*e);
                    }
                    !now
                });
                return;
            }
        };
        let n = rings.drain(|cpu, raw| {
            let Some(kind) = kind_of(layouts, raw.data) else { return };
            let l = &layouts[kind as usize];
            let field = |off: usize, n: usize| raw.data.get(off..off + n);
            let rwbs = raw.data.get(l.rwbs..(l.rwbs + 8).min(raw.data.len()));
            let op = rwbs.and_then(crate::matcher::op_of);
            let (Some(dev), Some(sector), Some(nr)) =
                (field(l.dev, 4), field(l.sector, 8), field(l.nr_sector, 4))
            else {
                return;
            };
            pending[cpu].push_back(Event {
                kind,
                dev: u32::from_ne_bytes(dev.try_into().unwrap_or_default()),
                sector: u64::from_ne_bytes(sector.try_into().unwrap_or_default()),
                nr: u32::from_ne_bytes(nr.try_into().unwrap_or_default()),
                time: raw.time,
                op,
            });
        });
        self.matcher.rec.counts.records += n;
        // TSC stamps onto CLOCK_MONOTONIC by the line through the last pair and one read
        // now, after the records (each record read lies between the two, or just before).
        if let Some(last) = self.tsc {
            let now = sys::tsc_pair();
            for (q, &from) in self.pending.iter_mut().zip(&self.held) {
                for e in q.range_mut(from..) {
                    e.time = sys::tsc_to_mono(last, now, e.time);
                }
            }
            self.tsc = Some(now);
        }
        // Each ring is in time order: merged, the earliest first (a request's records of
        // one time stamp in the order of their kinds), taking from one ring while it is
        // no later than the next of the others.
        let key = |e: &Event| (e.time, e.kind as u8);
        loop {
            let (mut first, mut next) = (None, (until, 0));
            for (i, q) in self.pending.iter().enumerate() {
                let Some(k) = q.front().map(key) else { continue };
                match first {
                    Some((_, f)) if k >= f => next = next.min(k),
                    _ => {
                        if let Some((_, f)) = first {
                            next = next.min(f);
                        }
                        first = Some((i, k));
                    }
                }
            }
            let Some((i, _)) = first.filter(|&(_, k)| k.0 < until) else { break };
            let q = &mut self.pending[i];
            while let Some(e) = q.front().filter(|e| key(e) <= next && e.time < until) {
                self.matcher.add(*e);
                q.pop_front();
            }
        }
    }

    /// Matches `ios`, which happened between the previous pair of readings and `pair`.
    fn batch(&mut self, ios: &[IoTrace], pair: (u64, u64)) {
        self.matcher.rec.clock.points += 1;
        // The smallest gap between the two readings of a pair is the least delayed one.
        let gap = pair.1 as i128 - pair.0 as i128;
        let offset = *self.offset.get_or_insert(gap);
        self.offset = Some(offset.min(gap));
        let Some(prev) = self.pairs.replace(pair) else { return };
        let (dj, dm) = (pair.0.saturating_sub(prev.0), pair.1.saturating_sub(prev.1));
        let ppm = if dj == 0 { 0.0 } else { (dm as f64 / dj as f64 - 1.0).abs() * 1e6 };
        if dj >= 100_000_000 {
            let clock = &mut self.matcher.rec.clock;
            clock.max_rate_ppm = clock.max_rate_ppm.max(ppm);
        }
        // The job clock onto CLOCK_MONOTONIC: where both are CLOCK_MONOTONIC, by the
        // smallest offset seen (a pair read late only moves the offset up, never the
        // I/Os); else (the TSC) linearly between the two pairs, unless the rates agree
        // within the pairs' jitter.
        let same = self.monotonic || dj < 100_000_000 || ppm < SAME_CLOCK_PPM;
        let offset = self.offset.unwrap_or(0);
        let to_mono = |j: u64| {
            let m = if same {
                j as i128 + offset
            } else {
                let off = j as i128 - prev.0 as i128;
                prev.1 as i128 + off * dm as i128 / dj as i128
            };
            m.max(0) as u64
        };
        for io in ios {
            let Some(place) = self.places.get(io.file as usize) else { continue };
            self.ranges.clear();
            place.map(io.offset, u64::from(io.len), &mut self.ranges);
            let mapped = MappedIo {
                dir: io.dir,
                ranges: std::mem::take(&mut self.ranges),
                issue: to_mono(io.start_ns),
                done: to_mono(io.done_ns),
                direct: place.direct,
            };
            self.max_clat = self.max_clat.max(mapped.done - mapped.issue.min(mapped.done));
            let segments = self.matcher.io(&mapped);
            if let (Some(log), Some(segments)) = (&mut self.log, segments) {
                log.row(io, segments);
            }
            self.ranges = mapped.ranges;
        }
        self.matcher.prune(pair.1.saturating_sub(KEEP_NS + 2 * self.max_clat));
    }

    fn finish(mut self) -> BlockRecorder {
        if let Some(log) = &mut self.log {
            log.flush();
            if let Some(e) = &log.error {
                self.matcher.rec.notes.push(format!("block latency: the segment logs: {e}"));
            }
        }
        let counts = &mut self.matcher.rec.counts;
        counts.lost_records = match &self.source {
            Source::Trace(rings) => rings.lost(),
            Source::Bpf(bpf) => bpf.lost(),
        };
        let (lost, matched, unmatched) = (counts.lost_records, counts.matched, counts.unmatched);
        let notes = &mut self.matcher.rec.notes;
        if lost > 0 {
            notes.push(format!(
                "block latency: the kernel dropped {lost} trace records (a ring was full); \
                 I/Os whose records were lost count as unmatched"
            ));
        }
        if matched == 0 && unmatched > 0 {
            notes.push(
                "block latency: no request of the job's I/Os was seen on its disks (a \
                 device-mapper or md device hands its I/O to others, which are not followed)"
                    .into(),
            );
        }
        self.matcher.rec
    }
}
