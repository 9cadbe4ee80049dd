//! Running jobs end to end with the `iomark` binary: golden reports under the fake clock,
//! exact I/O counts against fio 3.33 on the same job files, group reports, the latency per
//! I/O priority in every merge, exit codes and what goes to standard output and standard
//! error.
//!
//! Every run happens inside a temporary directory that the test creates and removes; job
//! files and the files the jobs lay out live there. Tests that need fio print
//! `skipped: fio not installed` and pass when `fio` is not on the `PATH`.

mod against_fio;
mod fio_tools;
mod golden;
mod groups;
mod outputs;
mod prios;
