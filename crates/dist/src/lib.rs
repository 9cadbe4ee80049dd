//! Many clients at once: one workload run from many processes or hosts, and one merged
//! answer. [`ranks`] runs a job file on every rank of an MPI launch (`mpirun`, `srun`):
//! the ranks start their I/O together and at every `stonewall`, and rank 0 reduces all
//! ranks' recordings, merged exactly through the stats crate, into one report.
//! [`launch`] tells whether this process was started by an MPI launcher and which rank
//! it is, and puts `$rank` and `$hostname` into `filename_format`.

pub mod clients;
pub mod job_request;
pub mod launch;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod proto;
pub mod ranks;

pub use launch::{hostname, localize, Launcher};
pub use ranks::{run_ranks, DistError, Ranks};
