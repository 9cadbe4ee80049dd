//! `--debug=parse`: what iomark understood of each job, one line per assignment, and the
//! lines fio 3.33's own `--debug=parse` prints for the options that print one, so that
//! scripts that look for them find them.
//!
//! Each value is shown as written and in canonical form: sizes in bytes, times in
//! microseconds (the unit fio's own `--debug=parse` prints), booleans as 0/1, per-direction
//! values as `read,write,trim` with `-` for a direction left at its default.
//!
//! fio's lines, found by running fio 3.33 with `--debug=parse` over the option table (a job
//! per option with typical values; `crates/cli/tests/cli/debug_parse.rs` compares them),
//! besides its trace of its own parser (`handle_option=…`, `ret=0, out=…`), which iomark
//! does not imitate:
//!
//! | option | line |
//! |---|---|
//! | `steadystate` | `set steady state IOPS threshold to 10.000000`, `set steady state BW threshold to 1048576`, `set steady state threshold to 0.010000%` |
//! | `size`, `io_size`, `offset`, `offset_increment` as a percentage | `SET size_percent 20`, `SET io_size_percent 20`, `SET start_offset_percent 20`, `SET offset_increment_percent 20` |
//! | `random_distribution=zoned:…`, `zoned_abs:…` | `zone ddir 0 (nr=2): ` then `\t0: 60/10` per zone, for each direction |
//! | a list of numbers (`percentile_list`, `latency_percentile`) | `  out=99.000000` per number |

use crate::error::Place;
use crate::spec::{JobSpec, Setting};
pub use crate::value::canonical::canonical;
use crate::value::distribution::Distribution;
use crate::value::steady::read_steadystate;
use crate::value::{SizeOrPercent, Value};

/// The lines `--debug=parse` prints for a job: its assignments, each followed by fio's lines
/// for it; a global assignment whose place is in `seen` (described with an earlier job) is
/// left out, and the places described are added to `seen`.
pub fn describe(job: &JobSpec, seen: &mut Vec<Place>) -> Vec<String> {
    let mut out = vec![format!("job '{}' ({})", job.name, job.place)];
    for s in &job.settings {
        if s.global && seen.contains(&s.place) {
            continue;
        }
        seen.push(s.place.clone());
        let raw = s.raw.as_deref().map_or(String::new(), |r| format!("={r}"));
        out.push(format!("  {}{raw} -> {} ({})", s.def.name, canonical(&s.value), s.place));
        out.extend(fio_lines(job, s));
    }
    out
}

/// The lines fio 3.33's `--debug=parse` prints for the assignment `s` of `job` (see the
/// module documentation); none for most options.
pub fn fio_lines(job: &JobSpec, s: &Setting) -> Vec<String> {
    match (s.def.name, &s.value) {
        ("steadystate", Value::Str(text)) => read_steadystate(text, &job.ctx())
            .map(|(ss, _)| vec![ss.fio_debug_line()])
            .unwrap_or_default(),
        // fio reads a fraction of a percent as a number of bytes, and prints nothing.
        (name, Value::SizeOrPercent(SizeOrPercent::Percent(p))) if p.fract() == 0.0 => {
            let field = match name {
                "offset" => "start_offset",
                other => other,
            };
            vec![format!("SET {field}_percent {}", p.trunc() as u64)]
        }
        (_, Value::Distribution(dirs)) => zones(dirs),
        (_, Value::Floats(v)) => v.iter().map(|x| format!("  out={x:.6}")).collect(),
        (_, Value::Float(x)) => vec![format!("  out={x:.6}")],
        _ => Vec::new(),
    }
}

/// fio's dump of zoned distributions: each direction, its zones as `access/size`.
fn zones(dirs: &[Option<Distribution>; 3]) -> Vec<String> {
    let zoned = |d: &Option<Distribution>| {
        matches!(d, Some(Distribution::Zoned(_) | Distribution::ZonedAbs(_)))
    };
    if !dirs.iter().any(zoned) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (ddir, dist) in dirs.iter().enumerate() {
        let entries: Vec<String> = match dist {
            Some(Distribution::Zoned(z)) => {
                z.iter().map(|z| format!("{}/{}", z.access, z.percent.trunc() as u64)).collect()
            }
            Some(Distribution::ZonedAbs(z)) => {
                z.iter().map(|z| format!("{}/{}", z.access, z.bytes)).collect()
            }
            _ => Vec::new(),
        };
        out.push(format!("zone ddir {ddir} (nr={}): ", entries.len()));
        out.extend(entries.iter().enumerate().map(|(i, e)| format!("\t{i}: {e}")));
    }
    out
}
