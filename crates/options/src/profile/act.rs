//! fio 3.33's `act` profile: the Aerospike Certification Tool's load on the devices named in
//! `device-names` (comma-separated), as the jobs that fio makes of it.
//!
//! For each device, in order, a read job of `threads-per-queue` clones reading
//! `read-req-num-512-blocks` × 512 bytes at random, and a write job writing
//! `large-block-op-kbytes` (bytes, despite the name, as fio 3.33 reads it) at random, all
//! synchronous and direct, time-based for `test-duration`. The rates are fio's, read off its
//! `--debug=parse` for many settings:
//!
//! - each read clone: `rate_iops` = load × 2000 / threads-per-queue (whole division);
//! - the write job: `rate_iops` = ⌈load × 1000 / ⌊large block / read size⌋⌉, that is
//!   1000 × load records of the read size a second, gathered into large blocks.
//!
//! With `prep`, the jobs are ACT's preparation instead: each device is written whole with
//! zeroes in 1 MiB blocks, then (after a `stonewall`) salted with 4 KiB random writes by
//! libaio at depth 64. The latency table and verdict that follow the run are the cli's and
//! the report's ([`ActSetup`] says what they need).
//!
//! Differences from fio 3.33, each refused or done as meant where fio misbehaves
//! (docs/workloads.md): a `test-duration` with a unit runs that long (fio 3.33 writes the
//! microseconds as seconds: `1m` runs 60 000 000 s, its default `24h` 86 400 000 000 s);
//! `threads-per-queue=0`, `read-req-num-512-blocks=0` and a large block smaller than a read
//! are refused (fio 3.33 dies of SIGFPE); a device name of any length is taken (fio 3.33
//! aborts on a buffer overflow past about 30 characters).

use super::{leading_int, section, ProfileRun};
use crate::error::{ErrorKind, ParseError, Place};
use crate::jobfile::RawSection;
use crate::value::{self, TimeUnit};
use std::time::Duration;

/// What the run of an `act` profile needs besides its jobs: the table and the verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActSetup {
    /// `prep`: the jobs are the preparation, whose I/Os the table does not count.
    pub prep: bool,
    /// The profile's options as given, with their values, in order: fio 3.33 echoes them
    /// first among the JSON document's `global options` (a bare `prep` is left out).
    pub echo: Vec<(String, String)>,
    /// The table's rows: one per [`SLICE`] of `test-duration`, begun ones included, whether
    /// the run reaches them or not (fio 3.33: 1 for 3600 s, 2 for 3601 s, none for 0; with
    /// `prep` too).
    pub slices: usize,
}

/// A slice of the table: an hour, as ACT's.
pub const SLICE: Duration = Duration::from_secs(3600);

/// The act profile's settings, read from the given options over fio's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Act {
    devices: Vec<String>,
    load: u64,
    threads_per_queue: u64,
    read_bytes: u64,
    large_bytes: u64,
    runtime: String,
    prep: bool,
}

impl ProfileRun {
    /// The last value given for the profile option `name`, or its default.
    fn given(&self, name: &str) -> Option<&str> {
        let given = self.options.iter().rev().find(|o| o.name == name);
        match given {
            Some(o) => Some(o.value.as_deref().unwrap_or("")),
            None => self.profile.options().iter().find(|o| o.name == name)?.default,
        }
    }

    /// What the table and verdict of an `act` run need; `None` for another profile.
    pub fn act_setup(&self) -> Option<ActSetup> {
        if self.profile != super::Profile::Act {
            return None;
        }
        let echo =
            self.options.iter().filter_map(|o| Some((o.name.clone(), o.value.clone()?))).collect();
        let duration = self.duration().unwrap_or_default();
        Some(ActSetup {
            prep: self.options.iter().any(|o| o.name == "prep"),
            echo,
            slices: duration.as_nanos().div_ceil(SLICE.as_nanos()) as usize,
        })
    }

    /// `test-duration`: a bare number is seconds.
    fn duration(&self) -> Result<Duration, value::ValueError> {
        value::time::parse_time(self.given("test-duration").unwrap_or("24h"), TimeUnit::Seconds)
    }

    fn act(&self, place: &Place) -> Result<Act, ParseError> {
        let fail = |option: &str, why: String| {
            Err(ParseError::new(place.clone(), ErrorKind::Usage(why)).for_option(option))
        };
        let int = |name: &str| self.given(name).and_then(leading_int).unwrap_or(0).max(0) as u64;
        let devices: Vec<String> = self
            .given("device-names")
            .unwrap_or("")
            .split(',')
            .filter(|d| !d.is_empty())
            .map(str::to_string)
            .collect();
        if devices.is_empty() {
            return fail(
                "device-names",
                "act: you need to set IO target(s) with the device-names option".into(),
            );
        }
        let threads_per_queue = int("threads-per-queue");
        if threads_per_queue == 0 {
            return fail("threads-per-queue", "act: --threads-per-queue must be at least 1".into());
        }
        let read_bytes = 512 * int("read-req-num-512-blocks");
        if read_bytes == 0 {
            return fail(
                "read-req-num-512-blocks",
                "act: --read-req-num-512-blocks must be at least 1".into(),
            );
        }
        let large_bytes = int("large-block-op-kbytes");
        if large_bytes < read_bytes {
            return fail(
                "large-block-op-kbytes",
                format!(
                    "act: --large-block-op-kbytes={large_bytes} is smaller than a read \
                     ({read_bytes} bytes); fio 3.33 reads it in bytes"
                ),
            );
        }
        let runtime = match self.duration() {
            Ok(d) if d.subsec_nanos() == 0 => format!("{}s", d.as_secs()),
            Ok(d) => format!("{}us", d.as_micros()),
            Err(e) => return fail("test-duration", format!("act: --test-duration: {e}")),
        };
        Ok(Act {
            devices,
            load: int("load"),
            threads_per_queue,
            read_bytes,
            large_bytes,
            runtime,
            prep: self.options.iter().any(|o| o.name == "prep"),
        })
    }

