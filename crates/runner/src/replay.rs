//! `read_iolog`: replaying the I/Os of a log written by fio's or iomark's `write_iolog`.
//!
//! Both trace formats of fio are read (see fio's HOWTO, "Trace file format"): version 2
//! (`fio version 2 iolog`, then `FILE ACTION [OFFSET LENGTH]` lines) and version 3 (`fio
//! version 3 iolog`, each line first stamped with its time in microseconds since the job
//! started), which fio 3.33 and iomark write. Actions: `add` names a file; `open` and
//! `close` are accepted (iomark opens every file of the log when the job starts and keeps
//! them open); `read`, `write`, `trim`, `sync`, `datasync` are I/Os; version 2's `wait` delays
//! the I/Os after it. A file must be added before its first I/O.
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
//! Waiting for an I/O's time is the one pause of the I/O loop that is not I/O: the loop
//! reads the clock and sleeps (at most 10 ms at a time, so that a stop request is seen).

use crate::clock::JobClock;
use crate::get;
use crate::layout::{self, FilePlan};
use iomark_engine::Ddir;
use iomark_options::JobSpec;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

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
    /// The I/Os, shared by the plan's copies.
    pub ios: Arc<[ReplayIo]>,
    /// Issue each I/O at its time (unless `replay_no_stall`).
    pub stall: bool,
    /// `replay_time_scale`, in percent.
    pub time_scale: u64,
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
        let bytes = std::fs::read(&log)
            .map_err(|e| format!("option 'read_iolog': cannot read '{}': {e}", log.display()))?;
        let text = std::str::from_utf8(&bytes).map_err(|_| not_an_iolog(&log))?;
        let adjust = Adjust {
            scale: get::int(spec, "replay_scale").unwrap_or(1).max(1),
            align: get::int(spec, "replay_align").unwrap_or(0),
        };
        if adjust.align > 0 && !adjust.align.is_power_of_two() {
            return Err(format!("option 'replay_align': {} is not a power of 2", adjust.align));
        }
        let mut parsed = parse(text, adjust)
            .map_err(|e| format!("option 'read_iolog': '{}': {e}", log.display()))?;
        if let Some(target) = get::text(spec, "replay_redirect").filter(|t| !t.is_empty()) {
            parsed.files = vec![PathBuf::from(target)];
            parsed.ios.iter_mut().for_each(|io| io.file = 0);
        }
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
            files: parsed.files,
            ios: parsed.ios.into(),
            stall: !get::flag(spec, "replay_no_stall"),
            time_scale: get::int(spec, "replay_time_scale").unwrap_or(100).max(1),
        }))
    }

    /// The job's files: the log's, each covering what the log uses of it (at least
    /// `min_len` bytes, the job's largest block, so that the workload has a region).
    pub fn file_plans(&self, min_len: u64) -> Result<Vec<FilePlan>, String> {
        let mut extent = vec![0u64; self.files.len()];
        for io in self.ios.iter() {
            let end = io.offset.saturating_add(io.len);
            extent[io.file as usize] = extent[io.file as usize].max(end);
        }
        self.files
            .iter()
            .zip(extent)
            .map(|(path, len)| {
                let kind = layout::probe(path)?;
                Ok(FilePlan { path: path.clone(), kind, offset: 0, len: len.max(min_len) })
            })
            .collect()
    }

    /// The data directions the log performs: reads, writes, trims.
    pub fn dirs(&self) -> [bool; 3] {
        let mut dirs = [false; 3];
        for io in self.ios.iter() {
            if let Some(d) = io.ddir.data_index() {
                dirs[d] = true;
            }
        }
        dirs
    }

    /// The longest I/O of the log.
    pub fn max_len(&self) -> u64 {
        self.ios.iter().map(|io| io.len).max().unwrap_or(0)
    }

    /// The bytes of all the log's data I/Os.
    pub fn bytes(&self) -> u64 {
        self.ios.iter().map(|io| io.len).sum()
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

/// `replay_scale` and `replay_align`.
#[derive(Debug, Clone, Copy)]
struct Adjust {
    scale: u64,
    align: u64,
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

/// A parsed log.
#[derive(Debug, PartialEq)]
struct Parsed {
    files: Vec<PathBuf>,
    ios: Vec<ReplayIo>,
}

/// Parses the text of a version 2 or 3 log.
fn parse(text: &str, adjust: Adjust) -> Result<Parsed, String> {
    let mut lines = text.lines().enumerate();
    let version = match lines.next().map(|(_, l)| l.trim()) {
        Some("fio version 2 iolog") => 2,
        Some("fio version 3 iolog") => 3,
        _ => {
            return Err("not a fio iolog (version 2 or 3); blktrace replay is not supported".into())
        }
    };
    let mut out = Parsed { files: Vec::new(), ios: Vec::new() };
    // Version 2: the sum of the waits so far, in microseconds.
    let mut waited_us = 0u64;
    for (i, line) in lines {
        let at = |why: String| format!("line {}: {why}: '{line}'", i + 1);
        let mut fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        let time_us = if version == 3 {
            let t = fields.remove(0);
            t.parse::<u64>().map_err(|_| at(format!("bad time '{t}'")))?
        } else {
            waited_us
        };
        let (name, action, rest) = match fields.as_slice() {
            [name, action, rest @ ..] => (*name, *action, rest),
            _ => return Err(at("expected a file and an action".into())),
        };
        let file = out.files.iter().position(|f| f.as_os_str() == name);
        let number = |s: &str, what: &str| -> Result<u64, String> {
            s.parse::<u64>().map_err(|_| at(format!("bad {what} '{s}'")))
        };
        let ddir = match action {
            "add" => {
                if file.is_none() {
                    out.files.push(PathBuf::from(name));
                }
                continue;
            }
            "open" | "close" => {
                file.ok_or_else(|| at(format!("file '{name}' was not added")))?;
                continue;
            }
            "wait" if version == 2 => {
                let [ms, ..] = rest else { return Err(at("wait needs a time".into())) };
                // fio 3.33 waits milliseconds here (see the module doc).
                waited_us = waited_us.saturating_add(number(ms, "wait")?.saturating_mul(1000));
                continue;
            }
            "read" => Ddir::Read,
            "write" => Ddir::Write,
            "trim" => Ddir::Trim,
            "sync" => Ddir::Sync,
            "datasync" => Ddir::Datasync,
            other => return Err(at(format!("unknown action '{other}'"))),
        };
        let file = file.ok_or_else(|| at(format!("file '{name}' was not added")))?;
        let (offset, len) = match (ddir, rest) {
            (Ddir::Sync | Ddir::Datasync, _) => (0, 0),
            (_, [offset, len, ..]) => (number(offset, "offset")?, number(len, "length")?),
            _ => return Err(at("expected an offset and a length".into())),
        };
        if len == 0 && ddir.data_index().is_some() {
            return Err(at("an I/O of length 0".into()));
        }
        let offset = adjust.offset(offset);
        out.ios.push(ReplayIo { time_us, file: file as u32, ddir, offset, len });
    }
    Ok(out)
}

/// Where a running job stands in its replay.
pub struct Cursor<'a> {
    plan: &'a ReplayPlan,
    next: usize,
    /// The clock reading the log's times count from (the first I/O's request).
    start_ns: Option<u64>,
    /// Whether to wait for each I/O's time (not with `replay_no_stall`, nor under the
    /// fake clock).
    stall: bool,
    stop: &'a AtomicBool,
}

impl<'a> Cursor<'a> {
    /// The start of `plan`; `fake` says the fake clock runs (no waiting then).
    pub fn new(plan: &'a ReplayPlan, fake: bool, stop: &'a AtomicBool) -> Cursor<'a> {
        Cursor { plan, next: 0, start_ns: None, stall: plan.stall && !fake, stop }
    }

    /// The next I/O (direction, file, offset, length) once its time has come; `None` at
    /// the end of the log or on a stop request.
    pub fn next(&mut self, clock: &mut JobClock) -> Option<(Ddir, usize, u64, usize)> {
        let io = *self.plan.ios.get(self.next)?;
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

    const PLAIN: Adjust = Adjust { scale: 1, align: 0 };

    fn io(time_us: u64, ddir: Ddir, offset: u64, len: u64) -> ReplayIo {
        ReplayIo { time_us, file: 0, ddir, offset, len }
    }

    #[test]
    fn version_3_as_fio_writes_it() {
        let log = "fio version 3 iolog\n21 /d add\n115 /d open\n119 /d read 12288 4096\n\
                   407 /d write 122880 8192\n410 /d sync 122880 0\n415 /d datasync 0 0\n\
                   420 /d trim 0 4096\n40196 /d close\n";
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
        let adjust = Adjust { scale: 2, align: 16384 };
        assert_eq!(parse(log, adjust).unwrap().ios[0].offset, 81920);
        assert_eq!(parse(log, Adjust { scale: 2, align: 0 }).unwrap().ios[0].offset, 96256);
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

    #[test]
    fn the_cursor_hands_out_the_log_in_order() {
        let plan = ReplayPlan {
            log: PathBuf::from("x"),
            files: vec![PathBuf::from("/d")],
            ios: vec![io(5, Ddir::Read, 0, 512), io(9, Ddir::Sync, 0, 0)].into(),
            stall: true,
            time_scale: 100,
        };
        let stop = AtomicBool::new(false);
        let mut clock = JobClock::monotonic();
        let mut cursor = Cursor::new(&plan, false, &stop);
        assert_eq!(cursor.next(&mut clock), Some((Ddir::Read, 0, 0, 512)));
        assert_eq!(cursor.next(&mut clock), Some((Ddir::Sync, 0, 0, 0)));
        assert_eq!(cursor.next(&mut clock), None);
        assert_eq!(plan.dirs(), [true, false, false]);
        assert_eq!((plan.max_len(), plan.bytes()), (512, 512));
    }
}
