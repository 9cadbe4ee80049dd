//! The text of `iomark --help` and of a subcommand's `-h`, printed from the flag table.
//!
//! The prose around the list of flags lives here too, as constants that the man page
//! ([`crate::man`]) prints as well.

use iomark_options::flags::{self, Subcommand, EXIT_CODES, SUBCOMMANDS};
use std::fmt::Write as _;

/// What iomark is, in a phrase (the man page's NAME line).
pub const ABOUT: &str = "a flexible I/O tester that runs fio's job files and prints fio's reports";

/// What follows `iomark` on a command line.
pub const SYNOPSIS: &str = "[options] [job options] [job file(s)]";

/// What iomark does with no job at all.
pub const DEFAULT_SUITE: &str =
    "With no job file and no --name, iomark runs its default suite on a temporary file.";

/// How job options are written on the command line.
pub const JOB_OPTIONS: &str = "\
Job options are fio's (see --cmdhelp=all and docs/options.md): options before the first
--name=JOB are global, --name opens a job and the options after it belong to it.";

/// The width of the flag column of `--help`.
const COLUMN: usize = 24;

/// Where `--help` wraps its prose.
const WIDTH: usize = 90;

/// What `iomark --help` prints.
pub fn text() -> String {
    let mut out = String::new();
    let _ = write!(out, "iomark: {ABOUT}\n\nusage: iomark {SYNOPSIS}\n\n{DEFAULT_SUITE}\n");
    for sub in SUBCOMMANDS {
        let _ = writeln!(out, "`iomark {} -h` {}.", sub.name, sub.summary);
    }
    out.push_str("\nOptions:\n");
    for flag in flags::supported() {
        let _ = writeln!(out, "  {:<COLUMN$} {}", flag.usage(), flag.help);
    }
    let _ = writeln!(out, "\n{JOB_OPTIONS}\n");
    // The exit codes, a line broken only between two of them.
    let mut line = String::from("Exit codes:");
    for (i, status) in EXIT_CODES.iter().enumerate() {
        let end = if i + 1 == EXIT_CODES.len() { "." } else { "," };
        let item = format!("{} {}{end}", status.code, status.meaning);
        if line.len() + 1 + item.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        } else {
            line.push(' ');
        }
        line.push_str(&item);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// What `iomark NAME -h` prints for a subcommand, in fio's layout for its small tools
/// (`-t\tHELP`; a flag with a long name shows both, `-f, --format=FORMAT\tHELP`).
pub fn subcommand(sub: &Subcommand) -> String {
    let mut out = format!("{}\n", sub.title);
    for flag in sub.flags {
        let name = match flag.long {
            Some(_) => flag.usage(),
            None => format!("-{}", flag.short),
        };
        let _ = writeln!(out, "\t{name}\t{}", flag.help.replace('\n', "\n\t\t"));
    }
    out
}
