//! The run's report: the jobs' outcomes reduced into one [`RunReport`], one report per job
//! or per group where `group_reporting` is set, with what fio's start line and report say
//! of each job.

use crate::clock;
use crate::job::JobOutcome;
use iomark_plan::JobPlan;
use iomark_stats::recorder::JobRecorder;
use iomark_stats::reduce::{self, JobMeta, JobTimes, PercentileList};
use iomark_stats::report::{
    ErrorReport, JobHeader, JobReport, LatencyTarget, RunReport, REPORT_VERSION,
};
use iomark_stats::Notes;

/// The fio release whose formats the report follows.
pub const FIO_COMPAT: &str = "fio-3.33";

/// What one entry of a report was reduced from: the recording (under `group_reporting`,
/// the group's jobs merged) and the runner's times. The client/server protocol sends these
/// counts as they are, where the report holds only shares.
#[derive(Debug, Clone)]
pub struct RawJob {
    /// Everything recorded.
    pub recorder: JobRecorder,
    /// Runtimes and CPU usage.
    pub times: JobTimes,
}

/// Reduces the outcomes: one report per job, or per group where `group_reporting` is set;
/// beside the report, what each of its jobs was reduced from, in the same order.
pub(super) fn report(
    plans: &[JobPlan],
    groups: &[u32],
    outcomes: Vec<JobOutcome>,
    (run_start_ms, copies): (u64, u32),
    fake: bool,
) -> (RunReport, Vec<RawJob>) {
    // Every job's notes, each line once, before the outcomes are merged.
    let notes: Notes = plans
        .iter()
        .zip(&outcomes)
        .flat_map(|(p, o)| o.notes.iter().map(|n| format!("job '{}': {n}", p.job.name)))
        .collect();
    let mut jobs: Vec<(JobReport, RawJob)> = Vec::new();
    // Under group_reporting, the group's first job stands for the group: its outcome
    // absorbs the others' recordings and times.
    let mut merged: Vec<(u32, usize, JobOutcome, u32)> = Vec::new();
    for (i, mut outcome) in outcomes.into_iter().enumerate() {
        let plan = &plans[i];
        if !plan.report.report_stats {
            // stats=0: fio 3.33 reports the job (and its error) with nothing measured.
            outcome.recorder.clear(0);
            outcome.times = JobTimes::default();
        }
        if plan.report.group_reporting {
            if let Some(m) = merged.iter_mut().find(|m| m.0 == groups[i]) {
                m.2.recorder.merge(&outcome.recorder);
                m.2.times.merge_group(&outcome.times);
                match (&mut m.2.block, &outcome.block) {
                    (Some(mine), Some(theirs)) => mine.merge(theirs),
                    (mine @ None, Some(theirs)) => *mine = Some(theirs.clone()),
                    _ => {}
                }
                if m.2.error == 0 {
                    m.2.error = outcome.error;
                    m.2.error_text = outcome.error_text;
                }
                for note in outcome.notes {
                    if !m.2.notes.contains(&note) {
                        m.2.notes.push(note);
                    }
                }
                m.3 += 1;
                continue;
            }
            merged.push((groups[i], i, outcome, 1));
            continue;
        }
        let pcts = percentiles(plan);
        let meta = meta(plan, groups[i], copies, &outcome, run_start_ms, fake);
        let mut job = reduce::job_report(&outcome.recorder, meta, &outcome.times, &pcts);
        job.block_latency = outcome.block.as_ref().map(|b| b.report(&pcts));
        jobs.push((job, RawJob { recorder: outcome.recorder, times: outcome.times }));
    }
    for (group, first, outcome, count) in merged {
        let plan = &plans[first];
        let pcts = percentiles(plan);
        let meta = meta(plan, group, count * copies, &outcome, run_start_ms, fake);
        let mut job = reduce::job_report(&outcome.recorder, meta, &outcome.times, &pcts);
        job.block_latency = outcome.block.as_ref().map(|b| b.report(&pcts));
        jobs.push((job, RawJob { recorder: outcome.recorder, times: outcome.times }));
    }
    jobs.sort_by_key(|j| j.0.groupid);
    let (mut jobs, raw): (Vec<JobReport>, Vec<RawJob>) = jobs.into_iter().unzip();
    let groups = reduce::group_reports(&mut jobs);
    let end_ms = clock::wall_ms(fake);
    let report = RunReport {
        version: REPORT_VERSION,
        iomark_version: env!("CARGO_PKG_VERSION").to_string(),
        fio_compat: FIO_COMPAT.to_string(),
        timestamp: end_ms / 1000,
        timestamp_ms: end_ms,
        time: ctime(end_ms),
        global_options: plans.first().map(|p| p.report.globals_echo.clone()).unwrap_or_default(),
        jobs,
        groups,
        disks: Vec::new(),
        notes,
        ranks: Vec::new(),
        clients: Vec::new(),
        cpu_idleness: None,
        act: None,
    };
    (report, raw)
}

