//! Setting a job's placement on its thread as it starts, before `exec_prerun` and before any
//! I/O: CPU affinity, NUMA memory policy, nice value and I/O priority, through the system
//! calls of [`iomark_engine::thread`] (the plan, [`iomark_plan::placement`], checked the
//! values and holds fio 3.33's rules). The engine's worker threads and the
//! `exec_prerun`/`exec_postrun` commands inherit them.

use iomark_engine::thread as sys;
use iomark_plan::placement::Placement;

/// Sets `placement` on the calling thread, which is job number `thread_number`.
pub fn apply(placement: &Placement, thread_number: u64) -> Result<(), String> {
    if let Some(cpus) = placement.cpus_for(thread_number) {
        let option = if placement.numa_cpus.is_some() { "numa_cpu_nodes" } else { "cpus_allowed" };
        sys::set_affinity(&cpus)
            .map_err(|e| format!("option '{option}': cannot set the CPU affinity: {e}"))?;
    }
    if let Some((mode, nodes)) = &placement.mem_policy {
        sys::set_mempolicy(*mode, nodes)
            .map_err(|e| format!("option 'numa_mem_policy': cannot set the policy: {e}"))?;
    }
    if placement.nice != 0 {
        let now = sys::nice().map_err(|e| format!("option 'nice': {e}"))?;
        sys::set_nice((now + placement.nice).clamp(-20, 19))
            .map_err(|e| format!("option 'nice': cannot set {}: {e}", placement.nice))?;
    }
    if let Some((class, level)) = placement.ioprio {
        sys::set_ioprio(class, level).map_err(|e| {
            format!("option 'prio'/'prioclass': cannot set class {class} level {level}: {e}")
        })?;
    }
    Ok(())
}