    /// fio 3.33's act jobs, as one job file (see the module documentation).
    pub(super) fn act_sections(&self, place: &Place) -> Result<Vec<RawSection>, ParseError> {
        let act = self.act(place)?;
        let mut global: Vec<(&str, Option<&str>)> = vec![
            ("direct", Some("1")),
            ("ioengine", Some("sync")),
            ("random_generator", Some("lfsr")),
            ("group_reporting", Some("1")),
            ("thread", None),
        ];
        if !act.prep {
            global.extend([("runtime", Some(act.runtime.as_str())), ("time_based", Some("1"))]);
        }
        let mut sections = vec![section("global", true, &global, place)];
        for device in &act.devices {
            sections.extend(match act.prep {
                true => prep_jobs(device, place),
                false => load_jobs(&act, device, place),
            });
        }
        Ok(sections)
    }
}

/// A job section: `name`, then `lines`, in fio's order.
fn job(name: &str, lines: &[(&str, Option<&str>)], place: &Place) -> RawSection {
    let mut all = vec![("name", Some(name))];
    all.extend_from_slice(lines);
    section(name, false, &all, place)
}

/// A device's reads and large-block writes.
fn load_jobs(act: &Act, device: &str, place: &Place) -> [RawSection; 2] {
    let read_rate = (act.load * 2000 / act.threads_per_queue).to_string();
    let per_large_block = act.large_bytes / act.read_bytes;
    let write_rate = (act.load * 1000).div_ceil(per_large_block).to_string();
    let (numjobs, read_bs) = (act.threads_per_queue.to_string(), act.read_bytes.to_string());
    let large_bs = act.large_bytes.to_string();
    let (file, dev) = (("filename", Some(device)), device);
    [
        job(
            &format!("act-read-{dev}"),
            &[
                file,
                ("rw", Some("randread")),
                ("numjobs", Some(&numjobs)),
                ("rate_iops", Some(&read_rate)),
                ("bs", Some(&read_bs)),
            ],
            place,
        ),
        job(
            &format!("act-write-{dev}"),
            &[
                file,
                ("rw", Some("randwrite")),
                ("rate_iops", Some(&write_rate)),
                ("bs", Some(&large_bs)),
            ],
            place,
        ),
    ]
}

