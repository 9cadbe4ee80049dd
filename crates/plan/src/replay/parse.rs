//! The lines of a fio iolog (version 2 or 3), read and turned into I/Os one at a time:
//! what the plan reads the whole log with, and what a chunked replay reads it again with
//! (see the crate's `replay` note for the format).

use super::ReplayIo;
use iomark_core::Ddir;
use std::path::PathBuf;

/// The message for a log that is not a fio iolog.
fn not_an_iolog(log: &std::path::Path) -> String {
    format!(
        "option 'read_iolog': '{}' is neither a fio iolog (version 2 or 3) nor a blktrace \
         trace",
        log.display()
    )
}

/// `replay_scale`, `replay_align` and `replay_redirect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Adjust {
    /// `replay_scale`: offsets are divided by it.
    pub(crate) scale: u64,
    /// `replay_align`: offsets are then rounded down to a multiple of it (0: not).
    pub(crate) align: u64,
    /// Every I/O goes to the job's one file.
    pub(crate) redirect: bool,
}

impl Default for Adjust {
    /// Offsets as the log has them.
    fn default() -> Adjust {
        Adjust { scale: 1, align: 0, redirect: false }
    }
}

impl Adjust {
    /// A blktrace I/O's length as the replay issues it: rounded up to `replay_align`, as
    /// fio 3.33 does (an iolog's lengths are kept).
    pub(crate) fn len(self, len: u64) -> u64 {
        if self.align > 0 {
            len.div_ceil(self.align).saturating_mul(self.align)
        } else {
            len
        }
    }

    /// A log's offset as the replay issues it.
    pub(crate) fn offset(self, offset: u64) -> u64 {
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
pub struct Lines {
    reader: std::io::BufReader<std::fs::File>,
    line: String,
    /// The number of the line in `line`, from 1.
    no: usize,
    log: PathBuf,
}

impl Lines {
    /// The lines of `file`, the log at `log`.
    pub(crate) fn new(file: std::fs::File, log: &std::path::Path) -> Result<Lines, String> {
        Self::buffered(std::io::BufReader::with_capacity(1 << 16, file), log)
    }

    /// The lines of `reader`, the log at `log`, from what it has buffered on.
    pub(crate) fn buffered(
        reader: std::io::BufReader<std::fs::File>,
        log: &std::path::Path,
    ) -> Result<Lines, String> {
        Ok(Lines { reader, line: String::with_capacity(256), no: 0, log: log.to_path_buf() })
    }

    /// The log's path.
    pub fn log(&self) -> &std::path::Path {
        &self.log
    }

    /// The first line, which names the format.
    pub(crate) fn first(&mut self) -> Result<&str, String> {
        Ok(self.next_line()?.map_or("", |(_, l)| l).trim())
    }

    /// The next line and its number; `None` at the end of the log.
    pub fn next_line(&mut self) -> Result<Option<(usize, &str)>, String> {
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
pub struct LineParser {
    version: u8,
    adjust: Adjust,
    /// Version 2: the sum of the waits so far, in microseconds.
    waited_us: u64,
}

impl LineParser {
    /// The parser of a log whose first line is `first`.
    pub(crate) fn new(first: &str, adjust: Adjust) -> Result<LineParser, String> {
        let version = match first {
            "fio version 2 iolog" => 2,
            "fio version 3 iolog" => 3,
            _ => return Err("neither a fio iolog (version 2 or 3) nor a blktrace trace".into()),
        };
        Ok(LineParser { version, adjust, waited_us: 0 })
    }

    /// Line `no`: its I/O, if it is one. `files` are the log's files so far, in the order
    /// it adds them; an `add` of a new name adds to them.
    pub fn line(
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
        assert!(bad("garbage\n").contains("neither a fio iolog"));
        assert!(bad("fio version 3 iolog\n0 /d read 0 4096\n")
            .contains("line 2: file '/d' was not added"));
        assert!(bad("fio version 3 iolog\n0 /d add\nx /d read 0 1\n").contains("bad time 'x'"));
        assert!(bad("fio version 3 iolog\n0 /d add\n1 /d erase 0 1\n").contains("unknown action"));
        assert!(bad("fio version 3 iolog\n0 /d add\n1 /d wait 5 0\n").contains("unknown action"));
        assert!(bad("fio version 2 iolog\n/d add\n/d read 0\n").contains("offset and a length"));
    }
}
