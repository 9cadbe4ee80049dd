//! Turns `JobSpec`s into plans and threads: file layout, the submit/reap loop with all timing
//! in one place, groups, stonewall, ramp, runtime, verify and signals.
//!
//! Owns every clock read on the I/O path. Filled by the runner issue.
