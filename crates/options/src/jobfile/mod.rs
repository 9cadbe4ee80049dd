//! fio's job-file grammar: INI sections of `option=value` lines, read into raw sections.
//!
//! What fio 3.33 does, and so iomark: a line that starts with `[` opens a section, named by
//! what lies between the `[` and the line's last character (`[job]` is `job`, blanks inside
//! the brackets kept: `[ job ]` is ` job `); a section whose name starts with `global` holds
//! global options; `;` or `#` starts a comment anywhere on a line (also after a value:
//! `filename=a#b` is `a`); blanks around names and after values are dropped, and a blank
//! after `=` is kept, for fio reads a number after it without its unit (`bs = 4k` is 4 bytes;
//! the value grammar notes it); quotes are kept as written; an option may stand bare
//! (`stonewall`); `include FILE` inside a section reads FILE's lines there, FILE being
//! relative to the including file; keywords (`$ncpus`, `$pagesize`, `$mb_memory`) and
//! `${ENV}` are substituted in values. An option before any section is refused, as fio
//! does. Values are not parsed here: that needs the option table and the job's `kb_base`,
//! and happens when jobs are built.
//!
//! A header that fio reads its own way gets a note ([`HeaderNote`]): one without its
//! closing `]` (fio drops its last character whatever it is: `[job` is a section named
//! `jo`), an empty name (`[]`), a name with blanks around it (`[ global ]` is a job named
//! ` global `, not global options).
//!
//! Reading files goes through a [`Loader`], so that this crate does no I/O of its own.

use crate::error::{ErrorKind, ParseError, Place};
use crate::value::subst::{self, Keywords};
use std::path::{Path, PathBuf};

/// How deep `include`s may nest; deeper means a loop.
pub const MAX_INCLUDE_DEPTH: usize = 16;

/// Reads job files and the files they include.
pub trait Loader {
    /// The bytes of the file at `path`.
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>>;
    /// The value of environment variable `name`, for `${name}`.
    fn env(&self, name: &str) -> Option<String>;
    /// The values of `$ncpus`, `$pagesize` and `$mb_memory`.
    fn keywords(&self) -> Keywords;
}

/// One `option` or `option=value` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawLine {
    /// The option name as written.
    pub key: String,
    /// The value after `=`, trimmed and substituted; `None` for a bare option.
    pub value: Option<String>,
    /// Where it was written.
    pub place: Place,
}

/// One section of a job file, or one job of the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawSection {
    /// The name between the brackets (or of `--name`).
    pub name: String,
    /// Where the section begins.
    pub place: Place,
    /// Whether it is a global section (its name starts with `global`).
    pub global: bool,
    /// Its lines, includes expanded.
    pub lines: Vec<RawLine>,
    /// What fio 3.33 reads its own way in the header, if anything.
    pub header_note: Option<HeaderNote>,
}

/// A section header that fio 3.33 reads its own way, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderNote {
    /// The header as written (`[job`).
    pub header: String,
    /// What fio makes of it.
    pub text: String,
}

/// Whether a section called `name` holds global options.
pub fn is_global_name(name: &str) -> bool {
    name.starts_with("global")
}

/// Reads the job file at `path` into its sections.
pub fn read(path: &Path, loader: &dyn Loader) -> Result<Vec<RawSection>, ParseError> {
    let mut sections = Vec::new();
    let bytes = loader.load(path).map_err(|e| {
        ParseError::new(
            Place::File { path: path.to_path_buf(), line: 0 },
            ErrorKind::JobFile { reason: io_reason(&e) },
        )
    })?;
    read_into(path, &bytes, loader, 0, &mut sections)?;
    Ok(sections)
}

/// Parses the text of a job file (already read) into its sections.
pub fn parse_text(
    path: &Path,
    bytes: &[u8],
    loader: &dyn Loader,
) -> Result<Vec<RawSection>, ParseError> {
    let mut sections = Vec::new();
    read_into(path, bytes, loader, 0, &mut sections)?;
    Ok(sections)
}

fn read_into(
    path: &Path,
    bytes: &[u8],
    loader: &dyn Loader,
    depth: usize,
    sections: &mut Vec<RawSection>,
) -> Result<(), ParseError> {
    let text = as_text(path, bytes)?;
    for (index, line) in text.lines().enumerate() {
        let place = Place::File { path: path.to_path_buf(), line: index + 1 };
        let line = strip_comment(line).trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            sections.push(section_header(line, place)?);
            continue;
        }
        let Some(section) = sections.last_mut() else {
            return Err(ParseError::new(place, ErrorKind::OutsideSection { line: line.into() }));
        };
        if let Some(target) = include_target(line) {
            let job = section.name.clone();
            include(path, target, place, loader, depth, sections).map_err(|e| {
                if e.job.is_none() {
                    e.in_job(job)
                } else {
                    e
                }
            })?;
            continue;
        }
        let raw = option_line(line, place, loader).map_err(|e| e.in_job(section.name.clone()))?;
        section.lines.push(raw);
    }
    Ok(())
}

