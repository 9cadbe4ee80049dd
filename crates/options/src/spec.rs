//! [`JobSpec`]: one job as the user wrote it, every value validated, nothing resolved.
//!
//! A job is the list of assignments that reach it, in order: the global options in force when
//! its section began, then its own. The effective value of an option is its last assignment,
//! except for per-direction options (`bs=4k` then `bs=,8k`), where a later assignment only
//! replaces the directions it names, as in fio. Files, sizes and engines are resolved later,
//! by the runner's plan.

use crate::error::{ErrorKind, Place};
use crate::notes::Note;
use crate::table::{self, Kind, OptionDef};
use crate::value::{self, Ctx, Leniency, Value};

/// One validated assignment `option=value`.
#[derive(Debug, Clone)]
pub struct Setting {
    /// The option's row in the table.
    pub def: &'static OptionDef,
    /// The value as written, after keyword substitution; `None` for a bare flag.
    pub raw: Option<String>,
    /// The parsed value.
    pub value: Value,
    /// Where the assignment was written.
    pub place: Place,
    /// Whether it came from a global section (or the command line's global options).
    pub global: bool,
    /// How fio 3.33 reads the value, when it is malformed and fio runs it: what it ignores
    /// and what was used instead of the plain reading.
    pub lenient: Option<Leniency>,
}

impl PartialEq for Setting {
    fn eq(&self, other: &Self) -> bool {
        self.def.name == other.def.name
            && self.raw == other.raw
            && self.value == other.value
            && self.place == other.place
            && self.global == other.global
    }
}

/// One job: a section of a job file or a `--name` on the command line.
#[derive(Debug, Clone, PartialEq)]
pub struct JobSpec {
    /// The job's name: its section name, or the last `name=` assignment.
    pub name: String,
    /// Where the job's section (or `--name`) begins.
    pub place: Place,
    /// Every assignment that applies to the job, globals first, in the order written.
    pub settings: Vec<Setting>,
    /// What fio 3.33 reads its own way in the section headers before the job's options (its
    /// own and those of the global sections it takes options from).
    pub header_notes: Vec<Note>,
    /// What a server puts before the names of the job's files under `directory` when
    /// `unique_filename` is on: the client's address and a dot (`127.0.0.1.`), as fio's
    /// server does; empty outside a server.
    pub client_prefix: String,
}

impl JobSpec {
    /// The effective value of the option called `name` (or an alias), if it was assigned.
    ///
    /// Per-direction values merge across assignments; a direction never assigned is `None`
    /// (the option's default applies to it).
    pub fn value(&self, name: &str) -> Option<Value> {
        self.value_of(table::find(name)?)
    }

    /// The effective value of `def`'s option, if it was assigned (see [`JobSpec::value`]).
    fn value_of(&self, def: &OptionDef) -> Option<Value> {
        let mut result: Option<Value> = None;
        for s in self.settings.iter().filter(|s| s.def.name == def.name) {
            result = Some(match (result, &s.value) {
                (Some(old), new) => merge(old, new),
                (None, new) => new.clone(),
            });
        }
        result
    }

    /// What iomark read of the job as fio 3.33 reads it, malformed as it is: its section
    /// headers' notes, then one note per lenient assignment (a global option's without the
    /// job's name).
    pub fn notes(&self) -> Vec<Note> {
        let mut notes = self.header_notes.clone();
        for s in &self.settings {
            let Some(lenient) = &s.lenient else { continue };
            notes.push(Note {
                place: s.place.clone(),
                job: (!s.global).then(|| self.name.clone()),
                option: Some(s.def.name.to_string()),
                text: lenient.to_string(),
                fatal: ErrorKind::Value(lenient.strict.clone()),
            });
        }
        notes
    }

    /// The effective value of `name`, or the table's default when it was never assigned.
    pub fn value_or_default(&self, name: &str) -> Option<Value> {
        let def = table::find(name)?;
        if let Some(v) = self.value_of(def) {
            return Some(v);
        }
        value::parse(&def.kind, def.default?, &self.ctx()).ok()
    }

    /// How many copies of this job run (`numjobs`, default 1).
    pub fn numjobs(&self) -> u64 {
        match self.value("numjobs") {
            Some(Value::Int(n)) => u64::try_from(n).unwrap_or(0),
            _ => 1,
        }
    }

    /// Whether the job waits for all earlier jobs to finish (`stonewall`).
    pub fn stonewall(&self) -> bool {
        matches!(self.value("stonewall"), Some(Value::Bool(true)))
    }

