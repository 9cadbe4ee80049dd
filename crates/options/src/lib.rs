//! Everything iomark reads from its user, and nothing else: the option table, the value
//! grammar, fio's job-file and command-line grammars, and the validated [`JobSpec`]s they
//! produce.
//!
//! Parsing is the first of two stages: a `JobSpec` is what the user wrote, checked value by
//! value, with no system calls. Resolving files, sizes, seeds and engines, and rules that
//! involve several options, belong to the runner's plan.
#![forbid(unsafe_code)]

pub mod table;
pub mod value;
