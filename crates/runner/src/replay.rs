//! `read_iolog`: replaying the I/Os of a log written by fio's or iomark's `write_iolog`.
//!
//! Both trace formats of fio are read (see fio's HOWTO, "Trace file format"): version 2
//! (`fio version 2 iolog`, then `FILE ACTION [OFFSET LENGTH]` lines) and version 3 (`fio
//! version 3 iolog`, each line first stamped with its time in microseconds since the job
//! started), which fio 3.33 and iomark write. Actions: `add` names a file; `open` and
//! `close` are accepted (iomark opens every file of the log when the job starts and keeps
//! them open); `read`, `write`, `trim`, `sync`, `datasync` are I/Os; version 2's `wait` delays
//! the I/Os after it. A file must be added before its first I/O. The `sync_file_range`
//! lines of a job with that option are skipped, as fio 3.33 skips them ("bad iolog file
//! action"): their range is not in the log.
//!
//! The replay, as fio 3.33 does it (measured with its latency logs, `log_offset=1`):
//!
//! - The job's I/Os are the log's, in its order, on the log's files, with the log's lengths;
//!   `rw`, `bs`, `size`, `filename`, `loops` and `number_ios` do not change them. The job
//!   ends when the log does (or at `runtime`).
//! - Each I/O waits for its time in the log (version 3; scaled by `replay_time_scale`
//!   percent: 200 replays twice as fast), unless `replay_no_stall=1`. Version 2's `wait N`
//!   adds N to the time of the I/Os after it; fio 3.33 takes N as *milliseconds* (its HOWTO
//!   says microseconds), and so does iomark.
//! - `replay_scale=N` divides every offset by N, then `replay_align=A` (a power of 2) rounds
//!   it down to a multiple of A. `replay_redirect=PATH` sends every I/O to PATH.
//! - `read_iolog=a.log:b.log` gives the clones of `numjobs` the logs in turn: clone N
//!   replays log N mod count, as fio's HOWTO says (fio 3.33 deals them in another order:
//!   with two logs and three clones, the first, the first, the second).
//! - `replay_skip` changes nothing for iolog replays in fio 3.33 (only for blktrace ones);
//!   iomark says so on standard error and replays the whole log.
//!
//! Where iomark differs: a file of the log that does not exist or is too small is laid out
//! (created and, for reads, filled) to the extent the log uses, like the files of any job,
//! where fio creates it empty so that its reads fail; `write_iolog` still works during a
//! replay (fio drops it with "read iolog overrides write_iolog"), so a replay can be logged
//! and compared with its log; a blktrace file is refused.
//!
//! `read_iolog_chunked` reads the log again during the job, a chunk at a time, instead of
//! keeping its I/Os (see `replay/chunked.rs`); both readings go through one line parser.
//!
//! Waiting for an I/O's time is the one pause of the I/O loop that is not I/O: the loop
//! reads the clock and sleeps (at most 10 ms at a time, so that a stop request is seen).

use crate::clock::JobClock;
use crate::get;
use crate::layout::{self, FilePlan};
use iomark_core::Ddir;
use iomark_options::JobSpec;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

mod chunked;

/// One I/O of a log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayIo {
    /// When to issue it, in microseconds from the job's start (before `replay_time_scale`).
    pub time_us: u64,
    /// Its file, an index into the replay's files.
    pub file: u32,
    /// What it does.
    pub ddir: Ddir,
    /// Where, in bytes (after `replay_scale` and `replay_align`).
    pub offset: u64,
    /// How many bytes (0 for syncs).
    pub len: u64,
}

/// A job's replay: the log's I/Os and files, and how to time them.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayPlan {
    /// The log.
    pub log: PathBuf,
    /// The files, in the order the log adds them (one with `replay_redirect`).
    pub files: Vec<PathBuf>,
    /// The I/Os, shared by the plan's copies; `None` with `read_iolog_chunked`, whose
    /// replay reads the log again as it goes (see `replay/chunked.rs`).
    pub ios: Option<Arc<[ReplayIo]>>,
    /// What the whole log does, gathered as it was read.
    pub summary: Summary,
    /// How the log's offsets are changed (`replay_scale`, `replay_align`), and whether
    /// every I/O goes to the one file of `replay_redirect`.
    adjust: Adjust,
    /// The log's own file names, in the order it adds them (what its lines refer to).
    log_files: Vec<PathBuf>,
    /// Issue each I/O at its time (unless `replay_no_stall`).
    pub stall: bool,
    /// `replay_time_scale`, in percent.
    pub time_scale: u64,
}

