//! Where this process stands in a launch of many: whether an MPI launcher (`mpirun`,
//! `srun`) started it, as which rank of how many, on which host; and `$rank` and
//! `$hostname` in `filename_format`, which give each rank its own files.
//!
//! The launchers say so in the environment of each process they start: Open MPI's
//! `mpirun` sets `OMPI_COMM_WORLD_RANK` and `OMPI_COMM_WORLD_SIZE`, MPICH's Hydra
//! `PMI_RANK` and `PMI_SIZE`, Slurm's `srun` `SLURM_PROCID` and `SLURM_NTASKS`.

use iomark_options::value::Value;
use iomark_options::{keys, JobSpec};

/// An MPI launch this process is part of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Launcher {
    /// Which launcher, by name (`Open MPI`, `MPICH`, `Slurm`).
    pub name: &'static str,
    /// This process's rank, from 0.
    pub rank: u32,
    /// How many ranks there are.
    pub size: u32,
}

/// The environment variables of each launcher: its name, the rank's and the size's.
const LAUNCHERS: [(&str, &str, &str); 3] = [
    ("Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),
    ("MPICH", "PMI_RANK", "PMI_SIZE"),
    ("Slurm", "SLURM_PROCID", "SLURM_NTASKS"),
];

impl Launcher {
    /// The launch this process is part of, from its environment; `None` when no launcher
    /// started it.
    pub fn detect() -> Option<Launcher> {
        Self::detect_in(|name| std::env::var(name).ok())
    }

    /// [`Launcher::detect`] over the environment `var`.
    pub fn detect_in(var: impl Fn(&str) -> Option<String>) -> Option<Launcher> {
        LAUNCHERS.iter().find_map(|&(name, rank, size)| {
            let rank = var(rank)?.trim().parse().ok()?;
            let size = var(size)?.trim().parse().ok()?;
            (rank < size).then_some(Launcher { name, rank, size })
        })
    }
}

/// This host's name (`/proc/sys/kernel/hostname`), `localhost` where it cannot be read.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

/// Puts `rank` and `hostname` for `$rank` and `$hostname` into every job's
/// `filename_format` (iomark's keywords beside fio's `$jobname`, `$jobnum`, `$filenum`).
pub fn localize(jobs: &mut [JobSpec], rank: u32, hostname: &str) {
    let name = keys::FILENAME_FORMAT.name;
    for job in jobs {
        for setting in job.settings.iter_mut().filter(|s| s.def.name == name) {
            let fill =
                |s: &str| s.replace("$rank", &rank.to_string()).replace("$hostname", hostname);
            if let Value::Str(text) = &mut setting.value {
                *text = fill(text);
            }
            if let Some(raw) = &mut setting.raw {
                *raw = fill(raw);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_launcher_is_known_by_its_variables() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|p| p.0 == k).map(|p| p.1.to_string())
        };
        assert_eq!(Launcher::detect_in(env(&[])), None);
        const OMPI: [(&str, &str); 2] =
            [("OMPI_COMM_WORLD_RANK", "2"), ("OMPI_COMM_WORLD_SIZE", "4")];
        assert_eq!(
            Launcher::detect_in(env(&OMPI)),
            Some(Launcher { name: "Open MPI", rank: 2, size: 4 })
        );
        const SLURM: [(&str, &str); 2] = [("SLURM_PROCID", "0"), ("SLURM_NTASKS", "8")];
        assert_eq!(Launcher::detect_in(env(&SLURM)).map(|l| (l.name, l.size)), Some(("Slurm", 8)));
        // A rank past the size is no launch.
        assert_eq!(Launcher::detect_in(env(&[("PMI_RANK", "4"), ("PMI_SIZE", "4")])), None);
    }
}
