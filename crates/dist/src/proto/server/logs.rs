//! The log files of a client's jobs (`write_lat_log`, `write_bw_log`, `write_iops_log`,
//! `write_hist_log`), sent back to the client as fio 3.33's server sends them (`IOLOG`)
//! rather than left on the server: the client writes each to `NAME.HOST`.
//!
//! Before the run, each job's logs are redirected into a directory of the session's own,
//! stored compressed (fio's binary records, exact) and with histograms at full resolution;
//! after the run each file is read back, turned into fio's records ([`super::super::logs`])
//! and sent under the name the job would have written, then the directory is removed.
//! `write_iolog` is not redirected: fio 3.33's server writes it on its own side too.

use super::super::logs::{self, Kind};
use iomark_plan::logs::LogPlan;
use iomark_plan::JobPlan;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// One log of one job: what it is called and where it is written meanwhile.
struct Log {
    /// The job's number in the run, from 1.
    job: u32,
    /// The name the job would have given it.
    name: String,
    kind: Kind,
    /// `log_hist_coarseness`, which the client applies.
    coarseness: u32,
    /// Where the run writes it.
    at: PathBuf,
}

/// The logs of a run, written into a directory of their own.
pub(super) struct Redirected {
    dir: PathBuf,
    logs: Vec<Log>,
}

/// Sessions so far, for the names of their directories.
static SESSIONS: AtomicU64 = AtomicU64::new(0);

/// The options of a job's logs by kind: the option's tag, and the suffixes of its files.
const KINDS: [(&str, &[(&str, Kind)]); 4] = [
    ("lat", &[("lat", Kind::Lat), ("slat", Kind::Lat), ("clat", Kind::Lat)]),
    ("bw", &[("bw", Kind::Bw)]),
    ("iops", &[("iops", Kind::Iops)]),
    ("hist", &[("clat_hist", Kind::Hist)]),
];

/// The prefix of the logs of option `tag` in `p`.
fn prefix_of<'a>(p: &'a mut LogPlan, tag: &str) -> &'a mut Option<String> {
    match tag {
        "lat" => &mut p.lat,
        "bw" => &mut p.bw,
        "iops" => &mut p.iops,
        _ => &mut p.hist,
    }
}

/// Redirects the logs of `plans` into a new directory; `None` when no job writes one.
pub(super) fn redirect(plans: &mut [JobPlan]) -> std::io::Result<Option<Redirected>> {
    let writes =
        |p: &LogPlan| p.lat.is_some() || p.bw.is_some() || p.iops.is_some() || p.hist.is_some();
    if !plans.iter().any(|p| writes(&p.logs)) {
        return Ok(None);
    }
    let n = SESSIONS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("iomark-server-{}-{n}", std::process::id()));
    let mut logs = Vec::new();
    for (i, plan) in plans.iter_mut().enumerate().filter(|(_, p)| writes(&p.logs)) {
        let mut named = plan.logs.clone();
        named.store_compressed = false;
        let here = dir.join(i.to_string());
        std::fs::create_dir_all(&here)?;
        let mut moved = plan.logs.clone();
        moved.store_compressed = true;
        moved.compression = None;
        moved.hist_coarseness = 0;
        for (tag, suffixes) in KINDS {
            let Some(given) = prefix_of(&mut named, tag).clone() else { continue };
            let new = here.join(tag).to_string_lossy().into_owned();
            for &(suffix, kind) in suffixes {
                logs.push(Log {
                    job: plan.logs.number as u32,
                    name: named.path(&given, suffix).to_string_lossy().into_owned(),
                    kind,
                    coarseness: plan.logs.hist_coarseness,
                    at: moved.path(&new, suffix),
                });
            }
            *prefix_of(&mut moved, tag) = Some(new);
        }
        plan.logs = moved;
    }
    Ok(Some(Redirected { dir, logs }))
}

impl Redirected {
    /// The `IOLOG` payloads of the logs the run wrote (`zlib`: compressed, as the client
    /// accepts), then the directory removed.
    pub(super) fn take(self, zlib: bool) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for log in &self.logs {
            if let Some(records) = read(&log.at, log.kind) {
                out.push(logs::iolog(log.job, &log.name, log.kind, log.coarseness, &records, zlib));
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        out
    }
}

/// The records of the compressed log at `path`, if the run wrote it.
fn read(path: &Path, kind: Kind) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    let mut text = Vec::new();
    let _ = iomark_runner::inflate(&mut bytes.as_slice(), &mut text);
    Some(logs::records_of_text(&String::from_utf8_lossy(&text), kind))
}
