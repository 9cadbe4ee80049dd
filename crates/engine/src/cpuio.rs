//! fio's `cpuio` engine: each "I/O" burns the CPU for `cpuchunks` microseconds and moves
//! no data, and the job's think time between them (set by the plan from `cpuload`) leaves
//! the CPU idle for the rest of the cycle, so that the job loads its CPU by `cpuload`
//! percent. It lets a job file put CPU pressure beside the storage jobs it measures.
//!
//! `cpumode=noop` spins; `cpumode=qsort` sorts small arrays of pseudo-random numbers over
//! and over until the chunk is spent (fio 3.33's qsort chunks run well past `cpuchunks`,
//! 100 to 500 ms for 50 ms asked; iomark's stop at the chunk). Every I/O completes in the
//! call with no bytes: the report counts the I/Os and their latencies, as fio's does.
//!
//! This is the one engine that reads a clock: its work is to spend a given time. The
//! runner still times each I/O at its own single point.

use crate::interface::{Engine, Queued};
use crate::unit::IoUnit;
use std::time::{Duration, Instant};

/// The `cpuio` engine.
#[derive(Debug)]
pub struct CpuEngine {
    chunk: Duration,
    qsort: bool,
    /// The array `qsort` mode sorts, and its generator's state.
    numbers: Vec<u64>,
    state: u64,
}

impl CpuEngine {
    /// An engine burning `chunk_us` microseconds per I/O, spinning or sorting (`qsort`).
    pub fn new(chunk_us: u64, qsort: bool) -> Self {
        let numbers = if qsort { vec![0; 4096] } else { Vec::new() };
        CpuEngine { chunk: Duration::from_micros(chunk_us), qsort, numbers, state: 0x9e37_79b9 }
    }

    fn sort_once(&mut self) {
        for n in &mut self.numbers {
            // xorshift64: cheap numbers that are not already sorted.
            self.state ^= self.state << 13;
            self.state ^= self.state >> 7;
            self.state ^= self.state << 17;
            *n = self.state;
        }
        self.numbers.sort_unstable();
    }
}

impl Engine for CpuEngine {
    fn name(&self) -> &'static str {
        "cpuio"
    }

    fn is_sync(&self) -> bool {
        true
    }

    fn syscalls(&self) -> Option<u64> {
        Some(0)
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        let start = Instant::now();
        while start.elapsed() < self.chunk {
            if self.qsort {
                self.sort_once();
            } else {
                std::hint::spin_loop();
            }
        }
        // No data moves: the I/O is counted with no bytes, and is not short.
        unit.len = 0;
        unit.result = 0;
        Queued::Completed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_io_burns_its_chunk_and_moves_nothing() {
        for qsort in [false, true] {
            let mut e = CpuEngine::new(2000, qsort);
            let mut u = IoUnit::new(0, 4096, 4096).unwrap();
            u.len = 4096;
            let start = Instant::now();
            assert_eq!(e.queue(&mut u), Queued::Completed);
            assert!(start.elapsed() >= Duration::from_micros(2000));
            assert_eq!((u.len, u.result), (0, 0));
        }
    }
}
