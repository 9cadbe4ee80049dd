//! Shell completions for bash, zsh and fish, printed from the flag table and the option table.
//!
//! The three scripts offer the same things, gathered once (`entries.rs`): the program
//! flags iomark acts on, with their fixed values; the job options iomark supports, as
//! `--NAME=`, with the values of the ones that have fixed choices (`--rw=` lists the modes,
//! `--ioengine=` the engines iomark runs); the subcommands and their flags; and file
//! names for job files. Each shell's file only writes them in its own syntax.

mod bash;
mod entries;
mod fish;
mod zsh;

pub use iomark_options::flags::Shell;

/// The completion script for `shell`.
pub fn script(shell: Shell) -> String {
    let entries = entries::entries();
    match shell {
        Shell::Bash => bash::script(&entries),
        Shell::Zsh => zsh::script(&entries),
        Shell::Fish => fish::script(&entries),
    }
}
