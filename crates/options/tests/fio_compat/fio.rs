//! Running fio 3.33 with `--parse-only --debug=parse` and reading what it printed: the
//! sections, and for each option fio handled its type and its `out=` values.

use iomark_options::jobfile::Loader;
use iomark_options::table;
use iomark_options::value::subst::Keywords;
use std::path::Path;
use std::process::Command;

// ---------------------------------------------------------------------------------------
// Helpers: the machine, the corpus, and running fio
// ---------------------------------------------------------------------------------------

/// The environment both programs see.
pub(crate) const ENV: &[(&str, &str)] = &[("IOMARK_TEST_SIZE", "8m")];

/// Lines of fio's output that mean it refused something (a job dropped, a file unread).
/// (`, error=` as in fio's `err=22/…, error=Invalid argument`: a bare `error=` would also
/// match the parse trace of `continue_on_error=` and `ignore_error=`.)
pub(crate) const FIO_REFUSALS: &[&str] =
    &["failed parsing", "Bad option", "unable to open", "dropped", ", error=", "syntax error"];

/// Lines of fio's output that warn about a value fio then uses anyway.
pub(crate) const FIO_WARNINGS: &[&str] = &["out of range", "not a floating point"];

/// Whether fio is installed; prints the skip message when it is not.
pub(crate) fn fio_available() -> bool {
    let ok = Command::new("fio").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        println!("skipped: fio not installed");
    }
    ok
}

/// Reads files from disk, the environment from [`ENV`], keywords from this machine, as fio
/// does.
pub(crate) struct MachineLoader {
    pub(crate) keywords: Keywords,
}

impl MachineLoader {
    pub(crate) fn new() -> Self {
        let getconf = |name: &str| -> u64 {
            let out = Command::new("getconf").arg(name).output().expect("getconf");
            String::from_utf8_lossy(&out.stdout).trim().parse().expect("getconf number")
        };
        let meminfo = std::fs::read_to_string("/proc/meminfo").expect("/proc/meminfo");
        let kib: u64 = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|l| l.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("MemTotal");
        let keywords = Keywords {
            ncpus: getconf("_NPROCESSORS_ONLN"),
            pagesize: getconf("PAGESIZE"),
            mb_memory: kib / 1024,
        };
        MachineLoader { keywords }
    }
}

impl Loader for MachineLoader {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn env(&self, name: &str) -> Option<String> {
        ENV.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
    }

    fn keywords(&self) -> Keywords {
        self.keywords
    }
}

#[path = "../../../../tests/support/corpus.rs"]
mod corpus_files;
pub(crate) use corpus_files::corpus;

/// The text of the first comment line starting with `; fio: <what> (`, if any.
pub(crate) fn fio_mark(path: &Path, what: &str) -> Option<String> {
    let bytes = std::fs::read(path).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let prefix = format!("; fio: {what} (");
    text.lines().find_map(|l| l.strip_prefix(&prefix).map(|r| r.trim_end_matches(')').to_string()))
}

/// What fio printed for one `--parse-only --debug=parse` run.
pub(crate) struct FioRun {
    /// fio's exit code.
    pub(crate) code: Option<i32>,
    /// Standard output and standard error together.
    pub(crate) text: String,
    /// The sections, in the order fio parsed them.
    pub(crate) sections: Vec<FioSection>,
}

impl FioRun {
    /// The lines that show fio refused something.
    pub(crate) fn refusals(&self) -> Vec<&str> {
        self.text.lines().filter(|l| FIO_REFUSALS.iter().any(|r| l.contains(r))).collect()
    }

    /// The lines where fio warns about a value.
    pub(crate) fn warnings(&self) -> Vec<&str> {
        self.text.lines().filter(|l| FIO_WARNINGS.iter().any(|r| l.contains(r))).collect()
    }

    /// fio exits 0 and keeps every job, perhaps with a warning.
    pub(crate) fn accepted(&self) -> bool {
        self.code == Some(0) && self.refusals().is_empty()
    }

    /// fio accepts without a warning.
    pub(crate) fn clean(&self) -> bool {
        self.accepted() && self.warnings().is_empty()
    }
}

/// One section as fio parsed it.
#[derive(Debug)]
pub(crate) struct FioSection {
    pub(crate) name: String,
    /// Every option fio handled for the section, in fio's order.
    pub(crate) handled: Vec<FioOption>,
}

/// One `handle_option=NAME, ptr=VALUE` and what followed it.
#[derive(Debug)]
pub(crate) struct FioOption {
    /// The canonical name (iomark's), looked up from fio's.
    pub(crate) name: String,
    /// The value fio was given, after substitution.
    pub(crate) ptr: String,
    /// fio's type of the first element (`OPT_INT`, `OPT_ULL`, ...).
    pub(crate) kind: String,
    /// One `(ret, out)` per element; `ret == 1` for a blank direction.
    pub(crate) outs: Vec<(i64, String)>,
    /// Handled after `filling default options`: an engine's defaults, then its options.
    pub(crate) defaults: bool,
}

/// Runs fio on `path` and splits its debug output into sections.
pub(crate) fn run_fio(path: &Path) -> FioRun {
    let out = Command::new("fio")
        .args(["--parse-only", "--debug=parse"])
        .arg(path)
        .envs(ENV.iter().copied())
        .output()
        .expect("run fio");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let sections = fio_sections(&stdout);
    FioRun { code: out.status.code(), text: format!("{stdout}{stderr}"), sections }
}

/// The message of a `parse  PID  message` line.
pub(crate) fn debug_message(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("parse")?.trim_start();
    Some(rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start())
}

/// `key=value` items of a message such as `ret=0, out=4096`.
pub(crate) fn field<'a>(message: &'a str, key: &str) -> Option<&'a str> {
    message.split(", ").find_map(|part| part.trim().strip_prefix(key)?.strip_prefix('='))
}

/// Attributes fio's `handle_option` lines to sections; see the module documentation.
pub(crate) fn fio_sections(stdout: &str) -> Vec<FioSection> {
    let mut sections: Vec<FioSection> = Vec::new();
    let mut defaults = false;
    for message in stdout.lines().filter_map(debug_message) {
        if let Some(name) = message.strip_prefix("Parsing section [") {
            let name = name.strip_suffix(']').unwrap_or(name).trim().to_string();
            sections.push(FioSection { name, handled: Vec::new() });
            defaults = false;
        } else if message.starts_with("filling default options") {
            defaults = true;
        } else if sections.is_empty() {
            continue;
        } else if let Some(rest) = message.strip_prefix("handle_option=") {
            let (name, ptr) = rest.split_once(", ptr=").unwrap_or((rest, ""));
            let name = table::find(name).map_or(name, |d| d.name).to_string();
            let ptr = ptr.to_string();
            let option = FioOption { name, ptr, kind: String::new(), outs: vec![], defaults };
            sections.last_mut().unwrap().handled.push(option);
        } else if let Some(rest) = message.strip_prefix("__handle_option=") {
            let last = sections.last_mut().unwrap().handled.last_mut();
            if let (Some(option), Some(kind)) = (last, field(rest, "type")) {
                if option.kind.is_empty() {
                    option.kind = kind.to_string();
                }
            }
        } else if let Some(out) = field(message, "out") {
            let ret = field(message, "ret").and_then(|r| r.parse().ok()).unwrap_or(0);
            if let Some(option) = sections.last_mut().unwrap().handled.last_mut() {
                option.outs.push((ret, out.to_string()));
            }
        }
    }
    sections
}
