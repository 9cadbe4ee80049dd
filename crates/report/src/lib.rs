//! Printers over `&RunReport`: normal, terse, json, json+ and HTML.
//!
//! Printers never compute statistics. Filled by the runner and report issues.
