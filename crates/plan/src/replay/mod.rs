//! `read_iolog`: replaying the I/Os of a log written by fio's or iomark's `write_iolog`, or
//! of a blktrace trace.
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
//!   iomark notes it (see the run's notes) and replays the whole log.
//!
//! Where iomark differs: a file of the log that does not exist or is too small is laid out
//! (created and, for reads, filled) to the extent the log uses, like the files of any job,
//! where fio creates it empty so that its reads fail; `write_iolog` still works during a
//! replay (fio drops it with "read iolog overrides write_iolog"), so a replay can be logged
//! and compared with its log.
//!
//! A blktrace binary trace (`blkparse -d`), recognised by its magic, is read whole by
//! [`blktrace`] (its own rules: which events are I/Os, devices, depth), and the traces that
//! `merge_blktrace_file` names are merged first by [`merge`].
//!
//! `read_iolog_chunked` reads the log again during the job, a chunk at a time, instead of
//! keeping its I/Os (see the runner's `replay/chunked.rs`); both readings go through one
//! line parser ([`parse`]). Timing the I/Os as the job runs is the runner's `replay`.

use crate::error::OptionError;
use crate::layout::{self, FilePlan};
use iomark_core::Ddir;
use iomark_options::keys;
use iomark_options::JobSpec;
use std::path::PathBuf;

pub mod blktrace;
pub mod merge;
pub mod parse;

