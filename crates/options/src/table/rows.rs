//! The rows of the option table, in the order of fio 3.33's `--cmdhelp=all`.

use super::{Category, Kind, OptionDef, Support};

/// Every option.
pub(super) static ROWS: &[OptionDef] = &[OptionDef {
    name: "name",
    aliases: &[],
    kind: Kind::Str,
    default: None,
    category: Category::JobDescription,
    help: "Name of this job",
    long_help: "",
    support: Support::Yes,
    engines: &[],
}];
