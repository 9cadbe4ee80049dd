//! The program flags: one table of the command-line flags that are not job options
//! (`--output`, `--parse-only`, `--help`, …), and of the subcommands' flags (`genzipf`,
//! `report`, `fuse-export`).
//!
//! As ripgrep's `flags/defs.rs`, each flag is one entry ([`Flag`]): its name, short name,
//! value, one-line and long help, and its fixed values where it has some. Everything that
//! lists flags is generated from the table: the command-line parser recognizes a flag by
//! looking it up here ([`find`]) and acts on its [`FlagId`], and the did-you-mean
//! suggestions ([`suggest`]) come from it; `iomark-manual` prints `--help`, the man page and
//! the bash, zsh and fish completions from it. A test checks the table as a whole and the
//! parser against it.

mod defs;
mod flag;
mod shell;

pub use defs::{
    all, find, find_short, suggest, supported, COMPARE, CRCTEST_NAMES, DEBUG_CATEGORIES,
    EXIT_CODES, FUSE_EXPORT, GENZIPF, REPORT, SUBCOMMANDS, SWEEP,
};
pub use flag::{Arg, ExitStatus, Flag, FlagId, ShortFlag, Status, Subcommand, Values};
pub use shell::Shell;
