//! iomark's side of the comparison with fio, and the comparison itself: which values fio's
//! `out=` lines and iomark's settings must agree on (see the module documentation of
//! `main.rs`).

use crate::fio::{FioOption, FioRun};
use iomark_options::error::Place;
use iomark_options::jobfile::{self, Loader};
use iomark_options::spec::{JobSpec, Setting};
use iomark_options::table::{self, Kind};
use iomark_options::value::{SizeOrPercent, TimeUnit, Value};
use iomark_options::{cmdline, parse_jobs};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------
// Helpers: iomark's side, and the comparison
// ---------------------------------------------------------------------------------------

/// One section as iomark read it: its name and its assignments, as validated settings.
pub(crate) struct IomarkSection {
    pub(crate) name: String,
    /// `(option, setting)`; the setting is `None` when no job received the assignment (a
    /// global section after the last job).
    pub(crate) assignments: Vec<(String, Option<Setting>)>,
}

/// iomark's sections of a file, each assignment with the setting it became in some job.
pub(crate) fn iomark_sections(
    path: &Path,
    loader: &dyn Loader,
) -> Result<Vec<IomarkSection>, String> {
    let cmd = cmdline::parse([path.as_os_str()]).map_err(|e| e.to_string())?;
    let jobs: Vec<JobSpec> = parse_jobs(&cmd, loader).map_err(|e| e.to_string())?;
    let mut by_place: HashMap<(PathBuf, usize), Setting> = HashMap::new();
    for s in jobs.iter().flat_map(|j| &j.settings) {
        if let Place::File { path, line } = &s.place {
            by_place.entry((path.clone(), *line)).or_insert_with(|| s.clone());
        }
    }
    let raw = jobfile::read(path, loader).map_err(|e| e.to_string())?;
    let sections = raw
        .into_iter()
        .map(|section| {
            let assignments = section
                .lines
                .iter()
                .map(|line| {
                    let name = table::find(&line.key).map_or(line.key.clone(), |d| d.name.into());
                    let setting = match &line.place {
                        Place::File { path, line } => by_place.get(&(path.clone(), *line)).cloned(),
                        _ => None,
                    };
                    (name, setting)
                })
                .collect();
            IomarkSection { name: section.name, assignments }
        })
        .collect();
    Ok(sections)
}

/// fio's `out` values with `ret=0`, as text, by position.
pub(crate) fn given(outs: &[(i64, String)]) -> Vec<Option<&str>> {
    outs.iter().map(|(ret, out)| (*ret == 0).then_some(out.as_str())).collect()
}

pub(crate) fn micros_in(unit: TimeUnit, us: u128) -> u128 {
    match unit {
        TimeUnit::Seconds => us / 1_000_000,
        TimeUnit::Millis => us / 1_000,
        TimeUnit::Micros => us,
    }
}

