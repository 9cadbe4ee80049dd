//! Where and how urgently a job's thread runs: CPU affinity (`cpumask`, `cpus_allowed`,
//! `cpus_allowed_policy`, `numa_cpu_nodes`), NUMA memory policy (`numa_mem_policy`), CPU
//! priority (`nice`) and I/O priority (`prio`, `prioclass`).
//!
//! [`Placement::of`] checks the values when the job is planned (a CPU or NUMA node this
//! system does not have is refused, as fio refuses it); the runner sets them on the job's
//! thread as it starts, before `exec_prerun` and before any I/O, through the system calls
//! of [`iomark_engine::thread`] (no libnuma). The engine's worker threads and the
//! `exec_prerun`/`exec_postrun` commands inherit them. The plan holds three more things of
//! where the job's I/O runs: the per-I/O priorities (`cmdprio_*`, see [`crate::cmdprio`]),
//! the disks' I/O scheduler (`ioscheduler`) and the memory locked for the job (`lockmem`).
//!
//! fio 3.33's behaviour, read off a job's `exec_prerun` (which runs in the job's process):
//!
//! - `cpumask` (a bit mask) and `cpus_allowed` (a list) set the same thing; the later one
//!   wins. With `cpus_allowed_policy=split` job number N of the run (counting every job
//!   and clone from 0, in order) gets the (N mod count)-th CPU of the set alone.
//! - `numa_cpu_nodes` (node list or `all`) binds the job to those nodes' CPUs (read from
//!   `/sys/devices/system/node`), over any `cpus_allowed`.
//! - `nice` adds to the nice value iomark runs with, as `nice(2)` does.
//! - `prio` alone is best-effort at that level; `prioclass` alone is that class at level 0.

use crate::cmdprio::CmdPrio;
use crate::error::OptionError;
use iomark_engine::thread::{self as sys, ioprio_class, MemPolicy};
use iomark_options::keys::{self, Key};
use iomark_options::JobSpec;

/// A job's placement options, checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placement {
    /// The CPUs of `cpumask`/`cpus_allowed`, if given.
    pub cpus: Option<Vec<u32>>,
    /// `cpus_allowed_policy=split`: one CPU of the set per job.
    pub split: bool,
    /// The CPUs of the nodes of `numa_cpu_nodes`, if given.
    pub numa_cpus: Option<Vec<u32>>,
    /// `numa_mem_policy`: the mode and its nodes.
    pub mem_policy: Option<(MemPolicy, Vec<u32>)>,
    /// `nice`: added to the thread's nice value (0 leaves it).
    pub nice: i32,
    /// `prio`/`prioclass`: the I/O priority class and level, if either is given.
    pub ioprio: Option<(u32, u32)>,
    /// Per-I/O priorities (`cmdprio_percentage`, `cmdprio_bssplit`…), if any I/O gets one.
    pub cmdprio: Option<CmdPrio>,
    /// The I/O scheduler to switch the job's disks to (`ioscheduler`).
    pub ioscheduler: Option<String>,
    /// Bytes of memory to lock in RAM while the job runs (`lockmem`), 0 for none.
    pub lockmem: u64,
    /// What its process must be (control group, ids), when it needs one of its own.
    pub process: crate::process::ProcessPlan,
}

