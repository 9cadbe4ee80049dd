//! Planning a whole run: every clone of every job, in order, each told its thread number
//! and placed after what the jobs before it lay out (`file_append`), its workload checked
//! without being built.

use crate::error::PlanError;
use crate::layout::FileSizes;
use crate::plan::JobPlan;
use iomark_options::spec::{clones, JobClone};
use iomark_options::JobSpec;

/// The plans of a run, one by one (see [`plans`]).
pub struct RunPlans<'a> {
    clones: Box<dyn Iterator<Item = JobClone<'a>> + 'a>,
    /// The next plan's thread number.
    thread_number: u64,
    /// What the layouts of the jobs planned so far leave.
    sizes: FileSizes,
}

/// The plans of every clone of every job of `specs`, in run order; the first error ends
/// them.
pub fn plans(specs: &[JobSpec]) -> RunPlans<'_> {
    RunPlans { clones: Box::new(clones(specs)), thread_number: 0, sizes: FileSizes::default() }
}

impl Iterator for RunPlans<'_> {
    type Item = Result<JobPlan, PlanError>;

    fn next(&mut self) -> Option<Self::Item> {
        let JobClone { spec, jobnum } = self.clones.next()?;
        let plan = JobPlan::new(spec, jobnum, self.thread_number, &self.sizes).and_then(|plan| {
            // The workload is built once, when the job starts; here it is only checked.
            plan.workload_config().check().map_err(|e| PlanError {
                job: plan.job.name.clone(),
                option: None,
                message: e.to_string(),
            })?;
            Ok(plan)
        });
        if let Ok(plan) = &plan {
            self.thread_number += 1;
            plan.files.laid_out(&mut self.sizes);
        }
        Some(plan)
    }
}
