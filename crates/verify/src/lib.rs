//! Verification of what a job writes: fio's `verify` and its companions, from the bytes of
//! one block to the verify phase of a whole job.
//!
//! - [`block`]: what a write puts in each block (headers, checksum methods, patterns) and
//!   how a block read back is checked. Pure functions over caller-owned buffers.
//! - [`VerifyPlan`]: how a job verifies, resolved (by the plan crate) from its options and
//!   from the rest of its plan, so that this crate never reads a job's whole plan.
//! - [`JobVerify`]: the verify side of a running job: the log of writes, the verify reads
//!   (after the writes, or every `verify_backlog` writes), the trims of `trim_percentage`,
//!   the `verify_async` helper threads, failure reports and the state file.
//!
//! The crate knows no engine: the job loop hands it the blocks it wrote and read, and the
//! runner gives the helper threads what they need of the system through [`HelperHost`].

#![forbid(unsafe_code)]

pub mod block;
pub mod hashes;
mod job;
mod plan;

pub use block::{
    Expect, Header, Method, Mismatch, MismatchKind, Stamp, VerifyFormat, VerifyPattern, HEADER_LEN,
    MAGIC, MAX_DIGEST, MAX_VERIFY_PATTERN,
};
pub use job::{HelperHost, JobVerify, Trimmed, Written};
pub use plan::{TrimPlan, VerifyJob, VerifyPlan};