/// A device's preparation: zeroes over all of it, then salt.
fn prep_jobs(device: &str, place: &Place) -> [RawSection; 2] {
    let file = ("filename", Some(device));
    let zeroes = [file, ("bs", Some("1048576")), ("zero_buffers", None), ("rw", Some("write"))];
    let salt = [
        ("stonewall", None),
        file,
        ("bs", Some("4096")),
        ("ioengine", Some("libaio")),
        ("iodepth", Some("64")),
        ("rw", Some("randwrite")),
    ];
    [
        job(&format!("act-prep-zeroes-{device}"), &zeroes, place),
        job(&format!("act-prep-salt-{device}"), &salt, place),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::tests::given;
    use super::super::Profile;
    use super::*;

    /// Profile options as given: name and value.
    type Given<'a> = [(&'a str, Option<&'a str>)];

    fn act(options: &Given) -> ProfileRun {
        given(Profile::Act, options)
    }

    /// Each section as `name: key=value …`, as fio's `--debug=parse` lists them.
    fn shape(options: &Given) -> Vec<String> {
        let place = Place::CommandLine { arg: 1 };
        let sections = act(options).act_sections(&place).expect("act sections");
        sections
            .iter()
            .map(|s| {
                let lines: Vec<String> = s
                    .lines
                    .iter()
                    .map(|l| match &l.value {
                        Some(v) => format!("{}={v}", l.key),
                        None => l.key.clone(),
                    })
                    .collect();
                format!("{}: {}", s.name, lines.join(" "))
            })
            .collect()
    }

    /// The rates of the first read and write jobs.
    fn rates(options: &Given) -> (String, String) {
        let s = shape(options);
        let rate = |line: &str| {
            line.split(' ').find_map(|w| w.strip_prefix("rate_iops=")).unwrap_or("").to_string()
        };
        (rate(&s[1]), rate(&s[2]))
    }

    #[test]
    fn the_default_load_is_fios() {
        assert_eq!(
            shape(&[("device-names", Some("/dev/x"))]),
            [
                "global: direct=1 ioengine=sync random_generator=lfsr group_reporting=1 thread \
                 runtime=86400s time_based=1",
                "act-read-/dev/x: name=act-read-/dev/x filename=/dev/x rw=randread numjobs=8 \
                 rate_iops=250 bs=1536",
                "act-write-/dev/x: name=act-write-/dev/x filename=/dev/x rw=randwrite \
                 rate_iops=12 bs=131072",
            ]
        );
    }

    /// Rates as fio 3.33's `--debug=parse` showed them for these settings.
    #[test]
    fn rates_follow_fios_arithmetic() {
        let d = ("device-names", Some("a"));
        let cases: &[(&Given, (&str, &str))] = &[
            (&[("threads-per-queue", Some("3"))], ("666", "12")),
            (&[("load", Some("2"))], ("500", "24")),
            (&[("load", Some("3")), ("read-req-num-512-blocks", Some("8"))], ("750", "94")),
            (&[("large-block-op-kbytes", Some("153600"))], ("250", "10")),
            (&[("large-block-op-kbytes", Some("1536"))], ("250", "1000")),
            (&[("large-block-op-kbytes", Some("2048"))], ("250", "1000")),
            (&[("large-block-op-kbytes", Some("5000"))], ("250", "334")),
            (&[("large-block-op-kbytes", Some("32768"))], ("250", "48")),
            (&[("large-block-op-kbytes", Some("1024000"))], ("250", "2")),
            (&[("load", Some("2")), ("large-block-op-kbytes", Some("4096"))], ("500", "1000")),
            (&[("read-req-num-512-blocks", Some("1"))], ("250", "4")),
            (&[("load", Some("5"))], ("1250", "59")),
            (&[("load", Some("0"))], ("0", "0")),
        ];
        for (options, (read, write)) in cases {
            let mut all = vec![d];
            all.extend_from_slice(options);
            assert_eq!(rates(&all), (read.to_string(), write.to_string()), "{options:?}");
        }
    }

    #[test]
    fn devices_are_comma_separated_and_prep_replaces_the_load() {
        let s = shape(&[("device-names", Some("a,b")), ("test-duration", Some("3"))]);
        let names: Vec<_> = s.iter().map(|l| l.split(':').next().unwrap_or("")).collect();
        assert_eq!(names, ["global", "act-read-a", "act-write-a", "act-read-b", "act-write-b"]);
        assert!(s[0].ends_with("runtime=3s time_based=1"));
        let s = shape(&[("prep", None), ("device-names", Some("a"))]);
        assert_eq!(
            s,
            [
                "global: direct=1 ioengine=sync random_generator=lfsr group_reporting=1 thread",
                "act-prep-zeroes-a: name=act-prep-zeroes-a filename=a bs=1048576 zero_buffers \
                 rw=write",
                "act-prep-salt-a: name=act-prep-salt-a stonewall filename=a bs=4096 \
                 ioengine=libaio iodepth=64 rw=randwrite",
            ]
        );
    }

    #[test]
    fn durations_with_a_unit_run_as_long_as_they_say() {
        let runtime = |d: &str| {
            let s = shape(&[("device-names", Some("a")), ("test-duration", Some(d))]);
            s[0].split(' ').find_map(|w| w.strip_prefix("runtime=")).unwrap_or("").to_string()
        };
        assert_eq!(runtime("1m"), "60s");
        assert_eq!(runtime("1500ms"), "1500000us");
        assert_eq!(runtime("0"), "0s");
    }

    #[test]
    fn what_fio_dies_of_is_refused_with_the_option_named() {
        let place = Place::CommandLine { arg: 1 };
        for (options, option) in [
            (vec![], "device-names"),
            (
                vec![("device-names", Some("a")), ("threads-per-queue", Some("0"))],
                "threads-per-queue",
            ),
            (
                vec![("device-names", Some("a")), ("read-req-num-512-blocks", Some("0"))],
                "read-req-num-512-blocks",
            ),
            (
                vec![("device-names", Some("a")), ("large-block-op-kbytes", Some("1024"))],
                "large-block-op-kbytes",
            ),
            (vec![("device-names", Some("a")), ("test-duration", Some("5sx"))], "test-duration"),
        ] {
            let e = act(&options).act_sections(&place).expect_err(option);
            assert!(e.to_string().contains(option), "{e}");
        }
    }

    #[test]
    fn the_setup_echoes_the_options_given_but_a_bare_prep() {
        let run = act(&[("load", Some("2")), ("prep", None), ("device-names", Some("a"))]);
        let setup = run.act_setup().expect("act");
        assert!(setup.prep);
        assert_eq!(setup.slices, 24);
        for (duration, slices) in [("0", 0), ("1", 1), ("3600", 1), ("3601", 2), ("2h", 2)] {
            let run = act(&[("device-names", Some("a")), ("test-duration", Some(duration))]);
            assert_eq!(run.act_setup().expect("act").slices, slices, "{duration}");
        }
        assert_eq!(setup.echo, [("load".into(), "2".into()), ("device-names".into(), "a".into())]);
    }
}
