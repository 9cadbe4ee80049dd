//! The keys against the option table: generated fresh, one per supported option, each
//! reading the value shape its option parses to.

use super::*;
use crate::value::{self, Ctx};

/// The type name of a parsed value, as [`type_of`] names the types.
fn type_of_value(value: &Value) -> &'static str {
    match value {
        Value::Str(_) => "String",
        Value::Files(_) => "Vec<String>",
        Value::Choice { .. } => "Choice",
        Value::Bool(_) => "bool",
        Value::Int(n) if *n >= 0 => "u64",
        Value::Int(_) => "i64",
        Value::Float(_) => "f64",
        Value::Size(_) => "u64",
        Value::SizeOrPercent(_) => "SizeOrPercent",
        Value::Time(_) => "Duration",
        Value::TimeRange(..) => "(Duration, Duration)",
        Value::SizePerDir(_) => "[Option<u64>; 3]",
        Value::IntPerDir(_) => "[Option<i64>; 3]",
        Value::RangePerDir(_) => "[Option<(u64, u64)>; 3]",
        Value::BsSplit(_) => "[Option<Vec<SplitEntry>>; 3]",
        Value::Floats(_) => "Vec<f64>",
        Value::Cpus(_) => "Vec<u32>",
        Value::Distribution(_) => "[Option<Distribution>; 3]",
        Value::ChoiceSet { .. } => "ChoiceSet",
    }
}

#[test]
fn keys_names_rs_is_fresh() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/keys/names.rs");
    let want = names_rs();
    if std::env::var_os("IOMARK_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(path, &want).expect("write src/keys/names.rs");
        return;
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "crates/options/src/keys/names.rs is stale; run \
         `IOMARK_BLESS=1 cargo test -p iomark-options keys_names_rs_is_fresh`"
    );
}

#[test]
fn every_default_reads_as_its_keys_type() {
    for def in supported() {
        let Some(default) = def.default else { continue };
        let value = value::parse(&def.kind, default, &Ctx::default())
            .unwrap_or_else(|e| panic!("option '{}': default '{default}': {e}", def.name));
        let (want, got) = (type_of(&def.kind), type_of_value(&value));
        // A non-negative number of a kind that allows negative ones still reads as i64.
        assert!(want == got || (want == "i64" && got == "u64"), "{}: {want} vs {got}", def.name);
    }
}

#[test]
fn rows_that_share_a_name_share_a_type() {
    for def in table::all().iter().filter(|d| d.support == Support::Yes) {
        let first = supported().into_iter().find(|d| d.name == def.name).expect("listed");
        assert_eq!(type_of(&first.kind), type_of(&def.kind), "{}", def.name);
    }
}

#[test]
fn constant_names_are_unique() {
    let mut names: Vec<String> = supported().iter().map(|d| const_name(d.name)).collect();
    let count = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), count);
}

#[test]
fn keys_read_values_defaults_and_order() {
    let argv = ["--name=j", "--bs=8k", "--direct=1", "--buffered=1", "--rw=randread:4"];
    let cmd = crate::cmdline::parse(argv.map(String::from)).expect("valid command line");
    let sources = crate::assemble::Sources { cli_jobs: cmd.jobs, ..Default::default() };
    let spec = crate::assemble::build(&sources).expect("valid job").remove(0);
    assert_eq!(spec.get(BS), Some([Some(8192); 3]));
    assert_eq!(spec.get(IODEPTH), Some(1));
    assert_eq!(spec.given(IODEPTH), None);
    assert!(spec.is_set(DIRECT) && !spec.is_set(IODEPTH));
    assert!(spec.set_after(BUFFERED, DIRECT) && !spec.set_after(DIRECT, BUFFERED));
    assert_eq!(spec.get(RW), Some(Choice { name: "randread", arg: Some("4".into()) }));
    assert!(spec.flag(DIRECT) && !spec.flag(TIME_BASED));
}
