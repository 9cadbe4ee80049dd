//! Turns raw sections into validated [`JobSpec`]s, the way fio 3.33 orders and combines them.
//!
//! - Command-line jobs (`--name=`) come first, whatever their position among job files;
//!   command-line options before the first `--name` are global for them.
//! - Those command-line globals also apply to the jobs of the *first* job file, and not to
//!   later files: fio 3.33 behaves so (`fio --size=1m a.fio b.fio` gives `size` to a's jobs
//!   only), and iomark follows it.
//! - Within a job file, a global section applies to the jobs after it; the first job of every
//!   job file after the first gets an implicit `stonewall`.
//! - `--section=NAME` keeps only the job sections so named; global sections still apply.
//! - Within one section `kb_base` is applied before any other value is parsed, as in fio.

use crate::error::{ErrorKind, ParseError, Place};
use crate::jobfile::{RawLine, RawSection};
use crate::notes::Note;
use crate::spec::{JobSpec, Setting};
use crate::table::{self, Support};
use crate::value::{self, Ctx, Value};

/// The engines iomark runs today; other `ioengine` values are refused as not supported yet.
pub const SUPPORTED_ENGINES: &[&str] = &[
    "null",
    "sync",
    "psync",
    "vsync",
    "pvsync",
    "pvsync2",
    "libaio",
    "posixaio",
    "mmap",
    "threadpool",
    "guasi",
    "io_uring",
    "splice",
    "ftruncate",
    "falloc",
    "filecreate",
    "filestat",
    "filedelete",
    "nbd",
    "net",
    "netsplice",
    "cpuio",
    "exec",
    "e4defrag",
];

/// fio's default engine.
pub const DEFAULT_ENGINE: &str = "psync";

/// Everything the jobs are built from.
#[derive(Debug, Default)]
pub struct Sources {
    /// Command-line options given before the first `--name`.
    pub cli_globals: Vec<RawLine>,
    /// The command line's `--name` jobs, in order.
    pub cli_jobs: Vec<RawSection>,
    /// Each job file's sections, in command-line order.
    pub files: Vec<Vec<RawSection>>,
    /// `--section` names; empty for all sections.
    pub only_sections: Vec<String>,
}

/// Builds the jobs, validating every assignment.
pub fn build(sources: &Sources) -> Result<Vec<JobSpec>, ParseError> {
    for name in &sources.only_sections {
        let found = sources.files.iter().flatten().any(|s| !s.global && &s.name == name);
        if !found {
            return Err(ParseError::new(
                Place::CommandLine { arg: 0 },
                ErrorKind::NoSuchSection { name: name.clone() },
            ));
        }
    }
    let cli_globals = globals("global", &[], &sources.cli_globals)?;
    let mut jobs = Vec::new();
    for section in &sources.cli_jobs {
        jobs.push(job(section, (&cli_globals, &[]), false)?);
    }
    for (index, file) in sources.files.iter().enumerate() {
        let mut globals = if index == 0 { cli_globals.clone() } else { Vec::new() };
        // The notes of the global sections' headers, which every later job carries.
        let mut global_notes = Vec::new();
        let mut first_in_file = true;
        for section in file {
            if section.global {
                let added = self::globals(&section.name, &globals, &section.lines)?;
                globals.extend(added);
                global_notes.extend(header_note(section, None));
                continue;
            }
            let selected = sources.only_sections.is_empty()
                || sources.only_sections.iter().any(|s| s == &section.name);
            if !selected {
                continue;
            }
            jobs.push(job(section, (&globals, &global_notes), index > 0 && first_in_file)?);
            first_in_file = false;
        }
    }
    Ok(jobs)
}

/// The note of a section's header, if fio reads it its own way, in job `job` if it is one.
fn header_note(section: &RawSection, job: Option<&str>) -> Option<Note> {
    let note = section.header_note.as_ref()?;
    Some(Note {
        place: section.place.clone(),
        job: job.map(str::to_string),
        option: None,
        text: note.text.clone(),
        fatal: ErrorKind::BadSection { header: note.header.clone() },
    })
}

