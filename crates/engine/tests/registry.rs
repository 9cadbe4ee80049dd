//! The engine registry against the option table: the `ioengine` choices that iomark runs
//! (fio's choices less those `compat` refuses and `external`) are exactly the registry's
//! engines, and the options crate's list of supported engines is the registry's, in order.

use iomark_engine::registry;
use iomark_options::assemble::SUPPORTED_ENGINES;
use iomark_options::compat;
use iomark_options::table::{self, Kind};

#[test]
fn the_option_tables_runnable_engines_are_the_registrys() {
    let Some(Kind::Enum(choices)) = table::find("ioengine").map(|d| d.kind) else {
        panic!("the option table has no ioengine choice list");
    };
    let mut runnable: Vec<&str> = choices
        .iter()
        .map(|c| c.name)
        .filter(|&name| name != "external" && compat::engine_reason(name).is_none())
        .collect();
    let mut registered: Vec<&str> = registry::names().collect();
    runnable.sort_unstable();
    registered.sort_unstable();
    assert_eq!(runnable, registered, "ioengine choices iomark runs vs the engine registry");
}

#[test]
fn the_supported_engines_are_the_registrys_in_order() {
    assert_eq!(SUPPORTED_ENGINES, registry::names().collect::<Vec<_>>());
}

#[test]
fn the_engines_page_describes_every_engine() {
    let page = include_str!("../../../docs/engines.md");
    for name in registry::names() {
        assert!(page.contains(&format!("`{name}`")), "docs/engines.md does not name {name}");
    }
}