    /// Whether the job writes or trims (its `rw` is anything but a read), which
    /// `--readonly` refuses.
    pub fn writes(&self) -> bool {
        match self.value("rw") {
            Some(Value::Choice { name, .. }) => !matches!(name, "read" | "randread"),
            _ => false,
        }
    }

    /// The value-parsing context of this job (its `kb_base`).
    pub fn ctx(&self) -> Ctx {
        match self.value("kb_base") {
            Some(Value::Int(1000)) | Some(Value::Choice { name: "1000", .. }) => {
                Ctx { kb_base: 1000 }
            }
            _ => Ctx::default(),
        }
    }

    /// The options that were assigned, each once with its effective value, in table order;
    /// `name` is left out (it is [`JobSpec::name`]).
    pub fn effective(&self) -> Vec<(&'static OptionDef, Value)> {
        let mut out = Vec::new();
        for def in table::all().iter().filter(|d| d.name != "name") {
            if let Some(v) = self.value(def.name) {
                out.push((def, v));
            }
        }
        out
    }
}

/// A later per-direction assignment replaces only the directions it names.
fn merge(old: Value, new: &Value) -> Value {
    fn pick<T: Clone>(old: [Option<T>; 3], new: &[Option<T>; 3]) -> [Option<T>; 3] {
        let mut out = old;
        for (slot, n) in out.iter_mut().zip(new) {
            if n.is_some() {
                *slot = n.clone();
            }
        }
        out
    }
    match (old, new) {
        (Value::SizePerDir(o), Value::SizePerDir(n)) => Value::SizePerDir(pick(o, n)),
        (Value::IntPerDir(o), Value::IntPerDir(n)) => Value::IntPerDir(pick(o, n)),
        (Value::RangePerDir(o), Value::RangePerDir(n)) => Value::RangePerDir(pick(o, n)),
        (Value::BsSplit(o), Value::BsSplit(n)) => Value::BsSplit(pick(o, n)),
        (_, new) => new.clone(),
    }
}

/// Whether `kind` takes values per direction (reads, writes, trims).
pub fn is_per_direction(kind: &Kind) -> bool {
    matches!(kind, Kind::SizePerDir | Kind::IntPerDir | Kind::RangePerDir | Kind::BsSplit)
}

/// One running copy of a job: the spec and its clone number (`$jobnum`, from 0).
#[derive(Debug, Clone, Copy)]
pub struct JobClone<'a> {
    /// The job this is a copy of.
    pub spec: &'a JobSpec,
    /// The clone's number among the job's `numjobs` copies, from 0.
    pub jobnum: u64,
}

/// Every running copy of every job, in order: each job's `numjobs` clones in turn.
pub fn clones(jobs: &[JobSpec]) -> impl Iterator<Item = JobClone<'_>> {
    jobs.iter().flat_map(|spec| (0..spec.numjobs()).map(move |jobnum| JobClone { spec, jobnum }))
}

/// The file name that `filename_format` gives for a job's clone and file number.
///
/// `$jobname`, `$jobnum` and `$filenum` are replaced, as fio does; other text is kept.
/// fio's default format is `$jobname.$jobnum.$filenum`.
pub fn expand_filename_format(format: &str, jobname: &str, jobnum: u64, filenum: u64) -> String {
    format
        .replace("$jobname", jobname)
        .replace("$jobnum", &jobnum.to_string())
        .replace("$filenum", &filenum.to_string())
}

/// The notes of `jobs`, in order, each once (a global option's note is every job's).
pub fn notes_of(jobs: &[JobSpec]) -> Vec<Note> {
    let mut notes: Vec<Note> = Vec::new();
    for job in jobs {
        for note in job.notes() {
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filename_format_expands_every_keyword() {
        assert_eq!(expand_filename_format("$jobname.$jobnum.$filenum", "x", 1, 2), "x.1.2");
        assert_eq!(expand_filename_format("f.$jobnum.$filenum", "x", 0, 3), "f.0.3");
        assert_eq!(expand_filename_format("plain", "x", 0, 0), "plain");
    }

    #[test]
    fn per_direction_assignments_merge() {
        let old = Value::SizePerDir([Some(4096), Some(4096), Some(4096)]);
        let new = Value::SizePerDir([None, Some(8192), None]);
        assert_eq!(merge(old, &new), Value::SizePerDir([Some(4096), Some(8192), Some(4096)]));
        assert_eq!(merge(Value::Int(1), &Value::Int(2)), Value::Int(2));
    }
}
