//! Values in canonical form, as `--debug=parse` and the notes of fio's leniency show them:
//! sizes in bytes, times in microseconds, booleans as 0/1, per-direction values as
//! `read,write,trim` with `-` for a direction left at its default.

use super::{SizeOrPercent, Value};

/// A value in canonical form.
pub fn canonical(value: &Value) -> String {
    fn dirs<T>(v: &[Option<T>; 3], f: impl Fn(&T) -> String) -> String {
        v.iter().map(|d| d.as_ref().map_or("-".to_string(), &f)).collect::<Vec<_>>().join(",")
    }
    match value {
        Value::Str(s) => s.clone(),
        Value::Files(f) => f.join(":"),
        Value::Choice { name, arg: Some(a) } => format!("{name}:{a}"),
        Value::Choice { name, arg: None } => name.to_string(),
        Value::Bool(b) => u8::from(*b).to_string(),
        Value::Int(n) => n.to_string(),
        Value::Float(x) => x.to_string(),
        Value::Size(n) => n.to_string(),
        Value::SizeOrPercent(SizeOrPercent::Bytes(n)) => n.to_string(),
        Value::SizeOrPercent(SizeOrPercent::Percent(p)) => format!("{p}%"),
        Value::Time(d) => d.as_micros().to_string(),
        Value::TimeRange(a, b) => format!("{}-{}", a.as_micros(), b.as_micros()),
        Value::SizePerDir(v) => dirs(v, u64::to_string),
        Value::IntPerDir(v) => dirs(v, i64::to_string),
        Value::RangePerDir(v) => dirs(v, |(a, b)| format!("{a}-{b}")),
        Value::BsSplit(v) => dirs(v, |entries| {
            let parts: Vec<String> = entries
                .iter()
                .map(|e| match e.percent {
                    Some(p) => format!("{}/{p}", e.bs),
                    None => format!("{}/", e.bs),
                })
                .collect();
            parts.join(":")
        }),
        Value::Floats(v) => v.iter().map(f64::to_string).collect::<Vec<_>>().join(":"),
        Value::Cpus(v) => v.iter().map(u32::to_string).collect::<Vec<_>>().join(","),
        Value::Distribution(v) => dirs(v, ToString::to_string),
        Value::ChoiceSet { names, count: Some(n) } => format!("{}:{n}", names.join(",")),
        Value::ChoiceSet { names, count: None } => names.join(","),
    }
}
