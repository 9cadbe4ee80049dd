//! Reading a `write_iolog` file (fio's version 3: `TIME FILE ACTION OFFSET LENGTH` for an
//! I/O, `TIME FILE add|open|close` for a file, after the line `fio version 3 iolog`).

/// One data I/O of an iolog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Io {
    /// The file's name as the log writes it.
    pub file: String,
    /// `read`, `write` or `trim`.
    pub action: String,
    /// Where, in bytes.
    pub offset: u64,
    /// How many bytes.
    pub len: u64,
}

impl Io {
    /// `FILE:D:OFFSET+LEN`, with the first letter of the action.
    pub fn short(&self) -> String {
        format!("{}:{}:{}+{}", self.file, &self.action[..1], self.offset, self.len)
    }
}

/// The fields of the data I/O lines (reads, writes, trims) of `text`, in order.
fn data_lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<&str>>())
        .filter(|f| f.len() == 5 && matches!(f[2], "read" | "write" | "trim"))
}

/// The data I/Os of an iolog, in the order they were issued.
pub fn data_ios(text: &str) -> Vec<Io> {
    data_lines(text)
        .map(|f| Io {
            file: f[1].to_string(),
            action: f[2].to_string(),
            offset: f[3].parse().expect("an offset"),
            len: f[4].parse().expect("a length"),
        })
        .collect()
}

/// The data I/Os of the iolog file at `path`.
pub fn read_data_ios(path: &std::path::Path) -> Vec<Io> {
    data_ios(&std::fs::read_to_string(path).expect("read the iolog"))
}

/// The times (µs since the job's start) at which the data I/Os were issued.
pub fn issue_times(text: &str) -> Vec<u64> {
    data_lines(text).map(|f| f[0].parse().expect("a time")).collect()
}

/// Every line without its time stamp (the first line, which has none, as it is).
pub fn without_times(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| match l.split_once(' ') {
            Some((t, rest)) if t.parse::<u64>().is_ok() => rest.to_string(),
            _ => l.to_string(),
        })
        .collect()
}