/// The job file's text, refused if it is not text.
fn as_text<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a str, ParseError> {
    let place_of = |offset: usize| Place::File {
        path: path.to_path_buf(),
        line: 1 + bytes[..offset].iter().filter(|&&b| b == b'\n').count(),
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        ParseError::new(
            place_of(e.valid_up_to()),
            ErrorKind::NotText { why: "invalid UTF-8 (binary data?)".into() },
        )
    })?;
    if let Some(offset) = text.find(|c: char| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) {
        let code = text[offset..].chars().next().map_or(0, u32::from);
        return Err(ParseError::new(
            place_of(offset),
            ErrorKind::NotText { why: format!("control character U+{code:04X}") },
        ));
    }
    Ok(text)
}

/// The line without its comment: fio cuts at the first `;` or `#`, wherever it stands.
fn strip_comment(line: &str) -> &str {
    match line.find([';', '#']) {
        Some(at) => &line[..at],
        None => line,
    }
}

fn section_header(line: &str, place: Place) -> Result<RawSection, ParseError> {
    // fio drops the `[` and the line's last character, whatever it is.
    let name = line.get(1..line.len() - line.chars().last().map_or(0, char::len_utf8));
    let name = name.filter(|_| line.chars().count() >= 2).ok_or_else(|| {
        ParseError::new(place.clone(), ErrorKind::BadSection { header: line.into() })
    })?;
    let text = if !line.ends_with(']') {
        Some(format!(
            "the header has no closing ']': fio 3.33 drops its last character, and so the \
             section is named '{name}'"
        ))
    } else if name.is_empty() {
        Some("the section has no name: fio 3.33 runs it as a job named ''".to_string())
    } else if name.contains(']') || name.trim() != name {
        let global = match is_global_name(name.trim()) && !is_global_name(name) {
            true => ", a job, not global options",
            false => "",
        };
        Some(format!("fio 3.33 names the section '{name}'{global}"))
    } else {
        None
    };
    Ok(RawSection {
        name: name.to_string(),
        place: place.clone(),
        global: is_global_name(name),
        lines: Vec::new(),
        header_note: text.map(|text| HeaderNote { header: line.to_string(), text }),
    })
}

/// `include FILE`: the word `include`, blanks, then the file name.
fn include_target(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("include")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let target = rest.trim();
    (!target.is_empty()).then_some(target)
}

fn include(
    from: &Path,
    target: &str,
    place: Place,
    loader: &dyn Loader,
    depth: usize,
    sections: &mut Vec<RawSection>,
) -> Result<(), ParseError> {
    let fail = |reason: String| {
        ParseError::new(place.clone(), ErrorKind::Include { path: target.into(), reason })
    };
    if depth >= MAX_INCLUDE_DEPTH {
        return Err(fail(format!("includes nest deeper than {MAX_INCLUDE_DEPTH} (a loop?)")));
    }
    let path = resolve_include(from, target);
    let bytes = loader.load(&path).map_err(|e| fail(io_reason(&e)))?;
    read_into(&path, &bytes, loader, depth + 1, sections)
}

/// An included file is found relative to the directory of the file that includes it.
fn resolve_include(from: &Path, target: &str) -> PathBuf {
    let target = Path::new(target);
    if target.is_absolute() {
        return target.to_path_buf();
    }
    match from.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(target),
        _ => target.to_path_buf(),
    }
}

fn option_line(line: &str, place: Place, loader: &dyn Loader) -> Result<RawLine, ParseError> {
    // A blank after `=` stays: fio reads a number after it without its unit.
    let (key, value) = match line.split_once('=') {
        Some((k, v)) => (k.trim(), Some(v)),
        None => (line, None),
    };
    if key.is_empty() {
        return Err(ParseError::new(
            place,
            ErrorKind::Usage(format!("'{line}': missing option name before '='")),
        ));
    }
    let value = match value {
        Some(v) => {
            let env = |name: &str| loader.env(name);
            let substituted = subst::substitute(v, &loader.keywords(), &env)
                .map_err(|e| ParseError::new(place.clone(), ErrorKind::Value(e)).for_option(key))?;
            Some(substituted.trim_end().to_string())
        }
        None => None,
    };
    Ok(RawLine { key: key.to_string(), value, place })
}

/// The message of an I/O error, without Rust's `(os error N)` suffix.
pub fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests;