use parse::{Adjust, LineParser, Lines};

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
    /// The I/Os; `None` with `read_iolog_chunked`, whose replay reads the log again as it
    /// goes ([`ReplayPlan::reopen`]).
    pub ios: Option<Vec<ReplayIo>>,
    /// What the whole log does, gathered as it was read.
    pub summary: Summary,
    /// How the log's offsets are changed (`replay_scale`, `replay_align`), and whether
    /// every I/O goes to the one file of `replay_redirect`.
    adjust: Adjust,
    /// Whether the job sets `replay_skip`, which changes nothing for an iolog replay in fio
    /// 3.33 (only for blktrace ones): the plan notes it.
    pub skip_ignored: bool,
    /// The depth a blktrace trace sets, for a job that does not set `iodepth`.
    pub depth: Option<u32>,
    /// The queues of 0 bytes a blktrace trace holds, left out (the plan notes them).
    pub zero_bytes: u64,
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
    pub fn of(spec: &JobSpec, jobnum: u64) -> Result<Option<ReplayPlan>, OptionError> {
        // fio 3.33 refuses any other type, with or without a log ("Unknown skip type").
        if let Some(skip) = spec.get(keys::REPLAY_SKIP) {
            let known = ["read", "write", "trim", "sync"];
            if let Some(bad) = skip.split(',').find(|t| !known.contains(t)) {
                return Err(OptionError::new(
                    keys::REPLAY_SKIP,
                    format!("'{skip}': unknown skip type '{bad}' (read, write, trim, sync)"),
                ));
            }
        }
        let Some(value) = spec.get(keys::READ_IOLOG).filter(|v| !v.is_empty()) else {
            return Ok(None);
        };
        let logs = split_names(&value);
        let merge = merge::Merge::of(spec)?;
        let log = match &merge {
            Some(m) => m.output.clone(),
            None => PathBuf::from(&logs[(jobnum as usize) % logs.len()]),
        };
        if log.as_os_str() == "-" {
            return Err(OptionError::new(
                keys::READ_IOLOG,
                "reading the log from standard input ('-') is not supported (nor by fio 3.33, which \
                 fails the job: \"unable to read iolog\")",
            ));
        }
        let redirect = spec.get(keys::REPLAY_REDIRECT).filter(|t| !t.is_empty());
        let adjust = Adjust {
            scale: spec.get(keys::REPLAY_SCALE).unwrap_or(1).max(1),
            align: spec.get(keys::REPLAY_ALIGN).unwrap_or(0),
            redirect: redirect.is_some(),
        };
        if adjust.align > 0 && !adjust.align.is_power_of_two() {
            let why = format!("{} is not a power of 2", adjust.align);
            return Err(OptionError::new(keys::REPLAY_ALIGN, why));
        }
        let chunked = spec.flag(keys::READ_IOLOG_CHUNKED);
        if chunked && !std::fs::metadata(&log).is_ok_and(|m| m.is_file()) {
            let why = format!(
                "'{}' is not a regular file; iomark reads a chunked log twice, first to lay \
                 out its files",
                log.display()
            );
            return Err(OptionError::new(keys::READ_IOLOG_CHUNKED, why));
        }
        let plan = match merge {
            Some(m) => {
                let bytes =
                    m.merged().map_err(|e| OptionError::new(keys::MERGE_BLKTRACE_FILE, e))?;
                Self::trace(spec, log, &bytes[..], adjust, redirect)
                    .map_err(|e| OptionError::new(keys::MERGE_BLKTRACE_FILE, e))?
            }
            None => Self::read(spec, log, adjust, redirect, chunked)
                .map_err(|e| OptionError::about(keys::READ_IOLOG, e))?,
        };
        Ok(Some(plan))
    }

    /// The replay of `log`, read whole: its files and I/Os (unless `chunked`), and what it
    /// does.
    fn read(
        spec: &JobSpec,
        log: PathBuf,
        adjust: Adjust,
        redirect: Option<String>,
        chunked: bool,
    ) -> Result<ReplayPlan, String> {
        let file = std::fs::File::open(&log)
            .map_err(|e| format!("option 'read_iolog': cannot read '{}': {e}", log.display()))?;
        let mut input = std::io::BufReader::with_capacity(1 << 16, file);
        let head = std::io::BufRead::fill_buf(&mut input).unwrap_or_default();
        if blktrace::is_trace(head) {
            return Self::trace(spec, log.clone(), input, adjust, redirect)
                .map_err(|e| format!("option 'read_iolog': '{}': {e}", log.display()));
        }
        let mut ios = (!chunked).then(Vec::new);
        let mut summary = Summary::default();
        let mut log_files = Vec::new();
        let mut lines = Lines::buffered(input, &log)?;
        let mut parser = LineParser::new(lines.first()?, adjust)
            .map_err(|e| format!("option 'read_iolog': '{}': {e}", log.display()))?;
        while let Some((no, line)) = lines.next_line()? {
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
        let files = match redirect {
            Some(target) => vec![PathBuf::from(target)],
            None => log_files.clone(),
        };
        summary.extents.resize(files.len(), 0);
        Ok(ReplayPlan {
            skip_ignored: spec.get(keys::REPLAY_SKIP).is_some_and(|s| !s.is_empty()),
            depth: None,
            zero_bytes: 0,
            log,
            files,
            ios,
            summary,
            adjust,
            log_files,
            stall: !spec.flag(keys::REPLAY_NO_STALL),
            time_scale: spec.get(keys::REPLAY_TIME_SCALE).unwrap_or(100).max(1),
        })
    }

    /// The replay of the blktrace trace `input` (read from `log`, or merged for it), read
    /// whole.
    fn trace(
        spec: &JobSpec,
        log: PathBuf,
        input: impl std::io::Read,
        adjust: Adjust,
        redirect: Option<String>,
    ) -> Result<ReplayPlan, String> {
        let skips = spec.get(keys::REPLAY_SKIP).unwrap_or_default();
        let skip = ["read", "write", "trim", "sync"].map(|t| skips.split(',').any(|s| s == t));
        let how = blktrace::Replay { adjust, skip, redirect: redirect.map(PathBuf::from) };
        let trace = blktrace::load(input, &how, &mut blktrace::find_device)?;
        let mut summary = Summary::default();
        trace.ios.iter().for_each(|io| summary.add(io));
        summary.extents.resize(trace.files.len(), 0);
        Ok(ReplayPlan {
            skip_ignored: false,
            depth: Some(trace.depth),
            zero_bytes: trace.zero_bytes,
            log,
            log_files: trace.files.clone(),
            files: trace.files,
            ios: Some(trace.ios),
            summary,
            adjust,
            stall: !spec.flag(keys::REPLAY_NO_STALL),
            time_scale: spec.get(keys::REPLAY_TIME_SCALE).unwrap_or(100).max(1),
        })
    }

    /// Opens the log again from its start, for a replay that reads it as it goes: its
    /// lines after the first, the parser for them, and the log's own file names (what its
    /// lines refer to).
    pub fn reopen(&self) -> Result<(Lines, LineParser, Vec<PathBuf>), String> {
        let file = std::fs::File::open(&self.log).map_err(|e| {
            format!("option 'read_iolog': cannot read '{}': {e}", self.log.display())
        })?;
        let mut lines = Lines::new(file, &self.log)?;
        let parser = LineParser::new(lines.first()?, self.adjust)?;
        Ok((lines, parser, self.log_files.clone()))
    }

    /// The job's files: the log's, each covering what the log uses of it (at least
    /// `min_len` bytes, the job's largest block, so that the workload has a region).
    pub fn file_plans(&self, min_len: u64) -> Result<Vec<FilePlan>, OptionError> {
        self.files
            .iter()
            .zip(&self.summary.extents)
            .map(|(path, &len)| {
                let kind = layout::probe(path).map_err(OptionError::other)?;
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
pub(crate) fn split_names(value: &str) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_at_unescaped_colons() {
        assert_eq!(split_names("a.log:b\\:c.log"), ["a.log", "b:c.log"]);
        assert_eq!(split_names("one"), ["one"]);
    }

    #[test]
    fn a_log_is_read_whole_or_summed_up() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("x.log");
        std::fs::write(&log, "fio version 3 iolog\n0 /d add\n5 /d read 0 512\n9 /d sync 0 0\n")
            .unwrap();
        let of = |chunked: &str| {
            let args = [format!("read_iolog={}", log.display()), chunked.to_string()];
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            ReplayPlan::of(&crate::test_spec(&args).unwrap(), 0).unwrap().unwrap()
        };
        let whole = of("read_iolog_chunked=0");
        assert_eq!(whole.ios.as_ref().map(Vec::len), Some(2));
        assert_eq!(whole.dirs(), [true, false, false]);
        assert_eq!((whole.max_len(), whole.bytes()), (512, 512));
        let chunked = of("read_iolog_chunked=1");
        assert!(chunked.ios.is_none());
        assert_eq!((&whole.summary, &whole.files), (&chunked.summary, &chunked.files));
    }
}
