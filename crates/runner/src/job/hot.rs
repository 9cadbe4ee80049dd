//! The state the plain loop touches at every I/O ([`Hot`]): the engine and its units, the
//! free list, the stamps, the workload, the clock, the recorder and the counters, with the
//! two flags it looks at each turn (a stop by another job's end, a request for an interim
//! report). Nothing of a feature is here: that is [`super::features::Features`].

use crate::clock::{JobClock, TscClock};
use crate::links::progress::Publisher;
use crate::links::status::Requests;
use iomark_engine::{Engine, SlotList, UnitTable};
use iomark_plan::engine::Batching;
use iomark_plan::errors::ErrorPolicy;
use iomark_plan::files::FilesPlan;
use iomark_stats::recorder::JobRecorder;
use iomark_workload::Workload;
use std::sync::atomic::AtomicBool;

/// The state of the plain submit/reap loop.
pub(super) struct Hot<'a, 's, 'id> {
    /// The job's engine.
    pub(super) engine: Box<dyn Engine>,
    /// Where the job's I/Os come from.
    pub(super) workload: Workload,
    /// The job's `iodepth` units (with their start and submission stamps) and the free
    /// list of those not in flight.
    pub(super) units: UnitTable<'id>,
    /// The descriptor of each file (-1 on the null engine).
    pub(super) fds: Vec<i32>,
    /// Every time stamp of the job.
    pub(super) clock: JobClock,
    /// The clock's TSC parameters, for the loop compiled for the TSC (see [`now`]); taken
    /// from `clock` when the job starts (zeros, unread, when it is not the TSC).
    pub(super) tsc: TscClock,
    /// The job's statistics.
    pub(super) recorder: JobRecorder,
    /// Room for the indexes `reap` returns.
    pub(super) done: Vec<u32>,
    /// Units handed to the engine and not completed yet.
    pub(super) in_flight: u32,
    /// The most I/Os in flight: `iodepth`, or less while a latency target is searched.
    pub(super) depth_limit: u32,
    /// Units queued since the last commit.
    pub(super) pending: SlotList<'id>,
    /// How the job submits and reaps.
    pub(super) batching: Batching,
    /// Whether the engine's I/Os count in the submit and complete distributions.
    pub(super) counts_batches: bool,
    /// Progress for the ETA line.
    pub(super) published: Publisher<'a>,
    /// The directions that did I/O.
    pub(super) active: [bool; 3],
    /// Data I/Os completed since measurement began (for `number_ios`).
    pub(super) ios_done: u64,
    /// `ramp_time`, in nanoseconds (0: none).
    pub(super) ramp_ns: u64,
    /// `runtime`, in nanoseconds, if the job has one.
    pub(super) runtime_ns: Option<u64>,
    /// When measurement began (after `ramp_time`).
    pub(super) measure_from: u64,
    /// The first time at which the recorder's samplers or the progress counters are due
    /// (see [`Hot::tick`]); 0 after anything restarts them.
    pub(super) next_tick: u64,
    /// The last clock reading.
    pub(super) last_now: u64,
    /// Whether `ramp_time` is over (measurement began).
    pub(super) ramp_over: bool,
    /// The job's first error (an errno), 0 while there is none.
    pub(super) error: i32,
    /// What the first error was doing.
    pub(super) error_text: String,
    /// Set when another job's end stops this one (`exitall`).
    pub(super) exit: &'a AtomicBool,
    /// Whether an interim report was asked for (the answer goes through
    /// [`super::features::Features::status`]).
    pub(super) requests: Requests<'s>,
    /// What a failed I/O is judged and described by: the job's name, its error policy
    /// and its files.
    pub(super) on_error: (&'a str, &'a ErrorPolicy, &'a FilesPlan),
}

/// The clock's reading: with `TSC` (the loop compiled for a job whose clock is the TSC,
/// [`Hot::tsc`] taken from `clock`) the TSC read at once, else [`JobClock::now_ns`].
/// (Of two fields rather than of [`Hot`]: the loop holds a unit of [`Hot::units`] then.)
#[inline(always)]
pub(super) fn now<const TSC: bool>(tsc: &TscClock, clock: &mut JobClock) -> u64 {
    if TSC {
        tsc.now_ns()
    } else {
        clock.now_ns()
    }
}
