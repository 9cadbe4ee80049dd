//! fio's built-in profiles (`--profile=tiobench`, `--profile=act`): each names a fixed set of
//! jobs that the command line runs as if they had been written in a job file, and options of
//! its own (`--block=`, `--device-names=`…) that only exist while that profile is chosen.
//!
//! The jobs are fio 3.33's, option for option, as its `--debug=parse` shows them: the
//! profile's text is read like the first job file, so options given on the command line
//! before any `--name` are global to its jobs and the profile's `[global]` section comes
//! after them (and wins where both set an option). Expanding a profile does no I/O: the
//! machine's memory comes from the [`Loader`](crate::jobfile::Loader)'s keywords.

use crate::error::{ErrorKind, ParseError, Place};
use crate::jobfile::{RawLine, RawSection};
use crate::value::subst::Keywords;

mod act;

pub use act::{ActSetup, SLICE as ACT_SLICE};

/// One of fio 3.33's profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// `tiobench`: tiotest's four phases, one after the other.
    Tiobench,
    /// `act`: the Aerospike Certification Tool's reads and large writes.
    Act,
}

/// What a profile option's value must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileKind {
    /// A whole number (fio reads its leading digits).
    Int,
    /// Any text, not empty.
    Str,
    /// A time in seconds unless a unit follows.
    Time,
    /// A bare switch: no value.
    Flag,
}

/// One option of a profile, as fio 3.33's `--profile=NAME --cmdhelp` lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileOption {
    /// The option's name on the command line.
    pub name: &'static str,
    /// fio's help line.
    pub help: &'static str,
    /// Its value.
    pub kind: ProfileKind,
    /// fio's default, as `--cmdhelp` prints it.
    pub default: Option<&'static str>,
}

const fn popt(name: &'static str, kind: ProfileKind, help: &'static str) -> ProfileOption {
    ProfileOption { name, help, kind, default: None }
}

impl ProfileOption {
    const fn default(mut self, value: &'static str) -> Self {
        self.default = Some(value);
        self
    }
}

/// tiobench's options, in fio's order. fio 3.33 parses them and then runs the same four jobs
/// whatever they say; iomark does the same (docs/workloads.md).
pub const TIOBENCH_OPTIONS: &[ProfileOption] = &[
    popt("size", ProfileKind::Str, "Size in MiB"),
    popt("block", ProfileKind::Int, "Block size in bytes").default("4096"),
    popt("numruns", ProfileKind::Int, "Number of runs"),
    popt("dir", ProfileKind::Str, "Test directory"),
    popt("threads", ProfileKind::Int, "Number of Threads"),
];

/// act's options, in fio's order.
pub const ACT_OPTIONS: &[ProfileOption] = &[
    popt("device-names", ProfileKind::Str, "Devices to use"),
    popt("load", ProfileKind::Int, "ACT load multipler (default 1x)").default("1"),
    popt("test-duration", ProfileKind::Time, "How long the entire test takes to run")
        .default("24h"),
    popt("threads-per-queue", ProfileKind::Int, "Number of read IO threads per device")
        .default("8"),
    popt("read-req-num-512-blocks", ProfileKind::Int, "Number of 512B blocks to read at the time")
        .default("3"),
    popt("large-block-op-kbytes", ProfileKind::Int, "Size of large block ops in KiB (writes)")
        .default("131072"),
    popt("prep", ProfileKind::Flag, "Set to run ACT prep phase"),
];

impl Profile {
    /// Every profile, with its name.
    pub const ALL: &'static [(&'static str, Profile)] =
        &[("tiobench", Profile::Tiobench), ("act", Profile::Act)];

    /// The profile called `name`.
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL.iter().find(|(n, _)| *n == name).map(|&(_, p)| p)
    }

    /// The profile's name.
    pub fn name(self) -> &'static str {
        Profile::ALL.iter().find(|(_, p)| *p == self).map(|(n, _)| *n).unwrap_or("")
    }

    /// The profile's own options.
    pub fn options(self) -> &'static [ProfileOption] {
        match self {
            Profile::Tiobench => TIOBENCH_OPTIONS,
            Profile::Act => ACT_OPTIONS,
        }
    }
}

/// Whether any profile has an option called `name`.
pub fn is_profile_option(name: &str) -> bool {
    Profile::ALL.iter().any(|(_, p)| p.options().iter().any(|o| o.name == name))
}

/// A profile option as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GivenOption {
    /// Its name.
    pub name: String,
    /// Its value, if one was given.
    pub value: Option<String>,
    /// The 1-based argument it was given in.
    pub arg: usize,
}

/// The profile asked for on the command line and its options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileRun {
    /// The profile.
    pub profile: Profile,
    /// The argument that named it.
    pub arg: usize,
    /// Its options, in the order given (checked by [`ProfileRun::check`]).
    pub options: Vec<GivenOption>,
}

