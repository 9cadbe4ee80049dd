//! "Did you mean": the option name nearest to a mistyped one (the program flags have their
//! own, [`crate::flags::suggest`]).

use crate::table;

/// The option name (or alias) closest to `typed`, if one is close enough to be a typo.
///
/// Close enough means an edit distance (with transpositions) of at most 1 for names of up
/// to 4 characters, 2 up to 8, and 3 beyond; ties go to the name first in the table.
pub fn option(typed: &str) -> Option<&'static str> {
    let typed = typed.to_ascii_lowercase();
    let limit = match typed.chars().count() {
        0 => return None,
        1..=4 => 1,
        5..=8 => 2,
        _ => 3,
    };
    let mut best: Option<(usize, &'static str)> = None;
    for def in table::all() {
        for name in std::iter::once(&def.name).chain(def.aliases) {
            let d = strsim::damerau_levenshtein(&typed, name);
            if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, name));
            }
        }
    }
    best.map(|(_, name)| name)
}
