//! Data verification end to end (docs/verify.md): damage found where it was done, verify
//! reads that check the newest write of their place, the backlog, passes, trims and helper
//! threads, `verify_interval` layouts, against fio 3.33 where it is installed.

mod backlog;
mod damage;
mod helpers;
mod interval;
mod passes;
mod reads;
mod runs;
mod trims;
