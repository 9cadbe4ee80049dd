//! The `rw` modes against the option table: every `rw` choice names a mode, and every
//! mode's name is a choice.

use iomark_core::RwMode;
use iomark_options::table::{self, Kind};

#[test]
fn rw_modes_are_the_option_tables_rw_choices() {
    let Some(Kind::Enum(choices)) = table::find("rw").map(|d| d.kind) else {
        panic!("the option table has no rw choice list");
    };
    for choice in choices.iter() {
        assert!(RwMode::from_name(choice.name).is_some(), "rw={}: no RwMode", choice.name);
    }
    for mode in RwMode::ALL {
        assert!(choices.iter().any(|c| c.name == mode.name()), "{mode:?}: not an rw choice");
    }
}