fn percentiles(plan: &JobPlan) -> PercentileList {
    PercentileList::new(&plan.report.stats.percentile_list).unwrap_or_default()
}

fn meta(
    plan: &JobPlan,
    groupid: u32,
    jobs: u32,
    outcome: &JobOutcome,
    run_start_ms: u64,
    fake: bool,
) -> JobMeta {
    let end_ms = clock::wall_ms(fake);
    let latency = &plan.pacing.latency;
    // A job that went on past errors reports its first one (fio's `error`).
    let counts = outcome.recorder.errors;
    let errors = plan.errors.counts_errors().then(|| ErrorReport {
        total_err: counts.total,
        first_error: counts.first,
        first_error_text: crate::job::errno_text(counts.first),
        fatal: outcome.error != 0,
    });
    JobMeta {
        name: plan.job.name.clone(),
        description: plan.job.description.clone(),
        groupid,
        jobs,
        error: if outcome.error != 0 { outcome.error } else { counts.first },
        error_text: outcome.error_text.clone(),
        errors,
        notes: outcome.notes.clone(),
        pid: outcome.pid,
        start_time: ctime(outcome.start_wall_ms),
        elapsed_s: end_ms.saturating_sub(run_start_ms).div_ceil(1000),
        options: plan.report.options_echo.clone(),
        header: header(plan),
        latency_target: LatencyTarget {
            depth: outcome.latency_depth,
            target: latency.target_ns,
            percentile: latency.percentile,
            window: latency.window_ns / 1000,
        },
        unified_rw: plan.report.stats.unified_rw,
        steadystate: outcome.steadystate.clone(),
    }
}

/// What fio's start line (and the report) says of job `plan`: its pattern, block sizes,
/// engine and depth.
pub fn header(plan: &JobPlan) -> JobHeader {
    JobHeader {
        rw: plan.workload.rw.name().to_string(),
        bs: plan.workload.block_size_ranges(),
        ioengine: plan.engine.name.clone(),
        iodepth: plan.engine.iodepth,
    }
}

/// Wall-clock milliseconds as `ctime(3)` writes them (UTC), without the newline:
/// `Sun Nov 22 02:41:06 2026`.
pub fn ctime(ms: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] =
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let secs = ms / 1000;
    let days = secs / 86_400;
    let (h, m, s) = ((secs / 3600) % 24, (secs / 60) % 60, secs % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{} {} {:2} {:02}:{:02}:{:02} {}",
        DAYS[(days % 7) as usize],
        MONTHS[(month - 1) as usize],
        day,
        h,
        m,
        s,
        year
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn ctime_matches_the_c_library_layout() {
        assert_eq!(super::ctime(0), "Thu Jan  1 00:00:00 1970");
        assert_eq!(super::ctime(1_795_315_266_361), "Sun Nov 22 02:41:06 2026");
    }
}