/// What a whole log does: enough to lay out its files and size the job's buffers without
/// keeping its I/Os.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// How far into each of the job's files the log's I/Os reach.
    pub extents: Vec<u64>,
    /// The data directions it performs: reads, writes, trims.
    pub dirs: [bool; 3],
    /// Its longest I/O.
    pub max_len: u64,
    /// The bytes of all its data I/Os.
    pub bytes: u64,
}

impl Summary {
    fn add(&mut self, io: &ReplayIo) {
        let file = io.file as usize;
        if self.extents.len() <= file {
            self.extents.resize(file + 1, 0);
        }
        self.extents[file] = self.extents[file].max(io.offset.saturating_add(io.len));
        if let Some(d) = io.ddir.data_index() {
            self.dirs[d] = true;
        }
        self.max_len = self.max_len.max(io.len);
        self.bytes += io.len;
    }
}

impl ReplayPlan {
    /// The replay of clone `jobnum` of `spec`, if it has `read_iolog`.
    pub fn of(spec: &JobSpec, jobnum: u64) -> Result<Option<ReplayPlan>, String> {
        let Some(value) = get::text(spec, "read_iolog").filter(|v| !v.is_empty()) else {
            return Ok(None);
        };
        let logs = split_names(&value);
        let log = PathBuf::from(&logs[(jobnum as usize) % logs.len()]);
        if log.as_os_str() == "-" {
            return Err("option 'read_iolog': reading the log from standard input ('-') is \
                        not supported"
                .into());
        }
        let adjust = Adjust {
            scale: get::int(spec, "replay_scale").unwrap_or(1).max(1),
            align: get::int(spec, "replay_align").unwrap_or(0),
            redirect: get::text(spec, "replay_redirect").is_some_and(|t| !t.is_empty()),
        };
        if adjust.align > 0 && !adjust.align.is_power_of_two() {
            return Err(format!("option 'replay_align': {} is not a power of 2", adjust.align));
        }
        let chunked = get::flag(spec, "read_iolog_chunked");
        if chunked && !std::fs::metadata(&log).is_ok_and(|m| m.is_file()) {
            return Err(format!(
                "option 'read_iolog_chunked': '{}' is not a regular file; iomark reads a \
                 chunked log twice, first to lay out its files",
                log.display()
            ));
        }
        let file = std::fs::File::open(&log)
            .map_err(|e| format!("option 'read_iolog': cannot read '{}': {e}", log.display()))?;
        let mut ios = (!chunked).then(Vec::new);
        let mut summary = Summary::default();
        let mut log_files = Vec::new();
        let mut lines = Lines::new(file, &log)?;
        let mut parser = LineParser::new(lines.first()?, adjust)
            .map_err(|e| format!("option 'read_iolog': '{}': {e}", log.display()))?;
        while let Some((no, line)) = lines.next()? {
            let io = parser
                .line(no, line, &mut log_files)
                .map_err(|e| format!("option 'read_iolog': '{}': {e}", log.display()))?;
            if let Some(io) = io {
                summary.add(&io);
                if let Some(ios) = &mut ios {
                    ios.push(io);
                }
            }
        }
        let files = match get::text(spec, "replay_redirect").filter(|t| !t.is_empty()) {
            Some(target) => vec![PathBuf::from(target)],
            None => log_files.clone(),
        };
        summary.extents.resize(files.len(), 0);
        if get::text(spec, "replay_skip").is_some_and(|s| !s.is_empty()) {
            eprintln!(
                "iomark: job '{}': replay_skip applies to blktrace replays only, as in fio \
                 3.33; '{}' is replayed whole",
                spec.name,
                log.display()
            );
        }
        Ok(Some(ReplayPlan {
            log,
            files,
            ios: ios.map(Into::into),
            summary,
            adjust,
            log_files,
            stall: !get::flag(spec, "replay_no_stall"),
            time_scale: get::int(spec, "replay_time_scale").unwrap_or(100).max(1),
        }))
    }

