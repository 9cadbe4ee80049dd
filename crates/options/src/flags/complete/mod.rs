//! Shell completions for bash, zsh and fish, printed from the flag table and the option table.
//!
//! The three scripts offer the same things, gathered once (`entries.rs`): the program
//! flags iomark acts on, with their fixed values; the job options iomark supports, as
//! `--NAME=`, with the values of the ones that have fixed choices (`--rw=` lists the modes,
//! `--ioengine=` the engines iomark runs); the `genzipf` subcommand and its flags; and file
//! names for job files. Each shell's file only writes them in its own syntax.

mod bash;
mod entries;
mod fish;
mod zsh;

/// A shell that `iomark --completions` writes a script for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shell {
    /// GNU bash (a function for `complete -F`).
    Bash,
    /// zsh (a `#compdef` function for `compinit`).
    Zsh,
    /// fish (`complete` commands).
    Fish,
}

impl Shell {
    /// Every shell, in the order of `--completions`' values.
    pub const ALL: [Shell; 3] = [Shell::Bash, Shell::Zsh, Shell::Fish];

    /// The shell called `name` (`bash`, `zsh`, `fish`).
    pub fn from_name(name: &str) -> Option<Shell> {
        Shell::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Its name, as `--completions` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Shell::Bash => "bash",
            Shell::Zsh => "zsh",
            Shell::Fish => "fish",
        }
    }
}

/// The completion script for `shell`.
pub fn script(shell: Shell) -> String {
    let entries = entries::entries();
    match shell {
        Shell::Bash => bash::script(&entries),
        Shell::Zsh => zsh::script(&entries),
        Shell::Fish => fish::script(&entries),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shells_round_trip_through_their_names() {
        for shell in Shell::ALL {
            assert_eq!(Shell::from_name(shell.name()), Some(shell));
        }
        assert_eq!(Shell::from_name("tcsh"), None);
    }
}
