//! [`Notes`]: the one list of a run's notes, which every stage adds to and the printers
//! read from the [`RunReport`](crate::RunReport).
//!
//! A note is something the user should know that is no error: a value of a job file read
//! as fio 3.33 reads it although it is malformed, a queue depth capped at 1, an engine that
//! completed its submissions inline, a registration that fell back. Each note is one line
//! of text without the `note: ` that the text reports put before it; the same line arising
//! twice (a global option read by every job, a note of every clone) is kept once.

use serde::{Deserialize, Serialize};

/// A run's notes, each once, in the order they arose.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Notes(Vec<String>);

impl Notes {
    /// No notes.
    pub fn new() -> Self {
        Notes(Vec::new())
    }

    /// Adds `note` unless the same line is there already.
    pub fn add(&mut self, note: impl Into<String>) {
        let note = note.into();
        if !self.0.contains(&note) {
            self.0.push(note);
        }
    }

    /// Whether there is no note.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The notes, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }
}

impl<S: Into<String>> Extend<S> for Notes {
    fn extend<I: IntoIterator<Item = S>>(&mut self, notes: I) {
        for note in notes {
            self.add(note);
        }
    }
}

impl<S: Into<String>> FromIterator<S> for Notes {
    fn from_iter<I: IntoIterator<Item = S>>(notes: I) -> Self {
        let mut all = Notes::new();
        all.extend(notes);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_note_once_in_order() {
        let mut notes: Notes = ["b", "a", "b"].into_iter().collect();
        notes.add("c");
        notes.add("a");
        assert_eq!(notes.iter().collect::<Vec<_>>(), ["b", "a", "c"]);
        assert!(!notes.is_empty() && Notes::new().is_empty());
    }
}