    /// The job's files: the log's, each covering what the log uses of it (at least
    /// `min_len` bytes, the job's largest block, so that the workload has a region).
    pub fn file_plans(&self, min_len: u64) -> Result<Vec<FilePlan>, String> {
        self.files
            .iter()
            .zip(&self.summary.extents)
            .map(|(path, &len)| {
                let kind = layout::probe(path)?;
                Ok(FilePlan { path: path.clone(), kind, offset: 0, len: len.max(min_len) })
            })
            .collect()
    }

    /// The data directions the log performs: reads, writes, trims.
    pub fn dirs(&self) -> [bool; 3] {
        self.summary.dirs
    }

    /// The longest I/O of the log.
    pub fn max_len(&self) -> u64 {
        self.summary.max_len
    }

    /// The bytes of all the log's data I/Os.
    pub fn bytes(&self) -> u64 {
        self.summary.bytes
    }
}

/// A `:`-separated list of names, `\:` standing for a colon.
fn split_names(value: &str) -> Vec<String> {
    let mut names = vec![String::new()];
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&':') => {
                names.last_mut().unwrap().push(chars.next().unwrap())
            }
            ':' => names.push(String::new()),
            c => names.last_mut().unwrap().push(c),
        }
    }
    names.retain(|n| !n.is_empty());
    if names.is_empty() {
        names.push(value.to_string());
    }
    names
}

fn not_an_iolog(log: &std::path::Path) -> String {
    format!(
        "option 'read_iolog': '{}' is not a fio iolog (version 2 or 3); blktrace replay is not \
         supported",
        log.display()
    )
}

/// `replay_scale`, `replay_align` and `replay_redirect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Adjust {
    scale: u64,
    align: u64,
    /// Every I/O goes to the job's one file.
    redirect: bool,
}

impl Adjust {
    fn offset(self, offset: u64) -> u64 {
        let scaled = offset / self.scale;
        if self.align > 0 {
            scaled & !(self.align - 1)
        } else {
            scaled
        }
    }
}

/// A log read line by line, through one buffer (no allocation per line once the buffer
/// holds the longest line).
struct Lines {
    reader: std::io::BufReader<std::fs::File>,
    line: String,
    /// The number of the line in `line`, from 1.
    no: usize,
    log: PathBuf,
}

impl Lines {
    fn new(file: std::fs::File, log: &std::path::Path) -> Result<Lines, String> {
        let reader = std::io::BufReader::with_capacity(1 << 16, file);
        Ok(Lines { reader, line: String::with_capacity(256), no: 0, log: log.to_path_buf() })
    }

    /// The first line, which names the format.
    fn first(&mut self) -> Result<&str, String> {
        Ok(self.next()?.map_or("", |(_, l)| l).trim())
    }

    /// The next line and its number; `None` at the end of the log.
    fn next(&mut self) -> Result<Option<(usize, &str)>, String> {
        use std::io::BufRead;
        self.line.clear();
        match self.reader.read_line(&mut self.line) {
            Ok(0) => Ok(None),
            Ok(_) => {
                self.no += 1;
                Ok(Some((self.no, self.line.trim_end_matches(['\n', '\r']))))
            }
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Err(not_an_iolog(&self.log)),
            Err(e) => {
                Err(format!("option 'read_iolog': cannot read '{}': {e}", self.log.display()))
            }
        }
    }
}

/// Turns the lines of a version 2 or 3 log into I/Os, one line at a time, without
/// allocating (but for the name of a file the log adds).
#[derive(Debug, Clone)]
struct LineParser {
    version: u8,
    adjust: Adjust,
    /// Version 2: the sum of the waits so far, in microseconds.
    waited_us: u64,
}

