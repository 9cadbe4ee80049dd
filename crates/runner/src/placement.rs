//! Where and how urgently a job's thread runs: CPU affinity (`cpumask`, `cpus_allowed`,
//! `cpus_allowed_policy`, `numa_cpu_nodes`), NUMA memory policy (`numa_mem_policy`), CPU
//! priority (`nice`) and I/O priority (`prio`, `prioclass`).
//!
//! [`Placement::of`] checks the values when the job is planned (a CPU or NUMA node this
//! system does not have is refused, as fio refuses it); [`Placement::apply`] sets them on
//! the job's thread as it starts, before `exec_prerun` and before any I/O, through the
//! system calls of [`iomark_engine::thread`] (no libnuma). The engine's worker threads and
//! the `exec_prerun`/`exec_postrun` commands inherit them.
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

use crate::get;
use iomark_engine::thread::{self as sys, ioprio_class, MemPolicy};
use iomark_options::value::Value;
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
}

impl Placement {
    /// The placement options of `spec`; refuses CPUs and nodes this system does not have.
    pub fn of(spec: &JobSpec) -> Result<Placement, String> {
        let mask = match spec.value("cpumask") {
            Some(Value::Int(m)) => Some(check_cpus("cpumask", mask_cpus(m as u64))?),
            _ => None,
        };
        let list = match spec.value("cpus_allowed") {
            Some(Value::Cpus(c)) => Some(check_cpus("cpus_allowed", c)?),
            _ => None,
        };
        let cpus = match (mask, list) {
            (Some(m), Some(_)) if crate::plan::last_set(spec, "cpumask", "cpus_allowed") => Some(m),
            (m, l) => l.or(m),
        };
        if cpus.as_ref().is_some_and(Vec::is_empty) {
            return Err("option 'cpumask': the mask holds no CPU".into());
        }
        let numa_cpus = match get::text(spec, "numa_cpu_nodes") {
            Some(nodes) => Some(
                node_cpus(&parse_nodes(&nodes)?)
                    .map_err(|e| format!("option 'numa_cpu_nodes': '{nodes}': {e}"))?,
            ),
            None => None,
        };
        let mem_policy = match get::text(spec, "numa_mem_policy") {
            Some(text) => Some(
                parse_mem_policy(&text)
                    .map_err(|e| format!("option 'numa_mem_policy': '{text}': {e}"))?,
            ),
            None => None,
        };
        let int = |name| match spec.value(name) {
            Some(Value::Int(n)) => Some(n as u32),
            _ => None,
        };
        let ioprio = match (int("prioclass"), int("prio")) {
            (None, None) => None,
            (class, level) => {
                Some((class.unwrap_or(ioprio_class::BEST_EFFORT), level.unwrap_or(0)))
            }
        };
        let nice = match spec.value("nice") {
            Some(Value::Int(n)) => n as i32,
            _ => 0,
        };
        let split = get::choice(spec, "cpus_allowed_policy").is_some_and(|c| c.0 == "split");
        Ok(Placement { cpus, split, numa_cpus, mem_policy, nice, ioprio })
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

    /// Sets everything on the calling thread, which is job number `thread_number`.
    pub fn apply(&self, thread_number: u64) -> Result<(), String> {
        if let Some(cpus) = self.cpus_for(thread_number) {
            let option = if self.numa_cpus.is_some() { "numa_cpu_nodes" } else { "cpus_allowed" };
            sys::set_affinity(&cpus)
                .map_err(|e| format!("option '{option}': cannot set the CPU affinity: {e}"))?;
        }
        if let Some((mode, nodes)) = &self.mem_policy {
            sys::set_mempolicy(*mode, nodes)
                .map_err(|e| format!("option 'numa_mem_policy': cannot set the policy: {e}"))?;
        }
        if self.nice != 0 {
            let now = sys::nice().map_err(|e| format!("option 'nice': {e}"))?;
            sys::set_nice((now + self.nice).clamp(-20, 19))
                .map_err(|e| format!("option 'nice': cannot set {}: {e}", self.nice))?;
        }
        if let Some((class, level)) = self.ioprio {
            sys::set_ioprio(class, level).map_err(|e| {
                format!("option 'prio'/'prioclass': cannot set class {class} level {level}: {e}")
            })?;
        }
        Ok(())
    }
}

/// `cpus` of `option` (a CPU list), refused when it names a CPU this system does not have.
pub(crate) fn check_cpus(option: &str, cpus: Vec<u32>) -> Result<Vec<u32>, String> {
    let ncpus = sys::configured_cpus();
    match cpus.iter().find(|&&c| c >= ncpus) {
        Some(c) => Err(format!(
            "option '{option}': CPU {c} is beyond this system's {ncpus} CPUs (0-{})",
            ncpus - 1
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
