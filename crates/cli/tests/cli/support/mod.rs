//! What the test modules share, each helper once: running iomark and fio
//! ([`run`]), what is installed ([`tools`]), reading reports and logs ([`report`],
//! [`iolog`]), golden files ([`golden`]), the job-file corpus ([`corpus`]), loop devices
//! and small file systems ([`devices`]), blktrace recordings ([`blktrace`]), processes watched while they run ([`process`]),
//! and tables of command lines run under both programs ([`cases`]).

pub mod blktrace;
pub mod cases;
pub mod corpus;
pub mod devices;
pub mod golden;
pub mod iolog;
pub mod process;
pub mod report;
pub mod run;
pub mod tools;