impl Placement {
    /// The placement options of `spec`, without its per-I/O priorities (see
    /// [`CmdPrio::of`]); refuses CPUs and nodes this system does not have.
    pub fn of(spec: &JobSpec) -> Result<Placement, OptionError> {
        let mask = match spec.given(keys::CPUMASK) {
            Some(m) => Some(check_cpus(keys::CPUMASK, mask_cpus(m))?),
            None => None,
        };
        let list = match spec.given(keys::CPUS_ALLOWED) {
            Some(c) => Some(check_cpus(keys::CPUS_ALLOWED, c)?),
            None => None,
        };
        let cpus = match (mask, list) {
            (Some(m), Some(_)) if spec.set_after(keys::CPUMASK, keys::CPUS_ALLOWED) => Some(m),
            (m, l) => l.or(m),
        };
        if cpus.as_ref().is_some_and(Vec::is_empty) {
            return Err(OptionError::new(
                keys::CPUMASK,
                "the mask holds no CPU (fio 3.33 fails the job: it cannot set the affinity)",
            ));
        }
        let numa_cpus = match spec.get(keys::NUMA_CPU_NODES) {
            Some(nodes) => Some(
                parse_nodes(&nodes)
                    .and_then(|n| {
                        node_cpus(&n)
                            .map_err(|e| format!("option 'numa_cpu_nodes': '{nodes}': {e}"))
                    })
                    .map_err(|e| OptionError::about(keys::NUMA_CPU_NODES, e))?,
            ),
            None => None,
        };
        let mem_policy =
            match spec.get(keys::NUMA_MEM_POLICY) {
                Some(text) => Some(parse_mem_policy(&text).map_err(|e| {
                    OptionError::new(keys::NUMA_MEM_POLICY, format!("'{text}': {e}"))
                })?),
                None => None,
            };
        let int = |key| spec.given(key).map(|n: u64| n as u32);
        let ioprio = match (int(keys::PRIOCLASS), int(keys::PRIO)) {
            (None, None) => None,
            (class, level) => {
                Some((class.unwrap_or(ioprio_class::BEST_EFFORT), level.unwrap_or(0)))
            }
        };
        let nice = spec.given(keys::NICE).map_or(0, |n| n as i32);
        let split = spec.get(keys::CPUS_ALLOWED_POLICY).is_some_and(|c| c.name == "split");
        Ok(Placement {
            cpus,
            split,
            numa_cpus,
            mem_policy,
            nice,
            ioprio,
            cmdprio: None,
            ioscheduler: spec.get(keys::IOSCHEDULER).filter(|s| !s.trim().is_empty()),
            lockmem: spec.get(keys::LOCKMEM).unwrap_or(0),
            process: crate::process::ProcessPlan::of(spec),
        })
    }

    /// The CPUs job number `thread_number` of the run may use, if the job restricts them.
    pub fn cpus_for(&self, thread_number: u64) -> Option<Vec<u32>> {
        if let Some(numa) = &self.numa_cpus {
            return Some(numa.clone());
        }
        let cpus = self.cpus.as_ref()?;
        if self.split {
            return Some(vec![cpus[(thread_number % cpus.len() as u64) as usize]]);
        }
        Some(cpus.clone())
    }
}

/// `cpus` of the option of `key` (a CPU list), refused when it names a CPU this system
/// does not have.
pub(crate) fn check_cpus<T>(key: Key<T>, cpus: Vec<u32>) -> Result<Vec<u32>, OptionError> {
    let ncpus = sys::configured_cpus();
    match cpus.iter().find(|&&c| c >= ncpus) {
        Some(c) => Err(OptionError::new(
            key,
            format!("CPU {c} is beyond this system's {ncpus} CPUs (0-{})", ncpus - 1),
        )),
        None => Ok(cpus),
    }
}

/// The CPUs whose bits are set in `mask`.
fn mask_cpus(mask: u64) -> Vec<u32> {
    (0..64).filter(|b| mask >> b & 1 == 1).collect()
}

const NODE_DIR: &str = "/sys/devices/system/node";