impl LineParser {
    /// The parser of a log whose first line is `first`.
    fn new(first: &str, adjust: Adjust) -> Result<LineParser, String> {
        let version = match first {
            "fio version 2 iolog" => 2,
            "fio version 3 iolog" => 3,
            _ => {
                return Err(
                    "not a fio iolog (version 2 or 3); blktrace replay is not supported".into()
                )
            }
        };
        Ok(LineParser { version, adjust, waited_us: 0 })
    }

    /// Line `no`: its I/O, if it is one. `files` are the log's files so far, in the order
    /// it adds them; an `add` of a new name adds to them.
    fn line(
        &mut self,
        no: usize,
        line: &str,
        files: &mut Vec<PathBuf>,
    ) -> Result<Option<ReplayIo>, String> {
        let at = |why: String| format!("line {no}: {why}: '{line}'");
        let mut fields = line.split_whitespace();
        let Some(first) = fields.next() else { return Ok(None) };
        let number = |s: &str, what: &str| -> Result<u64, String> {
            s.parse::<u64>().map_err(|_| at(format!("bad {what} '{s}'")))
        };
        let (time_us, name) = if self.version == 3 {
            let t = first.parse::<u64>().map_err(|_| at(format!("bad time '{first}'")))?;
            (t, fields.next())
        } else {
            (self.waited_us, Some(first))
        };
        let (Some(name), Some(action)) = (name, fields.next()) else {
            return Err(at("expected a file and an action".into()));
        };
        let file = files.iter().position(|f| f.as_os_str() == name);
        let ddir = match action {
            "add" => {
                if file.is_none() {
                    files.push(PathBuf::from(name));
                }
                return Ok(None);
            }
            "open" | "close" | "sync_file_range" => {
                file.ok_or_else(|| at(format!("file '{name}' was not added")))?;
                return Ok(None);
            }
            "wait" if self.version == 2 => {
                let Some(ms) = fields.next() else { return Err(at("wait needs a time".into())) };
                // fio 3.33 waits milliseconds here (see the module doc).
                let us = number(ms, "wait")?.saturating_mul(1000);
                self.waited_us = self.waited_us.saturating_add(us);
                return Ok(None);
            }
            "read" => Ddir::Read,
            "write" => Ddir::Write,
            "trim" => Ddir::Trim,
            "sync" => Ddir::Sync,
            "datasync" => Ddir::Datasync,
            other => return Err(at(format!("unknown action '{other}'"))),
        };
        let file = file.ok_or_else(|| at(format!("file '{name}' was not added")))?;
        let (offset, len) = match (ddir, fields.next(), fields.next()) {
            (Ddir::Sync | Ddir::Datasync, _, _) => (0, 0),
            (_, Some(offset), Some(len)) => (number(offset, "offset")?, number(len, "length")?),
            _ => return Err(at("expected an offset and a length".into())),
        };
        if len == 0 && ddir.data_index().is_some() {
            return Err(at("an I/O of length 0".into()));
        }
        let file = if self.adjust.redirect { 0 } else { file as u32 };
        let offset = self.adjust.offset(offset);
        Ok(Some(ReplayIo { time_us, file, ddir, offset, len }))
    }
}

/// Where a running job stands in its replay.
pub struct Cursor<'a> {
    plan: &'a ReplayPlan,
    next: usize,
    /// The log being read, with `read_iolog_chunked`.
    chunks: Option<chunked::Chunks>,
    /// The clock reading the log's times count from (the first I/O's request).
    start_ns: Option<u64>,
    /// Whether to wait for each I/O's time (not with `replay_no_stall`, nor under the
    /// fake clock).
    stall: bool,
    stop: &'a AtomicBool,
}

