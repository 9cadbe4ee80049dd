//! [`Ranks`] over MPI (the `mpi` feature): `MPI_COMM_WORLD` through the `ferrompi`
//! binding, which compiles a small C shim against the MPI library that `mpicc` names (no
//! bindgen, so no libclang at build time). Every MPI call is made from the thread that
//! initialised MPI (`MPI_THREAD_FUNNELED`): the run's waves start from it and the gather
//! follows the run on it.

use crate::ranks::{DistError, Ranks};
use ferrompi::{Communicator, Mpi, ThreadLevel};

/// This process's part in `MPI_COMM_WORLD`; MPI is finalised when it is dropped.
pub struct MpiRanks {
    world: Communicator,
    _mpi: Mpi,
}

fn mpi_error(e: ferrompi::Error) -> DistError {
    DistError::Mpi(e.to_string())
}

impl MpiRanks {
    /// Initialises MPI.
    pub fn init() -> Result<MpiRanks, DistError> {
        let mpi = Mpi::init_thread(ThreadLevel::Funneled).map_err(mpi_error)?;
        Ok(MpiRanks { world: mpi.world(), _mpi: mpi })
    }

    /// Ends every rank of the launch with exit code `code` (after this rank failed alone,
    /// so that the others do not wait for it for ever).
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}

impl Ranks for MpiRanks {
    fn rank(&self) -> u32 {
        self.world.rank().unsigned_abs()
    }

    fn size(&self) -> u32 {
        self.world.size().unsigned_abs()
    }

    fn barrier(&self) -> Result<(), DistError> {
        self.world.barrier().map_err(mpi_error)
    }

    fn gather(&self, bytes: &[u8]) -> Result<Option<Vec<Vec<u8>>>, DistError> {
        let len = i32::try_from(bytes.len())
            .map_err(|_| DistError::Mpi(format!("{} bytes are too many to gather", bytes.len())))?;
        let root = self.world.rank() == 0;
        let n = self.size() as usize;
        let mut lens = vec![0i32; if root { n } else { 0 }];
        self.world.gather(&[len], &mut lens, 0).map_err(mpi_error)?;
        let displs: Vec<i32> = lens
            .iter()
            .scan(0i32, |at, &l| {
                let d = *at;
                *at = at.saturating_add(l);
                Some(d)
            })
            .collect();
        let total: usize = lens.iter().map(|&l| l.max(0) as usize).sum();
        let mut all = vec![0u8; total];
        self.world.gatherv(bytes, &mut all, &lens, &displs, 0).map_err(mpi_error)?;
        if !root {
            return Ok(None);
        }
        Ok(Some(
            lens.iter()
                .zip(&displs)
                .map(|(&l, &d)| all[d as usize..(d + l) as usize].to_vec())
                .collect(),
        ))
    }
}