/// One job from its section and the globals in force (their settings, and the notes of
/// their headers).
fn job(
    section: &RawSection,
    (globals, global_notes): (&[Setting], &[Note]),
    implicit_stonewall: bool,
) -> Result<JobSpec, ParseError> {
    let mut all = globals.to_vec();
    if implicit_stonewall {
        if let Some(def) = table::find("stonewall") {
            all.push(Setting {
                def,
                raw: None,
                value: Value::Bool(true),
                place: Place::Implicit,
                global: false,
                lenient: None,
            });
        }
    }
    let own = settings(&section.name, &all, &section.lines)?;
    all.extend(own);
    let name = match all.iter().rev().find(|s| s.def.name == "name") {
        Some(Setting { value: Value::Str(n), .. }) => n.clone(),
        _ => section.name.clone(),
    };
    let mut header_notes = global_notes.to_vec();
    header_notes.extend(header_note(section, Some(&section.name)));
    let place = section.place.clone();
    let client_prefix = String::new();
    let spec = JobSpec { name, place, settings: all, header_notes, client_prefix };
    check_engine_options(&spec)?;
    Ok(spec)
}

/// Parses the lines of a global section; the settings are marked global.
fn globals(
    section: &str,
    earlier: &[Setting],
    lines: &[RawLine],
) -> Result<Vec<Setting>, ParseError> {
    let mut out = settings(section, earlier, lines)?;
    for s in &mut out {
        s.global = true;
    }
    Ok(out)
}

/// Parses `lines` in the context of the `earlier` settings (for `kb_base`).
fn settings(job: &str, earlier: &[Setting], lines: &[RawLine]) -> Result<Vec<Setting>, ParseError> {
    let ctx = section_ctx(job, earlier, lines)?;
    lines.iter().map(|line| setting(job, line, &ctx)).collect()
}

/// The context of a section: its own `kb_base` if it sets one, else the inherited one.
fn section_ctx(job: &str, earlier: &[Setting], lines: &[RawLine]) -> Result<Ctx, ParseError> {
    let mut ctx = Ctx::default();
    for s in earlier.iter().filter(|s| s.def.name == "kb_base") {
        ctx = ctx_of(&s.value);
    }
    for line in lines.iter().filter(|l| table::find(&l.key).is_some_and(|d| d.name == "kb_base")) {
        ctx = ctx_of(&setting(job, line, &Ctx::default())?.value);
    }
    Ok(ctx)
}

fn ctx_of(kb_base: &Value) -> Ctx {
    match kb_base {
        Value::Int(1000) | Value::Choice { name: "1000", .. } => Ctx { kb_base: 1000 },
        _ => Ctx::default(),
    }
}

