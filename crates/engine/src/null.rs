//! The `null` engine: every I/O completes at once without touching a file, so a job on it
//! measures iomark's own overhead.

use crate::unit::IoUnit;
use crate::{Engine, Queued};

/// Completes every I/O immediately with its full length.
#[derive(Debug, Default)]
pub struct NullEngine;

impl Engine for NullEngine {
    fn name(&self) -> &'static str {
        "null"
    }

    fn is_sync(&self) -> bool {
        true
    }

    fn counts_batches(&self) -> bool {
        false
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        unit.result = unit.len as i64;
        Queued::Completed
    }
}
