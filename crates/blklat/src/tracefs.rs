//! Where the kernel's trace events are described ([`TraceFs`]): tracefs, found mounted or
//! mounted for the run (and unmounted after), and what it says of each block event: its
//! id and where its fields lie in a record.

use crate::BlkError;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The block events followed, in the order of [`Kind`].
pub const EVENTS: [&str; 4] =
    ["block_bio_queue", "block_rq_insert", "block_rq_issue", "block_rq_complete"];

/// One of the followed events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A bio entered the block layer (btt's Q).
    Queue = 0,
    /// A request went into the I/O scheduler's queue (I).
    Insert = 1,
    /// A request went to the driver (D).
    Issue = 2,
    /// A request completed (C).
    Complete = 3,
}

impl Kind {
    /// The four, in [`EVENTS`]' order.
    pub const ALL: [Kind; 4] = [Kind::Queue, Kind::Insert, Kind::Issue, Kind::Complete];
}

/// Where an event's fields are in its raw record (byte offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The event's id (`common_type`, the record's first two bytes).
    pub id: u16,
    /// `dev` (a 4-byte kernel `dev_t`).
    pub dev: usize,
    /// `sector` (8 bytes).
    pub sector: usize,
    /// `nr_sector` (4 bytes).
    pub nr_sector: usize,
    /// `rwbs` (the operation's letters: `R`, `WS`, `D`…, NUL-padded).
    pub rwbs: usize,
}

/// Reads an event's `format` file: its id and the offsets of `dev`, `sector`, `nr_sector`.
pub fn parse_format(text: &str) -> Option<Layout> {
    let mut id = None;
    let (mut dev, mut sector, mut nr, mut rwbs) = (None, None, None, None);
    for line in text.lines() {
        let line = line.trim();
        if let Some(v) = line.strip_prefix("ID:") {
            id = v.trim().parse().ok();
            continue;
        }
        let Some(field) = line.strip_prefix("field:") else { continue };
        let mut parts = field.split(';').map(str::trim);
        let decl = parts.next()?;
        let offset = parts.find_map(|p| p.strip_prefix("offset:")).and_then(|o| o.parse().ok());
        // `char rwbs[10]` is the field `rwbs`.
        match decl.rsplit(' ').next().and_then(|n| n.split('[').next()) {
            Some("dev") => dev = offset,
            Some("sector") => sector = offset,
            Some("nr_sector") => nr = offset,
            Some("rwbs") => rwbs = offset,
            _ => {}
        }
    }
    Some(Layout { id: id?, dev: dev?, sector: sector?, nr_sector: nr?, rwbs: rwbs? })
}

/// The kind of a raw record, by its `common_type`.
pub fn kind_of(layouts: &[Layout; 4], data: &[u8]) -> Option<Kind> {
    let id = u16::from_ne_bytes([*data.first()?, *data.get(1)?]);
    layouts.iter().position(|l| l.id == id).map(|i| Kind::ALL[i])
}

/// tracefs for the run: where it is, whether iomark mounted it.
#[derive(Debug)]
pub struct TraceFs {
    root: PathBuf,
    mounted: bool,
}

impl TraceFs {
    /// tracefs where the kernel puts it (or under debugfs); mounted on
    /// `/sys/kernel/tracing` when it is not there, which the note says.
    pub fn find_or_mount() -> Result<(TraceFs, Option<String>), BlkError> {
        for root in ["/sys/kernel/tracing", "/sys/kernel/debug/tracing"] {
            if Path::new(root).join("events/block").is_dir() {
                return Ok((TraceFs { root: root.into(), mounted: false }, None));
            }
        }
        let root = PathBuf::from("/sys/kernel/tracing");
        let status = Command::new("mount")
            .args(["-t", "tracefs", "nodev"])
            .arg(&root)
            .stderr(std::process::Stdio::null())
            .status();
        match status {
            Ok(s) if s.success() && root.join("events/block").is_dir() => {
                let note = "block latency: mounted tracefs on /sys/kernel/tracing for the run \
                            (unmounted after)"
                    .to_string();
                Ok((TraceFs { root, mounted: true }, Some(note)))
            }
            _ => Err(BlkError::NoTraceFs),
        }
    }

    /// Where tracefs is.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The layouts of the followed events, in [`EVENTS`]' order.
    pub fn layouts(&self) -> Result<[Layout; 4], BlkError> {
        let mut out = Vec::new();
        for name in EVENTS {
            out.push(layout(&self.root, name)?);
        }
        out.try_into().map_err(|_| BlkError::NoTraceFs)
    }
}

/// The layout of the block event `name` under the tracefs at `root`.
pub fn layout(root: &Path, name: &'static str) -> Result<Layout, BlkError> {
    let path = root.join("events/block").join(name).join("format");
    let text = fs::read_to_string(&path)
        .map_err(|e| BlkError::Event { event: name, why: e.to_string() })?;
    parse_format(&text).ok_or(BlkError::Event { event: name, why: "unexpected format".into() })
}

impl Drop for TraceFs {
    fn drop(&mut self) {
        if self.mounted {
            let _ = Command::new("umount").arg(&self.root).status();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUE: &str = "name: block_rq_issue\nID: 2104\nformat:\n\
        \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
        \tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n\
        \tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n\
        \tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n\
        \tfield:unsigned int bytes;\toffset:28;\tsize:4;\tsigned:0;\n\
        \tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n";

    #[test]
    fn a_format_file_gives_the_id_and_the_offsets() {
        let l = parse_format(ISSUE).unwrap();
        assert_eq!(l, Layout { id: 2104, dev: 8, sector: 16, nr_sector: 24, rwbs: 34 });
        assert_eq!(parse_format("ID: 5\n"), None);
    }
}
