//! The option help texts of `--cmdhelp` and `--enghelp`, printed from the option table.
//!
//! The layouts are fio 3.33's, so that people and scripts used to fio read them unchanged:
//! `--cmdhelp=all` prints the same lines byte for byte, `--cmdhelp=NAME` prints fio's block
//! (name, alias, type, default, range, valid values) and then what iomark adds (whether it
//! supports the option, and a longer explanation), and `--enghelp=ENGINE` lists an engine's
//! own options. Only the few layout facts that the table does not hold live here: which
//! options fio prints indented under a parent, which it leaves out of the full list, and the
//! help lines that differ between engines sharing an option.

use iomark_options::assemble::SUPPORTED_ENGINES;
use iomark_options::profile::{Profile, ProfileKind};
use iomark_options::table::{self, Kind, OptionDef, Support};
use iomark_options::value::TimeUnit;

/// Options that fio's lists print indented, under the option they depend on.
const CHILDREN: &[&str] = &[
    "lockfile",
    "bs",
    "ba",
    "bsrange",
    "bssplit",
    "bs_unaligned",
    "randrepeat",
    "randseed",
    "norandommap",
    "ignore_error",
    "iodepth_batch",
    "iodepth_batch_complete_min",
    "iodepth_batch_complete_max",
    "iodepth_low",
    "serialize_overlap",
    "offset_increment",
    "file_service_type",
    "do_verify",
    "verify_interval",
    "verify_offset",
    "verify_pattern",
    "verify_fatal",
    "verify_dump",
    "verify_async",
    "verify_backlog",
    "verify_backlog_batch",
    "experimental_verify",
    "verify_state_load",
    "verify_state_save",
    "trim_percentage",
    "read_iolog_chunked",
    "replay_no_stall",
    "replay_redirect",
    "replay_scale",
    "replay_align",
    "replay_time_scale",
    "replay_skip",
    "thinktime_spin",
    "thinktime_blocks",
    "thinktime_blocks_type",
    "thinktime_iotime",
    "rate_min",
    "rate_process",
    "rate_cycle",
    "rate_ignore_thinktime",
    "rate_iops_min",
    "cpus_allowed_policy",
    "bwavgtime",
    "iopsavgtime",
    "log_compression_cpus",
    "buffer_compress_chunk",
    "dedupe_mode",
    "dedupe_working_set_percentage",
    "disable_lat",
    "disable_clat",
    "disable_slat",
    "disable_bw_measurement",
    "cgroup_nodelete",
    "cgroup_weight",
    "flow",
    "flow_sleep",
    "steadystate_duration",
    "steadystate_ramp_time",
    // cpuio's only child option, in `--enghelp=cpuio`.
    "cpuchunks",
];

/// Options that fio's lists print indented twice, under a child option.
const GRANDCHILDREN: &[&str] = &["trim_verify_zero", "trim_backlog", "trim_backlog_batch"];

/// Options that fio 3.33 accepts and describes with `--cmdhelp=NAME`, but leaves out of
/// `--cmdhelp=all`, and iomark's own options that fio 3.33 lacks (`verify_write_sequence`,
/// `block_latency`).
const UNLISTED: &[&str] = &[
    "bs_is_seq_rand",
    "softrandommap",
    "iomem_align",
    "verify_async_cpus",
    "verify_write_sequence",
    "block_latency",
];

/// `(engine, option, help)` where an engine words a shared option's help differently from the
/// table row (which carries the first engine's wording).
const ENGINE_HELP: &[(&str, &str, &str)] = &[
    ("io_uring", "hipri", "Use polled IO completions"),
    ("io_uring_cmd", "hipri", "Use polled IO completions"),
    ("io_uring", "nowait", "Use RWF_NOWAIT for reads/writes"),
    ("io_uring_cmd", "nowait", "Use RWF_NOWAIT for reads/writes"),
    ("libaio", "nowait", "Set RWF_NOWAIT for reads/writes"),
];

/// Engines that fio 3.33 has, with options of their own that the table does not hold yet.
const UNDESCRIBED: &[&str] = &["sg", "gfapi", "gfapi_async", "mtd", "rdma", "rados", "rbd"];

/// The width fio gives the name column of its lists, indentation included.
const LIST_WIDTH: usize = 24;

/// The width of the right-aligned labels of fio's `--cmdhelp=NAME` block.
const LABEL_WIDTH: usize = 20;

/// Where iomark's long help is wrapped.
const WRAP: usize = 78;

/// The list that `--cmdhelp=all` prints: every general option that fio lists, one line each,
/// with fio's layout, order and indentation.
pub fn cmdhelp_all() -> String {
    let mut out = String::new();
    for def in table::all().iter().filter(|d| d.engines.is_empty() && !UNLISTED.contains(&d.name)) {
        list_line(&mut out, def.name, def.help);
    }
    out
}

