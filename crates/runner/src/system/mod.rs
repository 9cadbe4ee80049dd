//! What the runner asks of the operating system around a job's I/O, off the I/O path: the
//! job thread's placement ([`placement`]), the disks' I/O scheduler ([`iosched`]), the
//! files' write hints ([`hints`]), the disks' statistics ([`disk`]), the rule that keeps
//! iomark off block devices in use ([`safety`]), the control groups of job processes
//! ([`cgroup`]), the CPUs' idleness (`--idle-prof`, [`idle`]), and the `exec_prerun`/`exec_postrun`
//! commands ([`exec`]).

pub(crate) mod cgroup;
pub(crate) mod disk;
pub(crate) mod exec;
pub(crate) mod hints;
pub(crate) mod idle;
pub(crate) mod iosched;
pub(crate) mod placement;
pub(crate) mod safety;
