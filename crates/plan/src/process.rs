//! What makes a job run in a process of its own: its control group (`cgroup`,
//! `cgroup_weight`, `cgroup_nodelete`) and the user and group ids it runs as (`uid`,
//! `gid`).
//!
//! iomark runs jobs as threads; Linux places whole processes in control groups and (through
//! the C library) applies ids to whole processes, so a job that sets any of these runs in a
//! child process of iomark (see the runner's job processes). As in fio 3.33,
//! `cgroup_weight` and `cgroup_nodelete` do nothing without `cgroup`.

use iomark_options::keys;
use iomark_options::JobSpec;

/// A job's control group: where fio 3.33 puts it and what it sets there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CgroupPlan {
    /// The group's name (`cgroup`), a path under the hierarchy's mount point (its parents
    /// must exist, as in fio).
    pub name: String,
    /// `cgroup_weight`: the group's I/O weight (100 to 1000), if given.
    pub weight: Option<u32>,
    /// `cgroup_nodelete`: the group stays after the job.
    pub nodelete: bool,
}

/// What a job's process must be: its group, its ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProcessPlan {
    /// The control group the job runs in, if any.
    pub cgroup: Option<CgroupPlan>,
    /// `uid`: the user id the job takes before its I/O.
    pub uid: Option<u32>,
    /// `gid`: the group id the job takes before its I/O (before `uid`).
    pub gid: Option<u32>,
}

impl ProcessPlan {
    /// The process options of `spec`.
    pub fn of(spec: &JobSpec) -> ProcessPlan {
        let cgroup = spec.get(keys::CGROUP).filter(|n| !n.is_empty()).map(|name| CgroupPlan {
            name,
            weight: spec.given(keys::CGROUP_WEIGHT).map(|w| w as u32),
            nodelete: spec.get(keys::CGROUP_NODELETE).unwrap_or(false),
        });
        ProcessPlan {
            cgroup,
            uid: spec.given(keys::UID).map(|u| u as u32),
            gid: spec.given(keys::GID).map(|g| g as u32),
        }
    }

    /// Whether the job needs a process of its own, whatever `thread` says.
    pub fn needs_process(&self) -> bool {
        self.cgroup.is_some() || self.uid.is_some() || self.gid.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(args: &[&str]) -> ProcessPlan {
        let mut argv = vec!["--name=j".to_string()];
        argv.extend(args.iter().map(|a| format!("--{a}")));
        let cmd = iomark_options::cmdline::parse(argv).unwrap();
        let sources =
            iomark_options::assemble::Sources { cli_jobs: cmd.jobs, ..Default::default() };
        ProcessPlan::of(&iomark_options::assemble::build(&sources).unwrap()[0])
    }

    #[test]
    fn a_group_or_an_id_asks_for_a_process() {
        assert!(!plan(&[]).needs_process());
        // As in fio 3.33, a weight without a group does nothing.
        assert!(!plan(&["cgroup_weight=500"]).needs_process());
        let p = plan(&["cgroup=g", "cgroup_weight=500", "cgroup_nodelete=1"]);
        let group = CgroupPlan { name: "g".into(), weight: Some(500), nodelete: true };
        assert_eq!(p.cgroup, Some(group));
        assert!(p.needs_process());
        assert_eq!(plan(&["uid=7"]).uid, Some(7));
        assert_eq!(plan(&["gid=8"]).gid, Some(8));
    }
}
