//! fio 3.33's `json` output, byte for byte: the same keys in the same order, the same value
//! types, floats with six decimals, `" : "` between key and value and two spaces of
//! indentation per level.
//!
//! Two differences are deliberate: `"fio version"` names iomark and the fio release it
//! follows (`"iomark-0.1.0 (fio-3.33)"`), so that tools which look for `fio-3.33` in it still
//! find it, and an `"iomark version"` key follows it with iomark's own version. When the
//! run has notes, an `"iomark notes"` list of strings follows that (the lines the text
//! reports print after `note: `), so that standard output stays one JSON document. Under
//! `--profile=act`, an `"act"` object holds the table and verdict that fio prints as text.
//!
//! [`json_plus`] is fio's `json+`: the same document, where every latency object that has
//! percentiles (`clat_ns`, `lat_ns` and `slat_ns` when their percentiles are on, the `sync`
//! `lat_ns`) also has a `"bins"` object after `"percentile"`: one `"value" : count` entry
//! per non-empty histogram bucket, in increasing value, the value in nanoseconds. iomark's
//! buckets are finer than fio's (512 per power of two instead of 64), so there are more
//! of them; the layout is fio's and fio's `fio_jsonplus_clat2csv` reads it.
//!
//! The document is built as a small ordered tree and written by one function, so the layout
//! rules live in one place. fio escapes only `"` and `\` in strings; so does this writer, and
//! it also escapes control characters, which fio writes raw (its document is then no JSON).

use std::fmt::Write as _;

use iomark_stats::act::{ActSlice, BOUNDS_MS};
use iomark_stats::block::BlockLatencyReport;
use iomark_stats::report::{DirReport, DiskReport, JobReport, LatStats, RunReport, SteadyReport};

/// A JSON value as fio writes it.
enum Value {
    /// An integer.
    Int(i128),
    /// A float, written with six decimals (`%f`).
    Float(f64),
    /// A string.
    Str(String),
    /// An object with its keys in order.
    Object(Vec<(String, Value)>),
    /// An array.
    Array(Vec<Value>),
}