/// The NUMA nodes this system has, in increasing order.
fn system_nodes() -> Vec<u32> {
    let mut nodes: Vec<u32> = std::fs::read_dir(NODE_DIR)
        .map(|dir| {
            dir.filter_map(|e| e.ok()?.file_name().to_str()?.strip_prefix("node")?.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    nodes.sort_unstable();
    nodes
}

/// A node list: `all`, or numbers and `A-B` ranges separated by `,`; every node must exist.
fn parse_nodes(text: &str) -> Result<Vec<u32>, String> {
    let have = system_nodes();
    if text.trim() == "all" {
        return if have.is_empty() {
            Err("this system shows no NUMA node".into())
        } else {
            Ok(have)
        };
    }
    let nodes = iomark_options::value::lists::parse_cpu_list(text)
        .map_err(|_| format!("'{text}' is not a list of NUMA nodes"))?;
    match nodes.iter().find(|n| !have.contains(n)) {
        Some(n) => Err(format!("this system has no NUMA node {n} (it has {have:?})")),
        None => Ok(nodes),
    }
}

/// The CPUs of `nodes`, from each node's `cpulist`.
fn node_cpus(nodes: &[u32]) -> Result<Vec<u32>, String> {
    let mut cpus = Vec::new();
    for n in nodes {
        let path = format!("{NODE_DIR}/node{n}/cpulist");
        let list = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        if list.trim().is_empty() {
            continue;
        }
        cpus.extend(
            iomark_options::value::lists::parse_cpu_list(list.trim())
                .map_err(|e| format!("{path}: {e}"))?,
        );
    }
    cpus.sort_unstable();
    cpus.dedup();
    if cpus.is_empty() {
        return Err("these nodes have no CPU".into());
    }
    Ok(cpus)
}

/// `numa_mem_policy`: `default`, `local`, `prefer:N`, `bind:LIST`, `interleave:LIST`.
fn parse_mem_policy(text: &str) -> Result<(MemPolicy, Vec<u32>), String> {
    let (mode, nodes) = match text.split_once(':') {
        Some((m, n)) => (m.trim(), Some(n.trim())),
        None => (text.trim(), None),
    };
    let mode = match mode {
        "default" => MemPolicy::Default,
        "local" => MemPolicy::Local,
        "prefer" => MemPolicy::Prefer,
        "bind" => MemPolicy::Bind,
        "interleave" => MemPolicy::Interleave,
        other => {
            return Err(format!(
                "unknown mode '{other}' (default, prefer, bind, interleave or local)"
            ))
        }
    };
    let nodes = match (mode, nodes) {
        (MemPolicy::Default | MemPolicy::Local, None) => Vec::new(),
        (MemPolicy::Default | MemPolicy::Local, Some(_)) => {
            return Err("default and local take no node list".into())
        }
        (_, None) => return Err("a node list is needed".into()),
        (_, Some(list)) => parse_nodes(list)?,
    };
    if mode == MemPolicy::Prefer && nodes.len() != 1 {
        return Err("prefer takes exactly one node".into());
    }
    Ok((mode, nodes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_lists_its_bits() {
        assert_eq!(mask_cpus(34), vec![1, 5]);
        assert_eq!(mask_cpus(0), Vec::<u32>::new());
    }

    #[test]
    fn split_hands_out_the_set_round_robin() {
        let p = Placement { cpus: Some(vec![2, 5, 7]), split: true, ..Placement::default() };
        let got: Vec<_> = (0..5).map(|n| p.cpus_for(n).unwrap()[0]).collect();
        assert_eq!(got, [2, 5, 7, 2, 5]);
        let shared = Placement { split: false, ..p };
        assert_eq!(shared.cpus_for(4), Some(vec![2, 5, 7]));
        assert_eq!(Placement::default().cpus_for(0), None);
    }

    #[test]
    fn memory_policies_parse_as_fio_documents_them() {
        assert_eq!(parse_mem_policy("local"), Ok((MemPolicy::Local, vec![])));
        assert_eq!(parse_mem_policy("default"), Ok((MemPolicy::Default, vec![])));
        assert!(parse_mem_policy("bind").unwrap_err().contains("node list"));
        assert!(parse_mem_policy("fast:0").unwrap_err().contains("unknown mode"));
        assert!(parse_mem_policy("local:0").is_err());
        if system_nodes().contains(&0) {
            assert_eq!(parse_mem_policy("bind:0"), Ok((MemPolicy::Bind, vec![0])));
            assert_eq!(parse_mem_policy("prefer:0"), Ok((MemPolicy::Prefer, vec![0])));
        } else {
            eprintln!("skipped: no NUMA node 0 in {NODE_DIR}");
        }
        assert!(parse_mem_policy("bind:999").unwrap_err().contains("no NUMA node 999"));
    }
}
