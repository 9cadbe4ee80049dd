//! The shells that `--completions=SHELL` names: the value the command-line parser reads, and
//! that `iomark-manual` writes a completion script for.

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