/// Builds an object from `(key, value)` pairs.
fn object<K: Into<String>>(entries: impl IntoIterator<Item = (K, Value)>) -> Value {
    Value::Object(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

fn int(v: impl Into<i128>) -> Value {
    Value::Int(v.into())
}

fn float(v: f64) -> Value {
    Value::Float(v)
}

fn string(v: &str) -> Value {
    Value::Str(v.to_owned())
}

/// fio's JSON document for a run, ending with a newline.
pub fn json(report: &RunReport) -> String {
    document(report, Bins::Leave)
}

/// fio's `json+` document for a run: [`json`] with the histogram `bins` (see the module
/// doc), ending with a newline.
pub fn json_plus(report: &RunReport) -> String {
    document(report, Bins::Show)
}

/// Whether latency objects carry their histogram bins (json+) or not (json).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bins {
    Leave,
    Show,
}

/// The same document on one line, in strict JSON (control characters escaped, a float that
/// is not finite written `null`), for `--output-format=json-stream`; ends with a newline.
pub fn json_line(report: &RunReport, plus: bool) -> String {
    let bins = if plus { Bins::Show } else { Bins::Leave };
    let mut out = String::new();
    write_laid_out(&mut out, &tree(report, bins), 0, Layout::Line);
    out.push('\n');
    out
}

fn document(report: &RunReport, bins: Bins) -> String {
    let mut out = String::new();
    write_value(&mut out, &tree(report, bins), 0);
    out.push('\n');
    out
}

/// The document as a tree.
fn tree(report: &RunReport, bins: Bins) -> Value {
    let mut top: Vec<(String, Value)> = vec![
        (
            "fio version".into(),
            Value::Str(format!("iomark-{} ({})", report.iomark_version, report.fio_compat)),
        ),
        ("iomark version".into(), string(&report.iomark_version)),
    ];
    if !report.notes.is_empty() {
        let notes = report.notes.iter().map(string).collect();
        top.push(("iomark notes".into(), Value::Array(notes)));
    }
    top.extend([
        ("timestamp".into(), int(report.timestamp)),
        ("timestamp_ms".into(), int(report.timestamp_ms)),
        ("time".into(), string(&report.time)),
    ]);
    if !report.global_options.is_empty() {
        top.push(("global options".into(), options(&report.global_options)));
    }
    if report.clients.is_empty() {
        top.push(("jobs".into(), Value::Array(report.jobs.iter().map(|j| job(j, bins)).collect())));
    } else {
        top.push(("client_stats".into(), client_stats(report, bins)));
    }
    // Under `--client`, every server's disks, each with the host and port it came from.
    let mut disks: Vec<Value> = report.disks.iter().map(disk).collect();
    for c in &report.clients {
        disks.extend(c.disks.iter().map(|d| with_host(disk(d), &c.hostname, c.port)));
    }
    if !disks.is_empty() {
        top.push(("disk_util".into(), Value::Array(disks)));
    }
    if let Some(idle) = &report.cpu_idleness {
        let mut entries = vec![("system".to_string(), float(idle.system))];
        for (cpu, share) in idle.percpu.iter().enumerate() {
            entries.push((format!("cpu-{cpu}"), float(*share)));
        }
        entries.push(("unit_mean".into(), float(idle.unit_mean_us)));
        entries.push(("unit_stddev".into(), float(idle.unit_stddev_us)));
        top.push(("cpu_idleness".into(), Value::Object(entries)));
    }
    // iomark's: `--profile=act`'s table and verdict (fio 3.33 prints them as text only).
    if let Some(act) = &report.act {
        let slice = |s: &ActSlice| {
            let over = BOUNDS_MS.iter().zip(&s.pct).map(|(ms, &p)| (ms.to_string(), float(p)));
            object([("slice", int(s.slice)), ("ios", int(s.ios)), ("over_ms_pct", object(over))])
        };
        let slices = Value::Array(act.slices.iter().map(slice).collect());
        top.push(("act".into(), object([("slices", slices), ("result", string(act.verdict()))])));
    }
    // iomark's: under MPI, each rank's own jobs beside the merged ones.
    if !report.ranks.is_empty() {
        let rank = |r: &iomark_stats::report::RankReport| {
            object([
                ("rank", int(r.rank)),
                ("hostname", string(&r.hostname)),
                ("jobs", Value::Array(r.jobs.iter().map(|j| job(j, bins)).collect())),
            ])
        };
        top.push(("ranks".into(), Value::Array(report.ranks.iter().map(rank).collect())));
    }
    Value::Object(top)
}

/// `value` (an object) with the host and port it came from, as fio's client adds them.
fn with_host(value: Value, host: &str, port: u16) -> Value {
    match value {
        Value::Object(mut entries) => {
            entries.push(("hostname".into(), string(host)));
            entries.push(("port".into(), int(port)));
            Value::Object(entries)
        }
        other => other,
    }
}

/// fio's `client_stats` (under `--client`): each server's jobs, then the merge of all of
/// them ("All clients"), each with the host and port it came from (the last server's for
/// the merge, as fio).
fn client_stats(report: &RunReport, bins: Bins) -> Value {
    let mut all = Vec::new();
    for c in &report.clients {
        all.extend(c.jobs.iter().map(|j| with_host(job(j, bins), &c.hostname, c.port)));
    }
    if let Some(last) = report.clients.last() {
        all.extend(report.jobs.iter().map(|j| with_host(job(j, bins), &last.hostname, last.port)));
    }
    Value::Array(all)
}

fn options(list: &[(String, String)]) -> Value {
    object(list.iter().map(|(k, v)| (k.clone(), string(v))))
}

/// fio reports a finished job's ETA as the largest `int`.
const FINISHED_ETA: i32 = i32::MAX;

fn job(job: &JobReport, bins: Bins) -> Value {
    let mut entries: Vec<(String, Value)> = vec![
        ("jobname".into(), string(&job.name)),
        ("groupid".into(), int(job.groupid)),
        ("error".into(), int(job.error)),
        // fio 3.33 reports 0 for a job that watched for steady state, attained or not.
        ("eta".into(), int(if job.steadystate.is_some() { 0 } else { FINISHED_ETA })),
        ("elapsed".into(), int(job.elapsed_s)),
    ];
    if !job.options.is_empty() {
        entries.push(("job options".into(), options(&job.options)));
    }
    // unified_rw_reporting: fio 3.33 leaves out the directions and `sync` under `mixed`,
    // and puts `mixed` after `sync` under `both`.
    if job.unified_rw.directions() {
        for (name, dir) in iomark_stats::report::DIRECTIONS.iter().zip(&job.dirs) {
            entries.push(((*name).into(), direction(dir, bins)));
        }
        let sync = [("total_ios", int(job.sync.total_ios)), ("lat_ns", lat(&job.sync.lat, bins))];
        entries.push(("sync".into(), object(sync)));
    }
    if let Some(mixed) = &job.mixed {
        entries.push(("mixed".into(), direction(mixed, bins)));
    }
    let rest = [
        ("job_runtime", int(job.runtime_ms)),
        ("usr_cpu", float(job.usr_cpu)),
        ("sys_cpu", float(job.sys_cpu)),
        ("ctx", int(job.ctx)),
        ("majf", int(job.majf)),
        ("minf", int(job.minf)),
        ("iodepth_level", shares(&DEPTH_KEYS, &job.iodepth_level)),
        ("iodepth_submit", shares(&BATCH_KEYS, &job.iodepth_submit)),
        ("iodepth_complete", shares(&BATCH_KEYS, &job.iodepth_complete)),
        ("latency_ns", shares(&LAT_KEYS, &job.latency_ns)),
        ("latency_us", shares(&LAT_KEYS, &job.latency_us)),
        ("latency_ms", shares(&LAT_MS_KEYS, &job.latency_ms)),
    ];
    entries.extend(rest.into_iter().map(|(k, v)| (k.to_owned(), v)));
    // continue_on_error: the error count, between the latency buckets and the target.
    if let Some(e) = &job.errors {
        entries.push(("total_err".into(), int(e.total_err)));
        entries.push(("first_error".into(), int(e.first_error)));
    }
    let target = [
        ("latency_depth", int(job.latency_target.depth)),
        ("latency_target", int(job.latency_target.target)),
        ("latency_percentile", float(job.latency_target.percentile)),
        ("latency_window", int(job.latency_target.window)),
    ];
    entries.extend(target.into_iter().map(|(k, v)| (k.to_owned(), v)));
    if let Some(description) = job.description.as_deref().filter(|d| !d.is_empty()) {
        entries.push(("desc".into(), string(description)));
    }
    if let Some(ss) = &job.steadystate {
        entries.push(("steadystate".into(), steadystate(ss)));
    }
    if let Some(b) = &job.block_latency {
        entries.push(("block_latency".into(), block_latency(b, bins)));
    }
    if !job.notes.is_empty() {
        let notes = job.notes.iter().map(|n| string(n)).collect();
        entries.push(("iomark notes".into(), Value::Array(notes)));
    }
    Value::Object(entries)
}

/// iomark's `block_latency` object: per direction with matched I/Os, each segment as a
/// latency object (`pre_ns`, `queue_ns`, `device_ns`, `completion_ns`); then the counts,
/// the clock map and the notes.
fn block_latency(b: &BlockLatencyReport, bins: Bins) -> Value {
    let mut entries: Vec<(String, Value)> = Vec::new();
    for (name, dir) in ["read", "write", "trim"].iter().zip(&b.dirs) {
        let Some(dir) = dir else { continue };
        let segs = dir.segments().map(|(s, stats)| (format!("{}_ns", s.name()), lat(stats, bins)));
        entries.push((name.to_string(), object(segs)));
    }
    let c = &b.counts;
    let counts = [
        ("ios", c.ios),
        ("matched", c.matched),
        ("unmatched", c.unmatched),
        ("cache_hits", c.cache_hits),
        ("merged", c.merged),
        ("split", c.split),
        ("inserted", c.inserted),
        ("records", c.records),
        ("lost_records", c.lost_records),
        ("reordered", c.reordered),
        ("reorder_max_ns", c.reorder_max_ns),
        ("clock_points", b.clock.points),
    ];
    entries.extend(counts.into_iter().map(|(k, v)| (k.to_owned(), int(v))));
    entries.push(("clock_max_rate_ppm".into(), float(b.clock.max_rate_ppm)));
    entries.push(("notes".into(), Value::Array(b.notes.iter().map(|n| string(n)).collect())));
    Value::Object(entries)
}

/// fio's `steadystate` object: the criterion is a string, with `%` for a percentage.
fn steadystate(ss: &SteadyReport) -> Value {
    let list = |v: &[u64]| Value::Array(v.iter().map(|&x| int(x)).collect());
    let percent = if ss.percent { "%" } else { "" };
    object([
        ("ss", string(&ss.ss)),
        ("duration", int(ss.duration_s)),
        ("attained", int(u8::from(ss.attained))),
        ("criterion", Value::Str(format!("{:.6}{percent}", ss.criterion))),
        ("max_deviation", float(ss.max_deviation)),
        ("slope", float(ss.slope)),
        (
            "data",
            object([
                ("bw_mean", int(ss.bw_mean)),
                ("iops_mean", int(ss.iops_mean)),
                ("iops", list(&ss.iops)),
                ("bw", list(&ss.bw)),
            ]),
        ),
    ])
}

const DEPTH_KEYS: [&str; 7] = ["1", "2", "4", "8", "16", "32", ">=64"];
const BATCH_KEYS: [&str; 7] = ["0", "4", "8", "16", "32", "64", ">=64"];
const LAT_KEYS: [&str; 10] = ["2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"];
const LAT_MS_KEYS: [&str; 12] =
    ["2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000"];

fn shares(keys: &[&str], values: &[f64]) -> Value {
    object(keys.iter().zip(values).map(|(k, v)| (*k, float(*v))))
}

/// One direction. `io_kbytes` and `bw` are the byte figures in KiB, truncated, whatever
/// `kb_base` says.
///
/// A rate-limited job's direction also has iomark's `lat_ns_corrected` after `lat_ns`: the
/// latency from each I/O's intended start (see [`DirReport::lat_corrected`]).
fn direction(dir: &DirReport, bins: Bins) -> Value {
    let mut entries = vec![
        ("io_bytes", int(dir.io_bytes)),
        ("io_kbytes", int(dir.io_bytes / 1024)),
        ("bw_bytes", int(dir.bw_bytes)),
        ("bw", int(dir.bw_bytes / 1024)),
        ("iops", float(dir.iops)),
        ("runtime", int(dir.runtime_ms)),
        ("total_ios", int(dir.total_ios)),
        ("short_ios", int(dir.short_ios)),
        ("drop_ios", int(dir.drop_ios)),
        ("slat_ns", lat(&dir.slat, bins)),
        ("clat_ns", lat(&dir.clat, bins)),
        ("lat_ns", lat(&dir.lat, bins)),
    ];
    if let Some(corrected) = &dir.lat_corrected {
        entries.push(("lat_ns_corrected", lat(corrected, bins)));
    }
    // cmdprio_*: the latency of each priority, between the latencies and the samples.
    let prios = (!dir.prios.is_empty()).then(|| {
        let list = dir.prios.iter().map(|p| {
            let key = if p.total_latency { "lat_ns" } else { "clat_ns" };
            object([
                ("prioclass", int(p.prioclass)),
                ("prio", int(p.prio)),
                (key, lat(&p.lat, bins)),
            ])
        });
        ("prios", Value::Array(list.collect()))
    });
    entries.extend(prios);
    entries.extend([
        ("bw_min", int(dir.bw_samples.min)),
        ("bw_max", int(dir.bw_samples.max)),
        ("bw_agg", float(dir.bw_samples.agg_pct)),
        ("bw_mean", float(dir.bw_samples.mean)),
        ("bw_dev", float(dir.bw_samples.stddev)),
        ("bw_samples", int(dir.bw_samples.samples)),
        ("iops_min", int(dir.iops_samples.min)),
        ("iops_max", int(dir.iops_samples.max)),
        ("iops_mean", float(dir.iops_samples.mean)),
        ("iops_stddev", float(dir.iops_samples.stddev)),
        ("iops_samples", int(dir.iops_samples.samples)),
    ]);
    object(entries)
}

/// A latency object; its `percentile` object appears only when there are samples and
/// percentiles, keyed by the percentile with six decimals (`"99.900000"`), and in json+ the
/// `bins` object follows it (fio 3.33 shows bins exactly where it shows percentiles).
fn lat(stats: &LatStats, bins: Bins) -> Value {
    let mut entries = vec![
        ("min", int(stats.min)),
        ("max", int(stats.max)),
        ("mean", float(stats.mean)),
        ("stddev", float(stats.stddev)),
        ("N", int(stats.n)),
    ];
    if let Some(list) = stats.percentiles.as_deref() {
        if stats.n > 0 && !list.is_empty() {
            let pct = list.iter().map(|(p, v)| (format!("{p:.6}"), int(*v)));
            entries.push(("percentile", object(pct)));
            if bins == Bins::Show {
                let list = stats.bins.as_deref().unwrap_or_default();
                let counts = list.iter().map(|(value, count)| (value.to_string(), int(*count)));
                entries.push(("bins", object(counts)));
            }
        }
    }
    object(entries)
}

fn disk(disk: &DiskReport) -> Value {
    let mut entries = vec![
        ("name", string(&disk.name)),
        ("read_ios", int(disk.ios[0])),
        ("write_ios", int(disk.ios[1])),
        ("read_merges", int(disk.merges[0])),
        ("write_merges", int(disk.merges[1])),
        ("read_ticks", int(disk.ticks[0])),
        ("write_ticks", int(disk.ticks[1])),
        ("in_queue", int(disk.in_queue)),
        ("util", float(disk.util)),
    ];
    // fio 3.33's keys, "aggr_write_merge" (singular) included.
    if let Some(a) = &disk.aggr {
        entries.extend([
            ("aggr_read_ios", int(a.ios[0])),
            ("aggr_write_ios", int(a.ios[1])),
            ("aggr_read_merges", int(a.merges[0])),
            ("aggr_write_merge", int(a.merges[1])),
            ("aggr_read_ticks", int(a.ticks[0])),
            ("aggr_write_ticks", int(a.ticks[1])),
            ("aggr_in_queue", int(a.in_queue)),
            ("aggr_util", float(a.util)),
        ]);
    }
    object(entries)
}

/// Writes `value` as fio does: a container opens on the current line, its members go one
/// per line two spaces further in, separated by commas, and it closes on a line of its own.
/// How a document is laid out: fio's indented layout, or all on one line (json-stream).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    Fio,
    Line,
}

