//! Many clients at once: the MPI launch (`mpirun -np N iomark`).

mod mpi;
