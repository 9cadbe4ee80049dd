//! Reading a run's JSON report.

use super::run::text;
use serde_json::Value;
use std::process::Output;

/// The JSON report on a run's standard output. fio 3.33 may print lines before it (a
/// fatal error's `fio: pid=…`, `NAME : Saving output of prerun in …`, `fio: terminating on
/// signal 15`), which iomark puts in the document (`"iomark notes"`) or on standard error;
/// they are skipped.
pub fn report_json(program: &str, out: &Output) -> Value {
    let text = text(&out.stdout);
    let json = &text[text.find("\n{").map_or(0, |i| i + 1)..];
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{program}: not JSON ({e}): {text}"))
}

/// A whole standard output as one JSON document (nothing before or after it).
pub fn json_doc(out: &Output, what: &str) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{what}: stdout is not one JSON document ({e}):\n{}", text(&out.stdout))
    })
}

/// `job[dir][field]` as a number (the test fails when it is missing).
pub fn count(job: &Value, dir: &str, field: &str) -> u64 {
    job[dir][field].as_u64().unwrap_or_else(|| panic!("{dir}.{field} missing in {job}"))
}

/// Every whole JSON document in `bytes`, in order (interim reports, then the final one).
pub fn documents(bytes: &[u8]) -> Vec<Value> {
    serde_json::Deserializer::from_slice(bytes).into_iter::<Value>().map_while(Result::ok).collect()
}
