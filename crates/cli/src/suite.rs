//! The default suite: what `iomark` with no job runs.
//!
//! Six short jobs on one temporary file in the current directory (or `--directory`):
//! sequential 1 MiB reads and writes at depth 8, random 4 KiB reads and writes at depth 32
//! and at depth 1, with direct I/O where the file system allows it. The engine is the
//! fastest asynchronous one that works here: io_uring, else libaio (only with direct I/O:
//! buffered libaio completes inline), else threadpool; depth N is then `iodepth=N`. With a
//! synchronous engine given on the command line (`--ioengine=psync`), depth N is N jobs
//! (`numjobs`) reported as one group. It prints a short table (MB/s,
//! IOPS, p50 and p99 completion latency) and the fio command line of each row, and removes
//! its file afterwards, also after Ctrl-C. Global options on the command line (`--size`,
//! `--runtime`, `--directory`, …) override the suite's own.

use crate::execute::write_reports;
use crate::loader::FsLoader;
use crate::signals::Control;
use crate::Failure;
use iomark_options::cmdline::{self, ProgramOptions};
use iomark_options::jobfile::RawLine;
use iomark_runner::{self as run, RunOptions};
use iomark_stats::report::RunReport;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

/// One row of the suite.
struct Row {
    title: &'static str,
    name: &'static str,
    rw: &'static str,
    bs: &'static str,
    depth: u32,
}

const ROWS: [Row; 6] = [
    Row { title: "seq read 1M, depth 8", name: "seq-read", rw: "read", bs: "1m", depth: 8 },
    Row { title: "seq write 1M, depth 8", name: "seq-write", rw: "write", bs: "1m", depth: 8 },
    Row {
        title: "rand read 4k, depth 32",
        name: "rand-read-32",
        rw: "randread",
        bs: "4k",
        depth: 32,
    },
    Row {
        title: "rand write 4k, depth 32",
        name: "rand-write-32",
        rw: "randwrite",
        bs: "4k",
        depth: 32,
    },
    Row { title: "rand read 4k, depth 1", name: "rand-read-1", rw: "randread", bs: "4k", depth: 1 },
    Row {
        title: "rand write 4k, depth 1",
        name: "rand-write-1",
        rw: "randwrite",
        bs: "4k",
        depth: 1,
    },
];

const SIZE: u64 = 256 << 20;
const RUNTIME: &str = "3s";

/// Runs the suite; `globals` are the command line's global options.
pub fn run(
    program: &ProgramOptions,
    globals: &[RawLine],
    control: &'static Control,
    out: &mut dyn Write,
) -> Result<ExitCode, Failure> {
    let dir = globals
        .iter()
        .rev()
        .find(|l| l.key == "directory")
        .and_then(|l| l.value.clone())
        .map_or_else(|| PathBuf::from("."), PathBuf::from);
    let path = dir.join(format!(".iomark-suite-{}.tmp", std::process::id()));
    let status_interval = crate::execute::status_interval(program).map_err(|e| match e {
        crate::execute::Failure::Config(m) | crate::execute::Failure::Run(m) => Failure::Usage(m),
        crate::execute::Failure::Output(e) => Failure::Output(e),
    })?;
    control.remove_on_exit(Some(path.clone()));
    let result = run_rows(program, globals, &path, control, status_interval, out);
    let _ = std::fs::remove_file(&path);
    control.remove_on_exit(None);
    result
}

