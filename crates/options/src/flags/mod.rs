//! The program flags: one table of the command-line flags that are not job options
//! (`--output`, `--parse-only`, `--help`, …), and of the `genzipf` subcommand's flags.
//!
//! As ripgrep's `flags/defs.rs`, each flag is one entry ([`Flag`]): its name, short name,
//! value, one-line and long help, and its fixed values where it has some. Everything that
//! lists flags is generated from the table: the command-line parser recognizes a flag by
//! looking it up here ([`find`]) and acts on its [`FlagId`]; `--help` ([`help`]), the
//! did-you-mean suggestions ([`suggest`]), the man page ([`man`]) and
//! the bash, zsh and fish completions ([`complete`]) print the table. A test checks the table
//! as a whole and the parser against it.

pub mod complete;
mod defs;
mod flag;
pub mod help;
pub mod man;

pub use defs::{all, find, find_short, suggest, supported, DEBUG_CATEGORIES, EXIT_CODES, GENZIPF};
pub use flag::{Arg, ExitStatus, Flag, FlagId, ShortFlag, Status, Subcommand, Values};
