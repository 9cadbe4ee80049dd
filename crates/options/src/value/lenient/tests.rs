//! [`read`]: fio's readings where fio runs a malformed value, the strict ones elsewhere, and
//! the notes.

use super::*;
use crate::kind::Kind;

const CTX: Ctx = Ctx { kb_base: 1024 };

fn lenient(kind: Kind, raw: &str) -> (Value, Leniency) {
    match read(&kind, raw, &CTX) {
        Ok((value, Some(note))) => (value, note),
        other => panic!("{raw}: want a leniency, got {other:?}"),
    }
}

fn plain(kind: Kind, raw: &str) -> Value {
    match read(&kind, raw, &CTX) {
        Ok((value, None)) => value,
        other => panic!("{raw}: want a plain reading, got {other:?}"),
    }
}

#[test]
fn the_issue_s_examples() {
    let (value, note) = lenient(Kind::SizeRange, "65536)");
    assert_eq!(value, Value::RangePerDir([Some((65536, 65536)), None, None]));
    assert_eq!(note.ignored, [")"]);
    assert_eq!(note.strict, ValueError::Size("65536)".into()));
    assert_eq!(note.to_string(), "'65536)' is read as fio 3.33 reads it, ignoring ')'; used 65536");
    let (value, _) = lenient(Kind::RangePerDir, "512/25:1k:25:2k:25:4k/25");
    assert_eq!(value, Value::RangePerDir([Some((512, 1024)); 3]));
}

#[test]
fn a_blank_first_hides_the_unit() {
    let (value, note) = lenient(Kind::Size, " 64k");
    assert_eq!(value, Value::Size(64));
    assert!(matches!(note.strict, ValueError::Explained { .. }), "{:?}", note.strict);
    assert!(note.to_string().contains("no unit counts after a blank"), "{note}");
    let (value, _) = lenient(Kind::SizePerDir, " 4k");
    assert_eq!(value, Value::SizePerDir([Some(4); 3]));
    assert_eq!(plain(Kind::Size, "64k "), Value::Size(65536));
}

#[test]
fn well_formed_values_are_read_plainly() {
    assert_eq!(plain(Kind::Size, "4k"), Value::Size(4096));
    assert_eq!(plain(Kind::Int { min: 1, max: 100 }, "1.0"), Value::Int(1));
    assert_eq!(
        plain(Kind::Time { unit: TimeUnit::Seconds }, "1m"),
        Value::Time(Duration::from_secs(60))
    );
    assert_eq!(
        plain(Kind::SizeOrPercent, "12.5%"),
        Value::SizeOrPercent(SizeOrPercent::Percent(12.5)),
        "iomark's fraction of a percent stays"
    );
    let range = plain(Kind::TimeRange { unit: TimeUnit::Seconds }, "1s-5s");
    assert_eq!(range, Value::TimeRange(Duration::from_secs(1), Duration::from_secs(5)));
}

#[test]
fn numbers_times_and_booleans() {
    let int = Kind::Int { min: 1, max: 1 << 40 };
    assert_eq!(lenient(int, "4x").0, Value::Int(4));
    assert_eq!(lenient(int, "100x").0, Value::Int(256));
    assert_eq!(lenient(int, "1.5k").0, Value::Int(1));
    assert!(read(&int, "4-8", &CTX).is_err(), "a second value: fio keeps one or the other");
    assert!(read(&int, "0x", &CTX).is_err(), "0 is out of range");
    let secs = Kind::Time { unit: TimeUnit::Seconds };
    assert_eq!(lenient(secs, "2sec").0, Value::Time(Duration::from_micros(2)));
    assert_eq!(lenient(secs, "5 ms").0, Value::Time(Duration::from_secs(5)));
    assert_eq!(lenient(Kind::Bool, "1k").0, Value::Bool(true));
    assert_eq!(lenient(Kind::Bool, "0.9").0, Value::Bool(false));
    assert!(read(&Kind::Bool, "2", &CTX).is_err());
    assert_eq!(lenient(Kind::Flag, "2").0, Value::Bool(true));
    let pct = Kind::SizeOrPercent;
    assert_eq!(lenient(pct, "10%x").0, Value::SizeOrPercent(SizeOrPercent::Percent(10.0)));
    assert_eq!(lenient(pct, "10 %").0, Value::SizeOrPercent(SizeOrPercent::Bytes(10)));
    let float = Kind::Float { min: 0.0, max: 100.0 };
    assert_eq!(lenient(float, "50:60").0, Value::Float(50.0));
}

#[test]
fn broken_runs_stay_refused() {
    assert!(read(&Kind::BsSplit, "4k/50:8k/60:16k/", &CTX).is_err());
    assert!(read(&Kind::Size, "-1", &CTX).is_err());
    assert!(read(&Kind::Size, "4%", &CTX).is_err());
}