impl ProfileRun {
    /// Checks every option against the profile, as fio parses them: an option of another
    /// profile is unknown, a number must start with digits, a string must not be empty.
    pub fn check(&self) -> Result<(), ParseError> {
        for given in &self.options {
            let place = Place::CommandLine { arg: given.arg };
            let fail = |why: String| {
                Err(ParseError::new(place.clone(), ErrorKind::Usage(why)).for_option(&given.name))
            };
            let Some(def) = self.profile.options().iter().find(|o| o.name == given.name) else {
                return fail(format!(
                    "--{} is an option of another profile than '{}' (see --profile={} --cmdhelp)",
                    given.name,
                    self.profile.name(),
                    self.profile.name()
                ));
            };
            let value = given.value.as_deref().unwrap_or("");
            let ok = match def.kind {
                ProfileKind::Flag => true,
                ProfileKind::Str => !value.is_empty(),
                // fio's range: min=0.
                ProfileKind::Int => leading_int(value).is_some_and(|v| v >= 0),
                ProfileKind::Time => {
                    crate::value::time::parse_time(value, crate::kind::TimeUnit::Seconds).is_ok()
                }
            };
            if !ok {
                return fail(format!(
                    "profile {}: invalid value '{value}' for --{}",
                    self.profile.name(),
                    given.name
                ));
            }
        }
        Ok(())
    }

    /// The profile's jobs, as one job file: a `[global]` section, then its jobs.
    pub fn sections(&self, keywords: &Keywords) -> Result<Vec<RawSection>, ParseError> {
        let place = Place::CommandLine { arg: self.arg };
        match self.profile {
            Profile::Tiobench => Ok(tiobench(keywords, &place)),
            Profile::Act => self.act_sections(&place),
        }
    }
}

/// The value of fio's leading digits in `text` (`2x` is 2), as its integer options read it.
fn leading_int(text: &str) -> Option<i64> {
    let t = text.trim();
    let (sign, digits) = match t.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, t),
    };
    let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
    digits[..end].parse::<i64>().ok().map(|v| sign * v)
}

/// tiobench's four files, in the working directory.
pub const TIOBENCH_FILES: &str = ".fio.tio.1:.fio.tio.2:.fio.tio.3:.fio.tio.4";

/// fio 3.33's tiobench jobs: sequential write, random write, sequential read and random
/// read, each in its own group, over four files in the working directory whose total size is
/// 4 × the machine's memory in MiB × 1024 bytes (98734080 on a machine of 24105 MiB).
fn tiobench(keywords: &Keywords, place: &Place) -> Vec<RawSection> {
    let size = (4 * keywords.mb_memory * 1024).to_string();
    let global: &[(&str, Option<&str>)] = &[
        ("buffered", Some("0")),
        ("size", Some(&size)),
        ("bs", Some("4096")),
        ("loops", Some("1")),
        ("directory", Some("./")),
        ("numjobs", Some("1")),
        ("runtime", Some("600")),
        ("group_reporting", None),
        ("thread", None),
        ("overwrite", Some("1")),
        ("filename", Some(TIOBENCH_FILES)),
        ("ioengine", Some("sync")),
    ];
    let jobs: [(&str, &str, bool); 4] = [
        ("seqwrite", "write", true),
        ("randwrite", "randwrite", true),
        ("seqread", "read", false),
        ("randread", "randread", false),
    ];
    let mut sections = vec![section("global", true, global, place)];
    for (i, (name, rw, fsync)) in jobs.into_iter().enumerate() {
        let mut lines = vec![("name", Some(name))];
        if i > 0 {
            lines.push(("stonewall", None));
        }
        lines.push(("rw", Some(rw)));
        if fsync {
            lines.push(("end_fsync", Some("1")));
        }
        sections.push(section(name, false, &lines, place));
    }
    sections
}

fn section(name: &str, global: bool, lines: &[(&str, Option<&str>)], place: &Place) -> RawSection {
    RawSection {
        name: name.to_string(),
        place: place.clone(),
        global,
        header_note: None,
        lines: lines
            .iter()
            .map(|(k, v)| RawLine {
                key: k.to_string(),
                value: v.map(str::to_string),
                place: place.clone(),
            })
            .collect(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `profile` run with `options` (name and value) given in argument 2.
    pub(super) fn given(profile: Profile, options: &[(&str, Option<&str>)]) -> ProfileRun {
        ProfileRun {
            profile,
            arg: 1,
            options: options
                .iter()
                .map(|(n, v)| GivenOption {
                    name: n.to_string(),
                    value: v.map(str::to_string),
                    arg: 2,
                })
                .collect(),
        }
    }

    fn run(options: &[(&str, Option<&str>)]) -> ProfileRun {
        given(Profile::Tiobench, options)
    }

    #[test]
    fn tiobench_is_four_groups_over_four_files_sized_from_memory() {
        let kw = Keywords { ncpus: 2, pagesize: 4096, mb_memory: 24105 };
        let s = run(&[]).sections(&kw).unwrap();
        let names: Vec<_> = s.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["global", "seqwrite", "randwrite", "seqread", "randread"]);
        let size = s[0].lines.iter().find(|l| l.key == "size").unwrap();
        assert_eq!(size.value.as_deref(), Some("98734080"));
        assert!(s[2].lines.iter().any(|l| l.key == "stonewall"));
        assert!(!s[1].lines.iter().any(|l| l.key == "stonewall"));
    }

    #[test]
    fn options_are_checked_as_fio_parses_them() {
        assert!(run(&[("block", Some("8192")), ("numruns", Some("2x"))]).check().is_ok());
        assert!(run(&[("block", Some("abc"))]).check().is_err());
        assert!(run(&[("dir", Some(""))]).check().is_err());
        assert!(run(&[("load", Some("2"))]).check().is_err());
        assert_eq!(leading_int("-1"), Some(-1));
    }
}
