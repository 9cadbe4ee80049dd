//! [`RwMode`]: fio's `rw` (`readwrite`) patterns, typed.

use crate::ddir::Ddir;

/// fio's `rw` (`readwrite`) modes, without the `:N` modifier (the workload keeps it apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RwMode {
    /// `read`: sequential reads.
    Read,
    /// `write`: sequential writes.
    Write,
    /// `trim`: sequential trims.
    Trim,
    /// `randread`: random reads.
    RandRead,
    /// `randwrite`: random writes.
    RandWrite,
    /// `randtrim`: random trims.
    RandTrim,
    /// `rw` / `readwrite`: sequential mixed reads and writes; each direction keeps its own
    /// position (fio 3.33: `rw=rw` over 32k gives reads at 0,4k,8k… and writes at 0,4k…).
    ReadWrite,
    /// `randrw`: random mixed reads and writes, one random map shared by both.
    RandReadWrite,
    /// `trimwrite`: sequential; each block is trimmed, then the same block written.
    TrimWrite,
    /// `randtrimwrite`: like `trimwrite` at random offsets.
    RandTrimWrite,
}

impl RwMode {
    /// Every mode, in the order of the option table's `rw` choices.
    pub const ALL: [RwMode; 10] = [
        RwMode::Read,
        RwMode::Write,
        RwMode::Trim,
        RwMode::RandRead,
        RwMode::RandWrite,
        RwMode::RandTrim,
        RwMode::ReadWrite,
        RwMode::RandReadWrite,
        RwMode::TrimWrite,
        RwMode::RandTrimWrite,
    ];

    /// The mode fio's `rw` value `name` stands for (without its `:N`): one of the option
    /// table's `rw` choices, `readwrite` being another name of `rw`.
    pub fn from_name(name: &str) -> Option<RwMode> {
        match name {
            "readwrite" => Some(RwMode::ReadWrite),
            _ => RwMode::ALL.into_iter().find(|m| m.name() == name),
        }
    }

    /// fio's name of the mode (`rw` for [`RwMode::ReadWrite`]).
    pub const fn name(self) -> &'static str {
        match self {
            RwMode::Read => "read",
            RwMode::Write => "write",
            RwMode::Trim => "trim",
            RwMode::RandRead => "randread",
            RwMode::RandWrite => "randwrite",
            RwMode::RandTrim => "randtrim",
            RwMode::ReadWrite => "rw",
            RwMode::RandReadWrite => "randrw",
            RwMode::TrimWrite => "trimwrite",
            RwMode::RandTrimWrite => "randtrimwrite",
        }
    }

    /// True for the modes whose offsets are random (subject to `percentage_random`).
    pub const fn is_random(self) -> bool {
        matches!(
            self,
            RwMode::RandRead
                | RwMode::RandWrite
                | RwMode::RandTrim
                | RwMode::RandReadWrite
                | RwMode::RandTrimWrite
        )
    }

    /// True when the mode issues I/Os of direction `dir` (never a sync: syncs come from
    /// other options).
    pub fn issues(self, dir: Ddir) -> bool {
        use Ddir::*;
        dir.is_data()
            && match self {
                RwMode::Read | RwMode::RandRead => dir == Read,
                RwMode::Write | RwMode::RandWrite => dir == Write,
                RwMode::Trim | RwMode::RandTrim => dir == Trim,
                RwMode::ReadWrite | RwMode::RandReadWrite => dir != Trim,
                RwMode::TrimWrite | RwMode::RandTrimWrite => dir != Read,
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_to_their_mode() {
        for mode in RwMode::ALL {
            assert_eq!(RwMode::from_name(mode.name()), Some(mode));
        }
        assert_eq!(RwMode::from_name("readwrite"), Some(RwMode::ReadWrite));
        assert_eq!(RwMode::from_name("randreadwrite"), None);
        assert_eq!(RwMode::from_name("read:4k"), None, "the `:N` is not the mode's");
    }

    #[test]
    fn modes_issue_their_directions() {
        let issued = |m: RwMode| Ddir::DATA.map(|d| m.issues(d));
        assert_eq!(issued(RwMode::RandRead), [true, false, false]);
        assert_eq!(issued(RwMode::ReadWrite), [true, true, false]);
        assert_eq!(issued(RwMode::RandTrimWrite), [false, true, true]);
        assert!(!RwMode::Write.issues(Ddir::Sync));
        assert!(RwMode::RandTrimWrite.is_random() && !RwMode::TrimWrite.is_random());
    }
}
