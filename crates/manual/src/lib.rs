//! What the option table and the program-flag table print for people and shells: fio's
//! `--cmdhelp` and `--enghelp` ([`cmdhelp`]), `iomark --help` and a subcommand's `-h` ([`help`]), the
//! man page `iomark.1` ([`man`]), the bash, zsh and fish completion scripts ([`complete`]),
//! and the generated pages `docs/options.md` and `docs/compatibility.md` ([`docs`]).
//!
//! The tables themselves, and everything that reads the user's input, are
//! [`iomark_options`]'; this crate only renders them, so that a list is written once and
//! every text that shows it follows. Tests fail when a checked-in rendering (the man page,
//! the two pages) is stale.
#![forbid(unsafe_code)]

pub mod cmdhelp;
pub mod complete;
pub mod docs;
pub mod help;
pub mod man;