impl<'a> Cursor<'a> {
    /// The start of `plan`; `fake` says the fake clock runs (no waiting then). A chunked
    /// replay opens its log again here.
    pub fn new(
        plan: &'a ReplayPlan,
        fake: bool,
        stop: &'a AtomicBool,
    ) -> Result<Cursor<'a>, String> {
        let chunks = match plan.ios {
            Some(_) => None,
            None => Some(chunked::Chunks::open(plan)?),
        };
        Ok(Cursor { plan, next: 0, chunks, start_ns: None, stall: plan.stall && !fake, stop })
    }

    /// The next I/O (direction, file, offset, length) once its time has come; `None` at
    /// the end of the log or on a stop request.
    pub fn next(&mut self, clock: &mut JobClock) -> Option<(Ddir, usize, u64, usize)> {
        let io = match (&mut self.chunks, &self.plan.ios) {
            (Some(chunks), _) => chunks.next()?,
            (None, Some(ios)) => *ios.get(self.next)?,
            (None, None) => return None,
        };
        self.next += 1;
        if self.stall {
            let start = *self.start_ns.get_or_insert_with(|| clock.now_ns());
            let delay = u128::from(io.time_us) * 1000 * 100 / u128::from(self.plan.time_scale);
            let due = start.saturating_add(u64::try_from(delay).unwrap_or(u64::MAX));
            loop {
                let now = clock.now_ns();
                if now >= due {
                    break;
                }
                if self.stop.load(Ordering::Relaxed) {
                    return None;
                }
                std::thread::sleep(Duration::from_nanos(due - now).min(Duration::from_millis(10)));
            }
        }
        Some((io.ddir, io.file as usize, io.offset, io.len as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Adjust = Adjust { scale: 1, align: 0, redirect: false };

    /// A parsed log.
    #[derive(Debug, PartialEq)]
    struct Parsed {
        files: Vec<PathBuf>,
        ios: Vec<ReplayIo>,
    }

    /// Parses the text of a log, line by line as the replay does.
    fn parse(text: &str, adjust: Adjust) -> Result<Parsed, String> {
        let mut lines = text.lines();
        let mut parser = LineParser::new(lines.next().unwrap_or("").trim(), adjust)?;
        let mut out = Parsed { files: Vec::new(), ios: Vec::new() };
        for (i, line) in lines.enumerate() {
            out.ios.extend(parser.line(i + 2, line, &mut out.files)?);
        }
        Ok(out)
    }

    fn io(time_us: u64, ddir: Ddir, offset: u64, len: u64) -> ReplayIo {
        ReplayIo { time_us, file: 0, ddir, offset, len }
    }

    #[test]
    fn version_3_as_fio_writes_it() {
        let log = "fio version 3 iolog\n21 /d add\n115 /d open\n119 /d read 12288 4096\n\
                   407 /d write 122880 8192\n410 /d sync 122880 0\n415 /d datasync 0 0\n\
                   420 /d trim 0 4096\n430 /d sync_file_range 0 0\n40196 /d close\n";
        let p = parse(log, PLAIN).unwrap();
        assert_eq!(p.files, vec![PathBuf::from("/d")]);
        assert_eq!(
            p.ios,
            vec![
                io(119, Ddir::Read, 12288, 4096),
                io(407, Ddir::Write, 122880, 8192),
                io(410, Ddir::Sync, 0, 0),
                io(415, Ddir::Datasync, 0, 0),
                io(420, Ddir::Trim, 0, 4096),
            ]
        );
    }

    #[test]
    fn version_2_waits_add_up_in_milliseconds() {
        let log = "fio version 2 iolog\n/a add\n/b add\n/a open\n/b open\n/a write 0 4096\n\
                   /a wait 300 0\n/b read 8192 512\n/b wait 2 0\n/a read 0 4096\n";
        let p = parse(log, PLAIN).unwrap();
        assert_eq!(p.files, vec![PathBuf::from("/a"), PathBuf::from("/b")]);
        let times: Vec<(u64, u32)> = p.ios.iter().map(|i| (i.time_us, i.file)).collect();
        assert_eq!(times, [(0, 0), (300_000, 1), (302_000, 0)]);
    }

    #[test]
    fn scale_then_align_as_fio_does() {
        let log = "fio version 3 iolog\n0 /d add\n1 /d read 192512 4096\n";
        let adjust = Adjust { scale: 2, align: 16384, redirect: false };
        assert_eq!(parse(log, adjust).unwrap().ios[0].offset, 81920);
        let adjust = Adjust { scale: 2, align: 0, redirect: false };
        assert_eq!(parse(log, adjust).unwrap().ios[0].offset, 96256);
    }

    #[test]
    fn bad_logs_name_the_line() {
        let bad = |log: &str| parse(log, PLAIN).unwrap_err();
        assert!(bad("garbage\n").contains("not a fio iolog"));
        assert!(bad("fio version 3 iolog\n0 /d read 0 4096\n")
            .contains("line 2: file '/d' was not added"));
        assert!(bad("fio version 3 iolog\n0 /d add\nx /d read 0 1\n").contains("bad time 'x'"));
        assert!(bad("fio version 3 iolog\n0 /d add\n1 /d erase 0 1\n").contains("unknown action"));
        assert!(bad("fio version 3 iolog\n0 /d add\n1 /d wait 5 0\n").contains("unknown action"));
        assert!(bad("fio version 2 iolog\n/d add\n/d read 0\n").contains("offset and a length"));
    }

    #[test]
    fn names_split_at_unescaped_colons() {
        assert_eq!(split_names("a.log:b\\:c.log"), ["a.log", "b:c.log"]);
        assert_eq!(split_names("one"), ["one"]);
    }

    /// The plan of a log written to a file in `dir`, whole or chunked.
    fn plan_of(dir: &std::path::Path, text: &str, chunked: bool) -> ReplayPlan {
        let log = dir.join("x.log");
        std::fs::write(&log, text).unwrap();
        let mut args = vec![format!("read_iolog={}", log.display()), "replay_no_stall=1".into()];
        if chunked {
            args.push("read_iolog_chunked=1".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let spec = crate::get::test_spec(&args).unwrap();
        ReplayPlan::of(&spec, 0).unwrap().unwrap()
    }

    #[test]
    fn the_cursor_hands_out_the_log_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let plan = plan_of(
            dir.path(),
            "fio version 3 iolog\n0 /d add\n5 /d read 0 512\n9 /d sync 0 0\n",
            false,
        );
        let stop = AtomicBool::new(false);
        let mut clock = JobClock::monotonic();
        let mut cursor = Cursor::new(&plan, false, &stop).unwrap();
        assert_eq!(cursor.next(&mut clock), Some((Ddir::Read, 0, 0, 512)));
        assert_eq!(cursor.next(&mut clock), Some((Ddir::Sync, 0, 0, 0)));
        assert_eq!(cursor.next(&mut clock), None);
        assert_eq!(plan.dirs(), [true, false, false]);
        assert_eq!((plan.max_len(), plan.bytes()), (512, 512));
    }

    #[test]
    fn a_chunked_replay_is_the_whole_replay() {
        // More I/Os than a chunk, on two files added at different places, and waits.
        let mut text = String::from("fio version 2 iolog\n/a add\n/a open\n");
        for i in 0..(2 * chunked::CHUNK + 17) as u64 {
            if i == 100 {
                text.push_str("/b add\n/b open\n");
            }
            let (file, action) = match i % 5 {
                0 => ("/a", "write"),
                1 if i > 100 => ("/b", "read"),
                2 => ("/a", "trim"),
                3 => ("/a", "sync"),
                _ => ("/a", "read"),
            };
            text.push_str(&format!("{file} {action} {} {}\n", i * 512, 512 * (1 + i % 8)));
            if i % 1000 == 0 {
                text.push_str("/a wait 3 0\n");
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let whole = plan_of(dir.path(), &text, false);
        let chunked = plan_of(dir.path(), &text, true);
        assert!(chunked.ios.is_none());
        assert_eq!((&whole.summary, &whole.files), (&chunked.summary, &chunked.files));
        let stop = AtomicBool::new(false);
        let mut clock = JobClock::monotonic();
        let ios = |plan: &ReplayPlan, clock: &mut JobClock| {
            let mut cursor = Cursor::new(plan, true, &stop).unwrap();
            std::iter::from_fn(|| cursor.next(clock)).collect::<Vec<_>>()
        };
        let a = ios(&whole, &mut clock);
        assert_eq!(a.len(), 2 * chunked::CHUNK + 17);
        assert_eq!(a, ios(&chunked, &mut clock));
    }
}