/// What `--cmdhelp=NAME` prints for the option called `name` (or one of its aliases): fio's
/// block, then whether iomark supports the option and its long help. `None` when no option
/// has that name (fio then prints `No such command: NAME`).
///
/// Unlike fio, engine options are found too; their block names the engines.
pub fn cmdhelp_one(name: &str) -> Option<String> {
    let def = table::find(name)?;
    let mut out = detail(def, def.help);
    if !def.engines.is_empty() {
        label(&mut out, "engines", &def.engines.join(", "));
    }
    if def.support == Support::NotYet {
        label(&mut out, "support", "not supported yet");
    }
    out.push('\n');
    if !def.long_help.is_empty() {
        out.push_str(&wrap(def.long_help, WRAP));
        out.push('\n');
    }
    Some(out)
}

/// What `--profile=NAME --cmdhelp` prints: the profile's own options, one line each, as
/// fio 3.33 lists them (a profile's `--cmdhelp` knows only its options).
pub fn profile_list(profile: Profile) -> String {
    let mut out = String::new();
    for o in profile.options() {
        out.push_str(&format!("{:<LIST_WIDTH$}: {}\n", o.name, o.help));
    }
    out
}

/// What `--profile=NAME --cmdhelp=OPTION` prints: fio's block for one of the profile's
/// options; `None` for any other name (fio prints `No such command: OPTION`).
pub fn profile_one(profile: Profile, name: &str) -> Option<String> {
    let o = profile.options().iter().find(|o| o.name == name)?;
    let mut out = String::new();
    label(&mut out, o.name, o.help);
    let kind = match o.kind {
        ProfileKind::Int => Kind::Int { min: 0, max: i64::MAX },
        ProfileKind::Str => Kind::Str,
        ProfileKind::Time => Kind::Time { unit: TimeUnit::Seconds },
        ProfileKind::Flag => Kind::Flag,
    };
    label(&mut out, "type", type_words(&kind));
    label(&mut out, "default", o.default.unwrap_or("no default"));
    label(&mut out, "valid", &format!("only for profile '{}'", profile.name()));
    if o.kind == ProfileKind::Int {
        label(&mut out, "range", "min=0, max=-1");
    }
    out.push('\n');
    Some(out)
}

/// What `--enghelp=ENGINE` prints: the engine's own options in fio's list layout, or fio's
/// `IO engine X has no options`. With `ENGINE,OPTION`, fio's `--cmdhelp` block of that engine
/// option. `None` when fio has no such engine (fio prints `IO engine X not found`), or the
/// engine has no such option. With no engine, the list of engines iomark runs, in fio's
/// `Available IO engines:` layout.
pub fn enghelp(engine: &str) -> Option<String> {
    if engine.trim().is_empty() {
        let mut out = String::from("Available IO engines:\n");
        for name in SUPPORTED_ENGINES {
            out.push_str(&format!("\t{name}\n"));
        }
        return Some(out);
    }
    let (engine, option) = match engine.split_once(',') {
        Some((e, o)) => (e.trim(), Some(o.trim())),
        None => (engine.trim(), None),
    };
    if !is_engine(engine) {
        return None;
    }
    let rows = || table::all().iter().filter(move |d| d.engines.contains(&engine));
    if let Some(option) = option {
        let def = rows().find(|d| d.name == option || d.aliases.contains(&option))?;
        let mut out = detail(def, engine_help(engine, def));
        out.push('\n');
        return Some(out);
    }
    if UNDESCRIBED.contains(&engine) {
        return Some(format!("IO engine {engine} has options that iomark does not describe yet\n"));
    }
    let mut out = String::new();
    for def in rows() {
        list_line(&mut out, def.name, engine_help(engine, def));
    }
    if out.is_empty() {
        out = format!("IO engine {engine} has no options\n");
    }
    Some(out)
}

/// Whether `engine` is one of the engines that `ioengine` accepts.
fn is_engine(engine: &str) -> bool {
    let Some(Kind::Enum(choices)) = table::find("ioengine").map(|d| d.kind) else {
        return false;
    };
    engine != "external" && choices.iter().any(|c| c.name == engine)
}

/// The help line of `def` as `engine` words it.
fn engine_help(engine: &str, def: &OptionDef) -> &'static str {
    ENGINE_HELP
        .iter()
        .find(|(e, n, _)| *e == engine && *n == def.name)
        .map_or(def.help, |(_, _, h)| h)
}

