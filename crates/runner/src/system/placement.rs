//! Setting a job's placement on its thread as it starts, before `exec_prerun` and before any
//! I/O: CPU affinity, NUMA memory policy, nice value and I/O priority, through the system
//! calls of [`iomark_engine::thread`] (the plan, [`iomark_plan::placement`], checked the
//! values and holds fio 3.33's rules). The engine's worker threads and the
//! `exec_prerun`/`exec_postrun` commands inherit them.

use iomark_engine::thread as sys;
use iomark_plan::placement::Placement;
use std::io;

/// Why a job's placement could not be set; each message names the option.
#[derive(Debug, thiserror::Error)]
pub enum PlacementError {
    /// The kernel refused the CPU affinity of `option` (`cpus_allowed`, `numa_cpu_nodes`).
    #[error("option '{option}': cannot set the CPU affinity: {source}")]
    Affinity {
        /// The option that set the CPUs.
        option: &'static str,
        /// The kernel's refusal.
        source: io::Error,
    },
    /// The kernel refused the memory policy (`numa_mem_policy`).
    #[error("option 'numa_mem_policy': cannot set the policy: {0}")]
    MemPolicy(#[source] io::Error),
    /// The thread's nice value could not be read (`nice`).
    #[error("option 'nice': {0}")]
    ReadNice(#[source] io::Error),
    /// The kernel refused the nice value `nice` (`nice`).
    #[error("option 'nice': cannot set {nice}: {source}")]
    Nice {
        /// The job's `nice`.
        nice: i32,
        /// The kernel's refusal.
        source: io::Error,
    },
    /// The kernel refused the I/O priority (`prio`, `prioclass`).
    #[error("option 'prio'/'prioclass': cannot set class {class} level {level}: {source}")]
    Ioprio {
        /// The priority class.
        class: u32,
        /// The level within the class.
        level: u32,
        /// The kernel's refusal.
        source: io::Error,
    },
}

/// Whether [`apply`] leaves the calling thread as it found it: no CPU affinity, memory
/// policy, nice value or I/O priority to set. Such a job's thread may run another job
/// afterwards (see `run::pool`).
pub fn leaves_thread_as_is(placement: &Placement) -> bool {
    placement.cpus.is_none()
        && placement.numa_cpus.is_none()
        && placement.mem_policy.is_none()
        && placement.nice == 0
        && placement.ioprio.is_none()
}

/// Sets `placement` on the calling thread, which is job number `thread_number`.
pub fn apply(placement: &Placement, thread_number: u64) -> Result<(), PlacementError> {
    if let Some(cpus) = placement.cpus_for(thread_number) {
        let option = if placement.numa_cpus.is_some() { "numa_cpu_nodes" } else { "cpus_allowed" };
        sys::set_affinity(&cpus).map_err(|source| PlacementError::Affinity { option, source })?;
    }
    if let Some((mode, nodes)) = &placement.mem_policy {
        sys::set_mempolicy(*mode, nodes).map_err(PlacementError::MemPolicy)?;
    }
    if placement.nice != 0 {
        let now = sys::nice().map_err(PlacementError::ReadNice)?;
        let nice = placement.nice;
        sys::set_nice((now + nice).clamp(-20, 19))
            .map_err(|source| PlacementError::Nice { nice, source })?;
    }
    if let Some((class, level)) = placement.ioprio {
        sys::set_ioprio(class, level).map_err(|source| PlacementError::Ioprio {
            class,
            level,
            source,
        })?;
    }
    Ok(())
}