fn write_value(out: &mut String, value: &Value, indent: usize) {
    write_laid_out(out, value, indent, Layout::Fio);
}

fn write_laid_out(out: &mut String, value: &Value, indent: usize, layout: Layout) {
    // Between members: fio's newline and indentation, or nothing on one line.
    let next = |out: &mut String, first: bool, indent: usize| match layout {
        Layout::Fio => {
            out.push_str(if first { "\n" } else { ",\n" });
            push_indent(out, indent);
        }
        Layout::Line if !first => out.push(','),
        Layout::Line => {}
    };
    match value {
        Value::Int(v) => {
            let _ = write!(out, "{v}");
        }
        Value::Float(v) if layout == Layout::Line && !v.is_finite() => out.push_str("null"),
        Value::Float(v) => {
            let _ = write!(out, "{v:.6}");
        }
        Value::Str(s) if layout == Layout::Line => write_escaped(out, s),
        Value::Str(s) => write_string(out, s),
        Value::Object(entries) => {
            out.push('{');
            for (i, (key, member)) in entries.iter().enumerate() {
                next(out, i == 0, indent + 2);
                if layout == Layout::Line {
                    write_escaped(out, key);
                    out.push(':');
                } else {
                    write_string(out, key);
                    out.push_str(" : ");
                }
                write_laid_out(out, member, indent + 2, layout);
            }
            if layout == Layout::Fio {
                out.push('\n');
                push_indent(out, indent);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                next(out, i == 0, indent + 2);
                write_laid_out(out, item, indent + 2, layout);
            }
            if layout == Layout::Fio {
                out.push('\n');
                push_indent(out, indent);
            }
            out.push(']');
        }
    }
}

