//! The engine interface: the [`Engine`] trait that every engine implements, what `queue`
//! answers ([`Queued`]) and why an engine cannot be set up ([`EngineError`]); how it is set
//! up is [`crate::options::EngineOptions`].

use crate::file::ThreadUsage;
use crate::unit::IoUnit;
use std::os::fd::RawFd;
use std::path::PathBuf;

/// What `queue` did with a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queued {
    /// The I/O is done; its `result` is set.
    Completed,
    /// The I/O is queued; it completes after `commit`, through `reap`.
    Queued,
    /// The engine cannot take more now: reap, then try again.
    Busy,
}

/// An I/O engine.
///
/// The runner owns a fixed pool of units; it hands a unit to `queue` and does not touch it
/// again until the engine reports it done (at once for `Queued::Completed`, through `reap`
/// for `Queued::Queued`). An engine may keep raw pointers into a queued unit's buffer until
/// then; the buffers never move.
pub trait Engine: Send {
    /// The engine's name, as `ioengine` spells it.
    fn name(&self) -> &'static str;

    /// Whether every `queue` completes the unit (no submission or reaping stage).
    fn is_sync(&self) -> bool;

    /// Whether the submit and complete distributions count this engine's I/Os (fio's null
    /// engine reports none).
    fn counts_batches(&self) -> bool {
        true
    }

    /// Prepares for the job's I/O, once, before the first `queue`: the units' buffers and
    /// the job's files exist. `fds[i]` is the file of every unit whose `file` is `i` (-1 for
    /// a job without files, such as one on the null engine). io_uring registers buffers and
    /// files here, mmap maps the files.
    fn setup(&mut self, units: &mut [IoUnit], fds: &[RawFd]) -> Result<(), EngineError> {
        let _ = (units, fds);
        Ok(())
    }

    /// The job's files were closed and opened again between loops (`unlink_each_loop`),
    /// with no I/O in flight: `fds` are the new descriptors, in `setup`'s order. Engines
    /// that take each unit's `fd` at `queue` have nothing to do; io_uring updates its
    /// registered files.
    fn reopen(&mut self, fds: &[RawFd]) -> Result<(), EngineError> {
        let _ = fds;
        Ok(())
    }

    /// The paths of the job's files, in `setup`'s order: engines that work on files by
    /// name (`filecreate`, `filestat`, `filedelete`, whose files the runner does not open)
    /// take them here, once, before `setup`.
    fn set_paths(&mut self, paths: &[PathBuf]) -> Result<(), EngineError> {
        let _ = paths;
        Ok(())
    }

    /// A loop of the job ended and the next begins, with no I/O in flight (called only for
    /// engines whose registry entry says their files are used by name): the metadata
    /// engines do their operation again on each file.
    fn next_loop(&mut self) {}

    /// Starts (or, for a synchronous engine, does) the unit's I/O.
    fn queue(&mut self, unit: &mut IoUnit) -> Queued;

    /// Submits the units queued since the last commit; returns how many were submitted.
    fn commit(&mut self) -> std::io::Result<usize> {
        Ok(0)
    }

    /// Waits for at least `min` (0: do not wait) and at most `max` completions; sets each
    /// completed unit's `result`, pushes its index to `done` (which has room for `max`) and
    /// returns how many.
    fn reap(
        &mut self,
        units: &mut [IoUnit],
        min: usize,
        max: usize,
        done: &mut Vec<u32>,
    ) -> std::io::Result<usize> {
        let _ = (units, min, max, done);
        Ok(0)
    }

    /// Stops the engine's own threads, if it has any, and returns the CPU time and faults
    /// they used: the job's usage includes them, as fio's usage of a job's process includes
    /// all its threads. Called once, after the last I/O was reaped.
    fn finish(&mut self) -> ThreadUsage {
        ThreadUsage::default()
    }

    /// How many system calls the engine has made for I/O so far: reads and writes,
    /// submissions and reaps, syncs and trims, in whichever thread made them; `None` for an
    /// engine that does not count them. The runner reads it at the end of `ramp_time` and of
    /// the job, never in its loop.
    fn syscalls(&self) -> Option<u64> {
        None
    }

    /// What the report should say about how the engine behaved, once the job is over (for
    /// example that libaio completed its submissions inline).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Why an engine cannot be set up: the option at fault (if one is) and what is wrong, for
/// example `option 'sqthread_poll': needs Linux 5.11 or later (this kernel is 5.4)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineError {
    /// The option that asked for what cannot be done, if the fault is one option's.
    pub option: Option<&'static str>,
    /// What went wrong.
    pub message: String,
}

impl EngineError {
    /// An error caused by one option.
    pub fn option(option: &'static str, message: impl Into<String>) -> Self {
        EngineError { option: Some(option), message: message.into() }
    }

    /// An error not tied to one option (a failed system call, say).
    pub fn other(message: impl Into<String>) -> Self {
        EngineError { option: None, message: message.into() }
    }
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.option {
            Some(option) => write!(f, "option '{option}': {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for EngineError {}