fn run_rows(
    program: &ProgramOptions,
    globals: &[RawLine],
    path: &Path,
    control: &'static Control,
    status_interval: Option<std::time::Duration>,
    out: &mut dyn Write,
) -> Result<ExitCode, Failure> {
    let size = size_override(globals)?.unwrap_or(SIZE);
    let table = program.formats.normal;
    if table {
        writeln!(out, "Laying out {} ({} MiB)...", path.display(), size >> 20)?;
        out.flush()?;
    }
    match iomark_runner::write_out(path, size, &control.stop) {
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => return Ok(ExitCode::SUCCESS),
        r => r.map_err(|e| Failure::Usage(format!("cannot lay out '{}': {e}", path.display())))?,
    }
    let direct = direct_io_works(path);
    let engine = choose_engine(globals, direct);
    if table {
        let depth = if engine.sync { "depth N = N jobs" } else { "depth N = iodepth N" };
        writeln!(
            out,
            "iomark default suite: {} ({} MiB, {}, ioengine={}; {depth})\n",
            path.display(),
            size >> 20,
            if direct { "direct I/O" } else { "buffered I/O: direct I/O not supported here" },
            engine.name,
        )?;
        writeln!(
            out,
            "{:<26} {:>10} {:>10} {:>10} {:>10}",
            "test", "MB/s", "IOPS", "p50 us", "p99 us"
        )?;
    }
    let mut commands = Vec::new();
    let print = iomark_report::PrintOptions::default();
    for row in &ROWS {
        if control.stop.load(Ordering::Relaxed) {
            break;
        }
        let args = row_args(row, path, size, direct, &engine, globals);
        commands.push(format!("fio {}", args.join(" ")));
        let cmd = cmdline::parse(&args).map_err(|e| Failure::Usage(e.to_string()))?;
        let jobs = iomark_options::parse_jobs(&cmd, &FsLoader)
            .map_err(|e| Failure::Usage(e.to_string()))?;
        let plans = run::plans(&jobs).map_err(|e| Failure::Usage(e.to_string()))?;
        // The table has no interim rows: interim reports come in the other formats only.
        let report = crate::status::run_reporting(
            &plans,
            RunOptions::default(),
            control,
            (status_interval, None),
            |tick| match tick {
                crate::status::Tick::Interim(r) if !table => {
                    write_reports(&mut *out, r, program, &print)
                }
                _ => Ok(()),
            },
        )?
        .map_err(|e| Failure::Usage(e.to_string()))?;
        if table {
            write_row(out, row, &report)?;
        } else {
            write_reports(out, &report, program, &print)?;
        }
    }
    if table {
        writeln!(out, "\nThe same jobs with fio:")?;
        for c in &commands {
            writeln!(out, "  {c}")?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// A `--size` among the command line's global options, in bytes.
fn size_override(globals: &[RawLine]) -> Result<Option<u64>, Failure> {
    use iomark_options::table::Kind;
    use iomark_options::value::{self, Ctx, Value};
    let Some(raw) = globals.iter().rev().find(|l| l.key == "size").and_then(|l| l.value.clone())
    else {
        return Ok(None);
    };
    match value::parse(&Kind::Size, &raw, &Ctx::default()) {
        Ok(Value::Size(n)) if n >= 1 << 20 => Ok(Some(n)),
        _ => {
            Err(Failure::Usage(format!("option 'size': the suite needs at least 1m, not '{raw}'")))
        }
    }
}

/// The row as fio command-line arguments (without the program name): the suite's options,
/// with the command line's global options replacing them.
fn row_args(
    row: &Row,
    path: &Path,
    size: u64,
    direct: bool,
    engine: &SuiteEngine,
    globals: &[RawLine],
) -> Vec<String> {
    let sequential = !row.rw.starts_with("rand");
    let clones = engine.sync && row.depth > 1;
    // Sequential clones each take their own slice of the file.
    let slice = if sequential && clones { size / u64::from(row.depth) } else { size };
    let mut opts: Vec<(String, Option<String>)> = Vec::new();
    let mut set = |key: &str, value: Option<String>| match opts.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = value,
        None => opts.push((key.to_string(), value)),
    };
    set("filename", Some(path.display().to_string()));
    set("runtime", Some(RUNTIME.to_string()));
    set("time_based", None);
    set("direct", Some(u8::from(direct).to_string()));
    set("ioengine", Some(engine.name.clone()));
    set("percentile_list", Some("50:99".to_string()));
    for g in globals.iter().filter(|g| !matches!(g.key.as_str(), "directory" | "size")) {
        set(&g.key, g.value.clone());
    }
    set("name", Some(row.name.to_string()));
    set("size", Some(slice.to_string()));
    set("rw", Some(row.rw.to_string()));
    set("bs", Some(row.bs.to_string()));
    if row.depth > 1 && !clones {
        set("iodepth", Some(row.depth.to_string()));
    }
    if clones {
        set("numjobs", Some(row.depth.to_string()));
        set("group_reporting", None);
        if sequential {
            set("offset_increment", Some(slice.to_string()));
        }
    }
    opts.into_iter()
        .map(|(k, v)| match v {
            Some(v) => format!("--{k}={v}"),
            None => format!("--{k}"),
        })
        .collect()
}

fn write_row(out: &mut dyn Write, row: &Row, report: &RunReport) -> std::io::Result<()> {
    let Some(job) = report.jobs.first() else { return Ok(()) };
    let d = if row.rw.contains("write") { 1 } else { 0 };
    let dir = &job.dirs[d];
    let pct = |p: f64| {
        dir.clat
            .percentiles
            .as_ref()
            .and_then(|v| v.iter().find(|(q, _)| (*q - p).abs() < 1e-9))
            .map_or("-".to_string(), |(_, ns)| format!("{:.1}", *ns as f64 / 1000.0))
    };
    writeln!(
        out,
        "{:<26} {:>10.1} {:>10.0} {:>10} {:>10}",
        row.title,
        dir.bw_bytes as f64 / 1e6,
        dir.iops,
        pct(50.0),
        pct(99.0)
    )
}

/// The suite's engine and whether it is synchronous.
struct SuiteEngine {
    name: String,
    sync: bool,
}

/// The command line's `--ioengine`, or the first of io_uring, libaio (direct I/O only) and
/// threadpool that can be set up here.
fn choose_engine(globals: &[RawLine], direct: bool) -> SuiteEngine {
    let options = iomark_engine::EngineOptions { iodepth: 32, direct, ..Default::default() };
    let works = |name: &str| iomark_engine::create(name, &options).ok().map(|e| e.is_sync());
    if let Some(name) =
        globals.iter().rev().find(|l| l.key == "ioengine").and_then(|l| l.value.clone())
    {
        let sync = works(&name).unwrap_or(true);
        return SuiteEngine { name, sync };
    }
    let candidates: &[&str] = if direct { &["io_uring", "libaio"] } else { &["io_uring"] };
    for name in candidates {
        if let Some(sync) = works(name) {
            return SuiteEngine { name: name.to_string(), sync };
        }
    }
    SuiteEngine { name: "threadpool".to_string(), sync: false }
}

/// Whether the file can be opened with `O_DIRECT` (tmpfs, for one, refuses it).
fn direct_io_works(path: &Path) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_DIRECT).open(path).is_ok()
}
