//! What a job does, as pure functions of (seed, job, step): offset generators, block size
//! choice, the read/write mix, rate and think time, buffer contents and verify patterns.
//!
//! This crate performs no I/O. It is filled by the runner issue; until then it is only the
//! place in the workspace's layering (options → workload → engine → runner → cli).