/// One line of a list: `name` padded to fio's column (indented for children and
/// grandchildren), then the help.
fn list_line(out: &mut String, name: &str, help: &str) {
    let indent = if GRANDCHILDREN.contains(&name) {
        "    "
    } else if CHILDREN.contains(&name) {
        "  "
    } else {
        ""
    };
    let width = LIST_WIDTH - indent.len();
    out.push_str(&format!("{indent}{name:<width$}: {help}\n"));
}

/// One line of a `--cmdhelp=NAME` block: the label right-aligned, then the text.
fn label(out: &mut String, label: &str, text: &str) {
    out.push_str(&format!("{label:>LABEL_WIDTH$}: {text}\n"));
}

/// fio's `--cmdhelp=NAME` block for `def`, with `help` as its help line; no trailing blank line.
fn detail(def: &OptionDef, help: &str) -> String {
    let mut out = String::new();
    label(&mut out, def.name, help);
    if !def.aliases.is_empty() {
        label(&mut out, "alias", &def.aliases.join(", "));
    }
    label(&mut out, "type", type_words(&def.kind));
    label(&mut out, "default", def.default.unwrap_or("no default"));
    if let Some(range) = range_words(def) {
        label(&mut out, "range", &range);
    }
    if let Kind::Enum(choices) | Kind::Distribution(choices) | Kind::ChoiceSet(choices) = def.kind {
        for (i, c) in choices.iter().enumerate() {
            let head = if i == 0 { "valid values" } else { "" };
            label(&mut out, head, &format!("{:<10} {}", c.name, c.help));
        }
    }
    out
}

/// fio's wording of the type of a value of this kind.
fn type_words(kind: &Kind) -> &'static str {
    match kind {
        Kind::Str
        | Kind::FileList
        | Kind::Enum(_)
        | Kind::BsSplit
        | Kind::CpuList
        | Kind::Distribution(_) => "string (opt=bla)",
        Kind::Bool => "boolean value (opt=1)",
        Kind::Flag => "empty or boolean value ([0|1])",
        Kind::Int { .. } | Kind::SizePerDir | Kind::IntPerDir => "integer value (opt=100)",
        Kind::Float { .. } | Kind::FloatList | Kind::Floats => {
            "list of floating point values separated by ':' (opt=5.9:7.8)"
        }
        // fio 3.33 calls `sync_file_range` a size, although it reads the count with atoi.
        Kind::Size | Kind::SizeOrPercent | Kind::ChoiceSet(_) => {
            "string with possible k/m/g postfix (opt=4k)"
        }
        Kind::Time { .. } | Kind::TimeRange { .. } => "string with time postfix (opt=10s)",
        Kind::RangePerDir => "one to three ranges (opt=1k-4k[,4k-8k[,1k-8k]])",
        Kind::SizeRange => "integer value (opt=100) or range (opt=100-200)",
    }
}

/// fio's `range:` text for `def`, where fio prints one. fio writes an unbounded maximum as
/// `-1`, and prints no range for engine options without an upper bound.
fn range_words(def: &OptionDef) -> Option<String> {
    let general = def.engines.is_empty();
    match def.kind {
        Kind::Bool if general => Some("min=0, max=1".to_string()),
        Kind::Int { min, max } if general || max != i64::MAX => {
            let max = if max == i64::MAX { -1 } else { max };
            Some(format!("min={min}, max={max}"))
        }
        Kind::Float { min, max } => Some(format!("min={min:.6}, max={max:.6}")),
        Kind::RangePerDir => Some("min=1".to_string()),
        _ => None,
    }
}

/// `text` broken into lines of at most `width` characters at spaces, each ending in `\n`.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_layout_name_is_in_the_table() {
        for name in CHILDREN.iter().chain(GRANDCHILDREN).chain(UNLISTED) {
            assert!(table::find(name).is_some(), "{name} is not in the table");
        }
        for (engine, name, _) in ENGINE_HELP {
            let def = table::find(name).expect("engine option in the table");
            assert!(def.engines.contains(engine), "{name} is not an option of {engine}");
        }
    }

    #[test]
    fn wrap_breaks_at_spaces() {
        assert_eq!(wrap("aaa bbb ccc", 7), "aaa bbb\nccc\n");
        assert_eq!(wrap("", 7), "");
    }

    #[test]
    fn enghelp_handles_engines_without_options_and_unknown_ones() {
        assert_eq!(enghelp("null").as_deref(), Some("IO engine null has no options\n"));
        assert_eq!(enghelp("bogus"), None);
        assert_eq!(enghelp("external"), None);
        assert!(enghelp("io_uring,hipri").is_some_and(|s| s.contains("Use polled IO completions")));
        assert_eq!(enghelp("io_uring,bogus"), None);
    }
}