/// A string as strict JSON writes it (control characters escaped too), for one-line
/// documents that must parse on their own.
fn write_escaped(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn push_indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// A string as fio writes one, `"` and `\` escaped; a control character (a tab in a note or
/// an option's value), which fio writes raw and so breaks its document, is escaped as JSON
/// requires (`\t`, `\u0001`).
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() && (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_with_members_has_fios_aggr_keys() {
        use iomark_stats::report::DiskAggr;
        let member =
            DiskReport { name: "sdb".into(), ios: [3, 4], util: 50.0, ..Default::default() };
        let dm = DiskReport {
            name: "dm-1".into(),
            aggr: DiskAggr::of(&[&member]),
            ..Default::default()
        };
        let mut out = String::new();
        write_value(&mut out, &disk(&dm), 0);
        let keys: Vec<&str> =
            out.lines().filter_map(|l| l.trim().strip_prefix('"')?.split('"').next()).collect();
        assert_eq!(
            keys[9..],
            [
                "aggr_read_ios",
                "aggr_write_ios",
                "aggr_read_merges",
                "aggr_write_merge",
                "aggr_read_ticks",
                "aggr_write_ticks",
                "aggr_in_queue",
                "aggr_util"
            ]
        );
        assert!(out.contains("\"aggr_write_ios\" : 4,"), "{out}");
        let mut plain = String::new();
        write_value(&mut plain, &disk(&member), 0);
        assert!(!plain.contains("aggr"), "{plain}");
    }

    #[test]
    fn layout_is_fios() {
        let value = object([
            ("a", int(1)),
            ("b", object([("c", float(0.5)), ("d", string("x\"y\\z"))])),
            ("e", Value::Array(vec![object([("f", int(-2))])])),
        ]);
        let mut out = String::new();
        write_value(&mut out, &value, 0);
        assert_eq!(
            out,
            "{\n  \"a\" : 1,\n  \"b\" : {\n    \"c\" : 0.500000,\n    \"d\" : \"x\\\"y\\\\z\"\n  },\n  \
             \"e\" : [\n    {\n      \"f\" : -2\n    }\n  ]\n}"
        );
    }
}
