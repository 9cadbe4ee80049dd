//! What a job hands back: its outcome at the end ([`JobOutcome`]), or a copy of it for an
//! interim report, and the statistics its recorder keeps.

use super::controls;
use super::drive::Loop;
use crate::outcome::JobOutcome;
use iomark_engine::file::{thread_id, ThreadUsage};
use iomark_engine::thread::ioprio_value;
use iomark_plan::JobPlan;
use iomark_stats::recorder::{JobRecorder, RecorderConfig};
use iomark_stats::reduce::JobTimes;
use iomark_stats::report::JobCounters;

/// Which statistics the job keeps.
pub(crate) fn recorder_config(plan: &JobPlan, sync_engine: bool) -> RecorderConfig {
    // The pattern's directions, or a replay's: what its log does.
    let [r, w, t] = plan.dirs();
    // Verify reads are reported as reads, and trim_percentage's trims as trims, as fio does.
    let r = r || plan.verify.as_ref().is_some_and(|v| v.do_verify);
    let t = t || plan.verify.as_ref().is_some_and(iomark_verify::VerifyPlan::trims);
    let stats = &plan.report.stats;
    // The metadata engines record only their operations' clat (see Hot::complete).
    let mirror = sync_engine
        && !plan.engine.per_file()
        && (stats.clat_percentiles || !stats.lat_percentiles);
    RecorderConfig {
        dirs: [r, w, t],
        slat: !sync_engine && plan.timing.slat,
        clat: plan.timing.clat,
        lat: plan.timing.lat,
        clat_percentiles: stats.clat_percentiles,
        lat_percentiles: stats.lat_percentiles,
        slat_percentiles: stats.slat_percentiles,
        syncs: plan.syncs.any(),
        bw_avg_ms: stats.bw_avg_ms,
        iops_avg_ms: stats.iops_avg_ms,
        // A synchronous engine's reads and trims start and issue at one clock reading, so
        // their lat is their clat (the copy needs clat's histogram if lat has one).
        lat_is_clat: [mirror, false, mirror],
        corrected: plan.pacing.rate.limits(),
        own_prio: plan.placement.ioprio.map_or(0, |(class, level)| ioprio_value(class, level)),
    }
}

impl Loop<'_, '_, '_> {
    /// The job's times, with its I/O ending at `end` and `usage` its CPU usage.
    pub(super) fn times(&self, end: u64, usage: ThreadUsage) -> JobTimes {
        let run_ms = end.saturating_sub(self.io.measure_from) / 1_000_000;
        let did_io = self.io.recorder.dirs.iter().any(|d| d.ios > 0);
        let run_ms = if did_io { run_ms.max(1) } else { run_ms };
        JobTimes {
            // A direction whose I/Os moved no byte (cpuio's) has no runtime, so no rates,
            // as in fio 3.33.
            runtime_ms: [0, 1, 2].map(|d| {
                let moved = self.io.recorder.dirs[d].bytes > 0;
                if self.io.active[d] && moved {
                    run_ms
                } else {
                    0
                }
            }),
            total_run_ms: run_ms,
            usr_ns: usage.user_us * 1000,
            sys_ns: usage.system_us * 1000,
            ctx: usage.ctx,
            majf: usage.majflt,
            minf: usage.minflt,
            counters: self.counters(usage),
        }
    }

    /// The job's own counters after `ramp_time`, from its whole `usage`.
    fn counters(&self, usage: ThreadUsage) -> JobCounters {
        let (ramp, ramp_calls) = self.feat.ramp_used;
        let measured = usage.since(ramp);
        JobCounters {
            cpu_ns: (measured.user_us + measured.system_us) * 1000,
            ctx: measured.ctx,
            syscalls: self.io.engine.syscalls().map(|n| n.saturating_sub(ramp_calls)),
        }
    }

    /// The outcome with `recorder` (the job's own at the end, a settled copy for an
    /// interim report), the I/O ending at `end` and `usage` the CPU time used.
    pub(super) fn outcome(
        &self,
        recorder: JobRecorder,
        end: u64,
        usage: ThreadUsage,
    ) -> JobOutcome {
        let fake = self.io.clock.is_fake();
        let mut notes = self.io.engine.notes();
        notes.extend(self.feat.replay.as_ref().and_then(|r| r.note()).map(str::to_string));
        JobOutcome {
            recorder,
            times: self.times(end, usage),
            error: self.io.error,
            error_text: self.io.error_text.clone(),
            notes,
            pid: if fake { 0 } else { thread_id() },
            start_wall_ms: self.feat.start_wall_ms,
            latency_depth: self.io.depth_limit,
            steadystate: self.feat.ctl.as_deref().and_then(controls::Controls::steady_report),
            block: None,
        }
    }

    /// Answers a request for an interim report with a copy of everything so far (outside
    /// the common path: it allocates, and reads the thread's CPU usage).
    #[cold]
    pub(super) fn answer_status(&mut self, request: u64) {
        let mut recorder = self.io.recorder.clone();
        recorder.settle();
        let usage = if self.io.clock.is_fake() {
            ThreadUsage::default()
        } else {
            ThreadUsage::now().since(self.feat.usage_before)
        };
        let mut copy = self.outcome(recorder, self.io.last_now, usage);
        // The block-layer split so far: the I/Os handed over and matched by now (the clock
        // read afresh: the sink pairs it with its own).
        let now = self.io.clock.now_ns();
        if let Some(block) = self.feat.block.as_mut().and_then(|b| b.snapshot(now)) {
            copy.notes.extend(block.notes.iter().cloned());
            copy.block = Some(block);
        }
        self.io.requests.answered(request);
        self.feat.status.answer(request, copy);
    }
}
