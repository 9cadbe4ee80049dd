//! What the completion scripts offer, gathered once for the three shells: one entry per
//! program flag iomark acts on and per job option it supports (names, how the value is
//! written, what completes it, one line of help), and the subcommands' flags.

use iomark_options::assemble::SUPPORTED_ENGINES;
use iomark_options::flags::{self, Arg, Subcommand, Values};
use iomark_options::kind::{Choice, Kind};
use iomark_options::table::{self, Support};

/// What may complete the value of a flag or option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Complete {
    /// Nothing to offer (a number, a size, free text).
    Nothing,
    /// A file name.
    Files,
    /// One of these words.
    Words(Vec<&'static str>),
    /// Some of these words, joined by `,`.
    List(Vec<&'static str>),
}

impl Complete {
    /// The words offered, if any.
    pub(super) fn words(&self) -> &[&'static str] {
        match self {
            Complete::Words(w) | Complete::List(w) => w,
            Complete::Nothing | Complete::Files => &[],
        }
    }
}

/// How a flag or option takes its value on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Takes {
    /// No value.
    Nothing,
    /// A value, after `=` or as the next word.
    Value,
    /// A value that may be left out, only after `=` (`--cmdhelp=bs`, `--stonewall=0`).
    AfterEquals,
}

/// One flag or job option, as a completion offers it.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    /// Its long names without dashes: the canonical one first, then its aliases.
    pub(super) names: Vec<&'static str>,
    /// Its short name, if any.
    pub(super) short: Option<char>,
    /// How it takes a value.
    pub(super) takes: Takes,
    /// What completes the value.
    pub(super) value: Complete,
    /// One line of help.
    pub(super) help: &'static str,
}

/// The program flags iomark acts on, then the job options it supports.
pub(super) fn entries() -> Vec<Entry> {
    let mut out: Vec<Entry> = flags::supported()
        .map(|f| Entry {
            names: vec![f.long],
            short: f.short,
            takes: match f.arg {
                Arg::None | Arg::Ignored => Takes::Nothing,
                Arg::Required(_) => Takes::Value,
                Arg::Optional(_) => Takes::AfterEquals,
            },
            value: match f.values {
                Values::Any => Complete::Nothing,
                Values::File => Complete::Files,
                Values::Fixed(w) => Complete::Words(w.to_vec()),
                Values::List(w) => Complete::List(w.to_vec()),
                Values::OptionName => Complete::Words(
                    std::iter::once("all").chain(table::all().iter().map(|d| d.name)).collect(),
                ),
                Values::Engine => Complete::Words(SUPPORTED_ENGINES.to_vec()),
            },
            help: f.help,
        })
        .collect();
    for def in table::all().iter().filter(|d| d.support == Support::Yes) {
        let choices = |c: &[Choice]| c.iter().map(|c| c.name).collect::<Vec<_>>();
        let value = match def.kind {
            Kind::Enum(_) if def.name == "ioengine" => Complete::Words(SUPPORTED_ENGINES.to_vec()),
            Kind::Enum(c) | Kind::Distribution(c) => Complete::Words(choices(c)),
            Kind::ChoiceSet(c) => Complete::List(choices(c)),
            Kind::Bool | Kind::Flag => Complete::Words(vec!["0", "1"]),
            Kind::FileList => Complete::Files,
            _ => Complete::Nothing,
        };
        let takes = match def.kind {
            Kind::Flag => Takes::AfterEquals,
            _ => Takes::Value,
        };
        let names = std::iter::once(def.name).chain(def.aliases.iter().copied()).collect();
        out.push(Entry { names, short: None, takes, value, help: def.help });
    }
    out
}

/// `text` on one line, for descriptions (a subcommand's help may break its lines).
pub(super) fn one_line(text: &str) -> String {
    text.replace('\n', " ")
}

/// A subcommand's flags as entries.
pub(super) fn sub_entries(sub: &Subcommand) -> Vec<Entry> {
    sub.flags
        .iter()
        .map(|f| Entry {
            names: f.long.into_iter().collect(),
            short: Some(f.short),
            takes: if f.arg.is_some() { Takes::Value } else { Takes::Nothing },
            value: match f.values {
                Values::Fixed(w) => Complete::Words(w.to_vec()),
                Values::File => Complete::Files,
                _ => Complete::Nothing,
            },
            help: f.help,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_plain_so_that_no_shell_needs_them_quoted() {
        let subs: Vec<Entry> = flags::SUBCOMMANDS.iter().flat_map(sub_entries).collect();
        for entry in entries().iter().chain(&subs) {
            for word in entry.names.iter().chain(entry.value.words()) {
                assert!(
                    !word.is_empty()
                        && word.bytes().all(|b| b.is_ascii_alphanumeric() || b"_+.-".contains(&b)),
                    "{word:?} needs quoting"
                );
            }
        }
    }

    #[test]
    fn rw_offers_its_modes_and_ioengine_the_engines_iomark_runs() {
        let all = entries();
        let find = |name: &str| all.iter().find(|e| e.names.contains(&name)).expect(name);
        assert!(find("rw").value.words().contains(&"randread"));
        assert!(find("readwrite").value.words().contains(&"randtrim"));
        assert_eq!(find("ioengine").value.words(), SUPPORTED_ENGINES);
        assert_eq!(find("stonewall").takes, Takes::AfterEquals);
        assert_eq!(find("output").value, Complete::Files);
    }
}