/// One validated assignment.
pub fn setting(job: &str, line: &RawLine, ctx: &Ctx) -> Result<Setting, ParseError> {
    let fail = |kind| ParseError::new(line.place.clone(), kind).in_job(job).for_option(&line.key);
    let Some(def) = table::find(&line.key) else {
        return Err(fail(ErrorKind::UnknownOption {
            suggestion: crate::suggest::option(&line.key),
        }));
    };
    if def.support == Support::NotYet {
        return Err(fail(ErrorKind::NotSupported));
    }
    let mut lenient = None;
    let value = match (&line.value, def.kind) {
        (None, table::Kind::Flag) => Value::Bool(true),
        // fio refuses `stonewall=` with nothing after the `=`.
        (Some(raw), table::Kind::Flag) if raw.trim().is_empty() => {
            return Err(fail(ErrorKind::Value(value::ValueError::Missing)))
        }
        // fio's log options without a value take the job's name; with an empty one,
        // fio 3.33 says the option "requires an argument".
        (None, table::Kind::Str) if def.value_optional => Value::Str(String::new()),
        (Some(raw), table::Kind::Str) if def.value_optional && raw.trim().is_empty() => {
            return Err(fail(ErrorKind::Value(value::ValueError::Missing)))
        }
        (None, _) => return Err(fail(ErrorKind::Value(value::ValueError::Missing))),
        (Some(raw), kind) => {
            // fio reads a blank after `=` with numbers only (see `value::lenient`); iomark
            // reads the other kinds without it.
            let raw = if blank_matters(&kind) { raw.as_str() } else { raw.trim_start() };
            let read = value::read(&kind, raw, ctx).map_err(|e| fail(ErrorKind::Value(e)))?;
            lenient = read.1;
            read.0
        }
    };
    // The string options whose grammar is checked here, with fio's leniency.
    match (def.name, &value) {
        ("steadystate", Value::Str(text)) => {
            let read = value::steady::read_steadystate(text, ctx);
            lenient = read.map_err(|e| fail(ErrorKind::Value(e)))?.1;
        }
        ("cmdprio_bssplit", Value::Str(text)) if !text.is_empty() => {
            let read = value::cmdprio::read_cmdprio_bssplit(text, ctx);
            lenient = read.map_err(|e| fail(ErrorKind::Value(e)))?.1;
        }
        ("ignore_error", Value::Str(text)) => {
            let read = value::errors::read_ignore_error(text);
            lenient = read.map_err(|e| fail(ErrorKind::Value(e)))?.1;
        }
        ("max_latency", Value::Str(text)) => {
            let read = value::latency::read_max_latency(text, ctx);
            lenient = read.map_err(|e| fail(ErrorKind::Value(e)))?.1;
        }
        _ => {}
    }
    if def.name == "ioengine" {
        check_engine(&value).map_err(fail)?;
    }
    let place = line.place.clone();
    Ok(Setting { def, raw: line.value.clone(), value, place, global: false, lenient })
}

/// Whether fio reads a value of `kind` differently after a blank: numbers lose their unit.
fn blank_matters(kind: &table::Kind) -> bool {
    use table::Kind as K;
    matches!(
        kind,
        K::Int { .. }
            | K::Size
            | K::SizeOrPercent
            | K::Time { .. }
            | K::TimeRange { .. }
            | K::SizePerDir
            | K::IntPerDir
            | K::RangePerDir
            | K::SizeRange
            | K::BsSplit
    )
}

fn check_engine(value: &Value) -> Result<(), ErrorKind> {
    let name = match value {
        Value::Choice { name, .. } => *name,
        Value::Str(s) => s.as_str(),
        _ => return Ok(()),
    };
    if SUPPORTED_ENGINES.contains(&name) {
        return Ok(());
    }
    let supported = SUPPORTED_ENGINES.join(", ");
    Err(ErrorKind::Usage(match crate::compat::engine_reason(name) {
        Some(why) => format!(
            "engine '{name}' is not supported: {why} (docs/compatibility.md; supported: \
             {supported})"
        ),
        None => format!("engine '{name}' is not supported yet (supported: {supported})"),
    }))
}

/// An engine's own options only make sense with that engine, as in fio.
fn check_engine_options(spec: &JobSpec) -> Result<(), ParseError> {
    let engine = match spec.value("ioengine") {
        Some(Value::Choice { name, .. }) => name.to_string(),
        Some(Value::Str(s)) => s,
        _ => DEFAULT_ENGINE.to_string(),
    };
    for s in spec.settings.iter().filter(|s| !s.def.engines.is_empty()) {
        if !s.def.engines.contains(&engine.as_str()) {
            let msg = format!(
                "belongs to ioengine {}, but the job uses ioengine={engine}",
                s.def.engines.join(" or ")
            );
            return Err(ParseError::new(s.place.clone(), ErrorKind::Usage(msg))
                .in_job(&spec.name)
                .for_option(s.def.name));
        }
    }
    Ok(())
}
