//! The run-times of the features that act on a job as it runs, each a small state machine
//! the job's loop drives through its hooks (`crate::job`): when the next I/O of a
//! rate-limited job is due ([`pace`]), think time ([`think`]), latency limits and the
//! latency-target search ([`target`]), the feed of I/Os to the block-layer split
//! ([`block`]), the steady-state watch ([`steady`]), the blocks' trim counts of
//! `block_error_percentiles` ([`lifetimes`]), each I/O's own
//! priority ([`cmdprio`]), a replayed log's I/Os ([`replay`]), and the services the verify
//! helpers get from the runner ([`verify_host`]). None of them reads a clock or does I/O
//! of its own: the loop hands them the time and the I/Os.

pub(crate) mod block;
pub(crate) mod cmdprio;
pub(crate) mod lifetimes;
pub(crate) mod pace;
pub(crate) mod replay;
pub(crate) mod steady;
pub(crate) mod target;
pub(crate) mod think;
pub(crate) mod verify_host;