/// Compares one assignment; `Err` describes a difference. `Ok(false)` when the kind is not
/// compared.
pub(crate) fn compare(fio: &FioOption, setting: &Setting) -> Result<bool, String> {
    let outs = given(&fio.outs);
    let one = || -> Result<&str, String> {
        match outs.as_slice() {
            [Some(out)] => Ok(out),
            _ => Err(format!("fio printed {:?}", fio.outs)),
        }
    };
    let expect = |want: String, got: &str| -> Result<bool, String> {
        if want == got {
            Ok(true)
        } else {
            Err(format!("fio {got}, iomark {want}"))
        }
    };
    let per_dir = |values: Vec<Option<String>>| -> Result<bool, String> {
        for (i, out) in outs.iter().enumerate().take(3) {
            let Some(out) = out else { continue };
            let want = values[i].clone().unwrap_or_else(|| "-".into());
            if want != *out {
                return Err(format!("direction {i}: fio {out}, iomark {want}"));
            }
        }
        Ok(true)
    };
    match (&setting.def.kind, &setting.value) {
        (Kind::Int { .. }, Value::Int(n)) => expect(n.to_string(), one()?),
        (Kind::Size, Value::Size(n)) => expect(n.to_string(), one()?),
        (Kind::Bool, Value::Bool(b)) => expect(u8::from(*b).to_string(), one()?),
        // fio keeps the number of a flag (`stonewall=2`); any but 0 sets it.
        (Kind::Flag, Value::Bool(b)) => {
            let got = one()?;
            expect(u8::from(*b).to_string(), if got == "0" { "0" } else { "1" })
        }
        (Kind::SizeOrPercent, Value::SizeOrPercent(SizeOrPercent::Bytes(n))) => {
            expect(n.to_string(), one()?)
        }
        (Kind::SizeOrPercent, Value::SizeOrPercent(SizeOrPercent::Percent(p))) => {
            if p.fract() != 0.0 {
                return Ok(false);
            }
            expect((u64::MAX - *p as u64).to_string(), one()?)
        }
        (Kind::Time { unit }, Value::Time(d)) => {
            let us = d.as_micros();
            // `thinktime_iotime` is an `OPT_INT` in seconds that fio 3.33 stores (and
            // prints) in microseconds.
            let stored_in_micros = fio.kind == "OPT_STR_VAL_TIME" || fio.name == "thinktime_iotime";
            let want = if stored_in_micros { us } else { micros_in(*unit, us) };
            expect(want.to_string(), one()?)
        }
        (Kind::TimeRange { .. }, Value::TimeRange(a, b)) => {
            let (a, b) = (a.as_micros().to_string(), b.as_micros().to_string());
            match outs.as_slice() {
                [Some(x)] if a == b => expect(a, x),
                [Some(x), Some(y)] => expect(format!("{a}-{b}"), &format!("{x}-{y}")),
                _ => Err(format!("fio printed {:?}, iomark {a}-{b}", fio.outs)),
            }
        }
        (Kind::SizePerDir, Value::SizePerDir(v)) => {
            per_dir(v.iter().map(|d| d.map(|n| n.to_string())).collect())
        }
        (Kind::IntPerDir, Value::IntPerDir(v)) => {
            per_dir(v.iter().map(|d| d.map(|n| n.to_string())).collect())
        }
        (Kind::RangePerDir | Kind::SizeRange, Value::RangePerDir(v))
            if fio.kind == "OPT_STR_VAL" =>
        {
            let Some((lo, hi)) = v[0] else { return Err("no range for reads".into()) };
            match outs.as_slice() {
                [Some(x)] | [Some(x), None] => expect(format!("{lo}-{hi}"), &format!("{x}-{x}")),
                [Some(x), Some(y)] => expect(format!("{lo}-{hi}"), &format!("{x}-{y}")),
                _ => Err(format!("fio printed {:?}", fio.outs)),
            }
        }
        (Kind::FloatList | Kind::Floats, Value::Floats(v)) => {
            let want: Vec<String> = v.iter().map(|x| format!("{x:.6}")).collect();
            let got: Vec<&str> = outs.iter().map(|o| o.unwrap_or("-")).collect();
            expect(want.join(":"), &got.join(":"))
        }
        (
            Kind::Int { .. }
            | Kind::Size
            | Kind::Bool
            | Kind::Flag
            | Kind::SizeOrPercent
            | Kind::Time { .. }
            | Kind::TimeRange { .. }
            | Kind::SizePerDir
            | Kind::IntPerDir
            | Kind::FloatList
            | Kind::Floats,
            other,
        ) => Err(format!("iomark's value {other:?} does not fit the option's kind")),
        _ => Ok(false),
    }
}

/// fio's handled options of a section, without the engine defaults it filled in: for each
/// option, entries handled after `filling default options` are dropped from the front while
/// fio has more of the option than iomark's section assigns.
pub(crate) fn without_defaults<'a>(
    handled: &'a [FioOption],
    mine: &IomarkSection,
) -> Vec<&'a FioOption> {
    let mut extra: HashMap<&str, usize> = HashMap::new();
    for option in handled {
        *extra.entry(option.name.as_str()).or_default() += 1;
    }
    for (name, count) in extra.iter_mut() {
        let ours = mine.assignments.iter().filter(|(n, _)| n == name).count();
        *count = count.saturating_sub(ours);
    }
    handled
        .iter()
        .filter(|o| {
            let left = extra.get_mut(o.name.as_str()).unwrap();
            if o.defaults && *left > 0 {
                *left -= 1;
                return false;
            }
            true
        })
        .collect()
}

/// Every difference between fio's and iomark's reading of one file; counts comparisons.
pub(crate) fn differences(
    fio: &FioRun,
    ours: &[IomarkSection],
    compared: &mut usize,
) -> Vec<String> {
    let mut diffs = Vec::new();
    if fio.sections.len() != ours.len() {
        let theirs: Vec<&str> = fio.sections.iter().map(|s| s.name.as_str()).collect();
        let mine: Vec<&str> = ours.iter().map(|s| s.name.as_str()).collect();
        return vec![format!("sections: fio {theirs:?}, iomark {mine:?}")];
    }
    for (theirs, mine) in fio.sections.iter().zip(ours) {
        let handled = without_defaults(&theirs.handled, mine);
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for option in handled.iter().copied() {
            let n = seen.entry(option.name.as_str()).or_default();
            let nth = mine.assignments.iter().filter(|(name, _)| name == &option.name).nth(*n);
            *n += 1;
            let at = format!("[{}] {}={}", mine.name, option.name, option.ptr);
            match nth {
                None => diffs.push(format!("{at}: fio handled it, iomark has no such assignment")),
                Some((_, None)) => {}
                Some((_, Some(setting))) => match compare(option, setting) {
                    Ok(true) => *compared += 1,
                    Ok(false) => {}
                    Err(why) => diffs.push(format!("{at}: {why}")),
                },
            }
        }
        for (name, _) in &mine.assignments {
            let fio_count = handled.iter().filter(|o| &o.name == name).count();
            let our_count = mine.assignments.iter().filter(|(n, _)| n == name).count();
            if fio_count < our_count && seen.get(name.as_str()).is_none_or(|&n| n == fio_count) {
                diffs.push(format!(
                    "[{}] {name}: iomark has {our_count}, fio {fio_count}",
                    mine.name
                ));
                seen.insert(name, usize::MAX);
            }
        }
    }
    diffs
}
