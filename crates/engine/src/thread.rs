//! Scheduling attributes of the calling thread: CPU affinity, nice value, I/O priority and
//! NUMA memory policy, set and read back with the raw system calls (no libnuma).
//!
//! Each applies to the calling thread only (Linux keeps all four per thread), and threads
//! and processes it starts afterwards inherit them: a job sets them on its own thread, so
//! an engine's worker threads and the job's `exec_prerun` command get them too.

use std::io;

fn check(r: libc::c_long) -> io::Result<libc::c_long> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// The number of CPUs the system is configured with (online or not), at least 1.
pub fn configured_cpus() -> u32 {
    // SAFETY: sysconf only reads the value named.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_CONF) };
    u32::try_from(n).unwrap_or(1).max(1)
}

/// Restricts the calling thread to the CPUs `cpus` (numbers below `CPU_SETSIZE`, 1024).
pub fn set_affinity(cpus: &[u32]) -> io::Result<()> {
    // SAFETY: cpu_set_t is plain bits; all zeros is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &cpu in cpus {
        if cpu as usize >= libc::CPU_SETSIZE as usize {
            return Err(io::Error::from_raw_os_error(libc::EINVAL));
        }
        // SAFETY: cpu is below CPU_SETSIZE, the number of bits the set holds.
        unsafe { libc::CPU_SET(cpu as usize, &mut set) };
    }
    // SAFETY: the set is a valid cpu_set_t of the size passed; pid 0 is the calling thread.
    let r = unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
    check(r.into()).map(drop)
}

/// The CPUs the calling thread may run on, in increasing order.
pub fn affinity() -> io::Result<Vec<u32>> {
    // SAFETY: as in set_affinity.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: the kernel writes at most the size passed into `set`.
    let r = unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    check(r.into())?;
    // SAFETY: every c is below CPU_SETSIZE, the number of bits the set holds.
    let on = |c: &u32| unsafe { libc::CPU_ISSET(*c as usize, &set) };
    Ok((0..libc::CPU_SETSIZE as u32).filter(on).collect())
}

/// Sets the calling thread's nice value (-20 to 19; below the current one needs privilege).
pub fn set_nice(nice: i32) -> io::Result<()> {
    // SAFETY: setpriority only changes the priority of the thread named by its id.
    let r = unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, nice) };
    check(r.into()).map(drop)
}

/// The calling thread's nice value.
pub fn nice() -> io::Result<i32> {
    // getpriority may return -1 as a value: errno tells an error apart.
    // SAFETY: __errno_location points to the calling thread's errno; getpriority reads the
    // priority of the thread named by its id.
    unsafe {
        *libc::__errno_location() = 0;
        let n = libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t);
        if n == -1 && *libc::__errno_location() != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(n)
    }
}

/// An I/O priority class, as `ioprio_set(2)` numbers them (fio's `prioclass`).
pub mod ioprio_class {
    /// No class set: the kernel derives one from the nice value.
    pub const NONE: u32 = 0;
    /// Real time.
    pub const REALTIME: u32 = 1;
    /// Best effort, the default.
    pub const BEST_EFFORT: u32 = 2;
    /// Idle.
    pub const IDLE: u32 = 3;
}

/// `IOPRIO_WHO_PROCESS`: the id names a thread (0: the calling one).
const IOPRIO_WHO_PROCESS: libc::c_long = 1;
/// The class sits above the 13 bits of the level.
const IOPRIO_CLASS_SHIFT: u32 = 13;

/// The value `ioprio_set(2)` and the `ioprio` field of an I/O take for `class` and `level`.
pub fn ioprio_value(class: u32, level: u32) -> u16 {
    ((class << IOPRIO_CLASS_SHIFT) | (level & ((1 << IOPRIO_CLASS_SHIFT) - 1))) as u16
}

/// Sets the calling thread's I/O priority: `class` (see [`ioprio_class`]) and `level`
/// (0 highest to 7 lowest).
pub fn set_ioprio(class: u32, level: u32) -> io::Result<()> {
    let value = libc::c_long::from(ioprio_value(class, level));
    // SAFETY: ioprio_set takes three integers and only changes the calling thread's priority.
    let r = unsafe { libc::syscall(libc::SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, value) };
    check(r).map(drop)
}

/// The calling thread's I/O priority: (class, level).
pub fn ioprio() -> io::Result<(u32, u32)> {
    // SAFETY: ioprio_get takes two integers and only reads the calling thread's priority.
    let r = check(unsafe { libc::syscall(libc::SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0) })? as u32;
    Ok((r >> IOPRIO_CLASS_SHIFT, r & ((1 << IOPRIO_CLASS_SHIFT) - 1)))
}

/// Takes group id `gid` then user id `uid` (each if given) for the whole process, as
/// `setgid(2)` and `setuid(2)` through the C library do (which applies them to every
/// thread): a job process's ids (fio's `gid`, `uid`).
pub fn set_ids(uid: Option<u32>, gid: Option<u32>) -> io::Result<()> {
    if let Some(gid) = gid {
        // SAFETY: setgid takes an integer and only changes the process's credentials.
        if unsafe { libc::setgid(gid) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    if let Some(uid) = uid {
        // SAFETY: setuid takes an integer and only changes the process's credentials.
        if unsafe { libc::setuid(uid) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Sends signal `signal` to process `pid` (`kill(2)`): a job process asked to stop.
pub fn signal(pid: u32, signal: i32) -> io::Result<()> {
    let pid = libc::pid_t::try_from(pid).map_err(|_| io::Error::from_raw_os_error(libc::ESRCH))?;
    // SAFETY: kill takes two integers and touches no memory of this process.
    let r = unsafe { libc::kill(pid, signal) };
    check(r as libc::c_long).map(|_| ())
}

/// Puts the calling thread under the `SCHED_IDLE` policy: it runs only when a CPU has
/// nothing else to run (the spinners of `--idle-prof`).
pub fn set_idle_policy() -> io::Result<()> {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: `param` is a valid sched_param for the call's duration; pid 0 is the calling
    // thread.
    let r = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) };
    check(r as libc::c_long).map(|_| ())
}

/// A NUMA memory policy mode, as `set_mempolicy(2)` numbers them (fio's `numa_mem_policy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemPolicy {
    /// `MPOL_DEFAULT`: allocate on the node of the CPU that asks.
    Default = 0,
    /// `MPOL_PREFERRED`: this node first.
    Prefer = 1,
    /// `MPOL_BIND`: only these nodes.
    Bind = 2,
    /// `MPOL_INTERLEAVE`: round robin over these nodes.
    Interleave = 3,
    /// `MPOL_LOCAL`: the local node.
    Local = 4,
}

/// Bits in the node masks passed to the kernel (1024 nodes).
const MAX_NODES: usize = 1024;
const MASK_WORDS: usize = MAX_NODES / 64;

/// Sets the calling thread's memory policy to `mode` over the NUMA nodes `nodes` (empty for
/// `Default` and `Local`).
pub fn set_mempolicy(mode: MemPolicy, nodes: &[u32]) -> io::Result<()> {
    let mut mask = [0u64; MASK_WORDS];
    for &n in nodes {
        let n = n as usize;
        if n >= MAX_NODES {
            return Err(io::Error::from_raw_os_error(libc::EINVAL));
        }
        mask[n / 64] |= 1 << (n % 64);
    }
    let (ptr, maxnode) = if nodes.is_empty() {
        (std::ptr::null::<u64>(), 0)
    } else {
        (mask.as_ptr(), MAX_NODES as libc::c_ulong + 1)
    };
    // SAFETY: the mask holds MAX_NODES bits (maxnode - 1 are read) or is null with maxnode
    // 0; set_mempolicy only changes the calling thread's policy.
    let r = unsafe { libc::syscall(libc::SYS_set_mempolicy, mode as libc::c_long, ptr, maxnode) };
    check(r).map(drop)
}

/// The calling thread's memory policy: its mode number (`MPOL_*`) and nodes.
pub fn mempolicy() -> io::Result<(i32, Vec<u32>)> {
    let mut mode: libc::c_int = 0;
    let mut mask = [0u64; MASK_WORDS];
    // SAFETY: the kernel writes one int to `mode` and at most MAX_NODES bits to `mask`;
    // address 0 and flags 0 ask for the thread's own policy.
    let r = unsafe {
        libc::syscall(
            libc::SYS_get_mempolicy,
            &mut mode as *mut libc::c_int,
            mask.as_mut_ptr(),
            MAX_NODES as libc::c_ulong,
            0usize,
            0 as libc::c_ulong,
        )
    };
    check(r)?;
    let nodes = (0..MAX_NODES as u32).filter(|&n| mask[n as usize / 64] >> (n % 64) & 1 == 1);
    Ok((mode, nodes.collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `f` on a thread of its own, so that the test thread keeps its attributes.
    fn on_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::spawn(f).join().expect("thread")
    }

    #[test]
    fn affinity_is_set_and_read_back() {
        let first = affinity().expect("affinity")[0];
        let got = on_thread(move || {
            set_affinity(&[first]).expect("set affinity");
            affinity().expect("affinity")
        });
        assert_eq!(got, vec![first]);
        assert!(set_affinity(&[5000]).is_err());
    }

    #[test]
    fn nice_is_set_and_read_back() {
        let before = nice().expect("nice");
        let got = on_thread(move || {
            set_nice(before + 1).expect("set nice");
            nice().expect("nice")
        });
        assert_eq!(got, before + 1);
        // Only the other thread changed.
        assert_eq!(nice().expect("nice"), before);
    }

    #[test]
    fn ioprio_is_set_and_read_back() {
        let got = on_thread(|| {
            set_ioprio(ioprio_class::BEST_EFFORT, 6).expect("set ioprio");
            let be = ioprio().expect("ioprio");
            set_ioprio(ioprio_class::IDLE, 0).expect("set ioprio");
            (be, ioprio().expect("ioprio"))
        });
        assert_eq!(got, ((ioprio_class::BEST_EFFORT, 6), (ioprio_class::IDLE, 0)));
        assert_eq!(ioprio_value(ioprio_class::REALTIME, 3), (1 << 13) | 3);
    }

    #[test]
    fn mempolicy_is_set_and_read_back() {
        let got = on_thread(|| {
            set_mempolicy(MemPolicy::Bind, &[0]).map(|()| mempolicy().expect("mempolicy"))
        });
        match got {
            Ok((mode, nodes)) => assert_eq!((mode, nodes), (MemPolicy::Bind as i32, vec![0])),
            Err(e) if e.raw_os_error() == Some(libc::ENOSYS) => {
                eprintln!("skipped: the kernel has no NUMA memory policies");
            }
            Err(e) => panic!("set_mempolicy: {e}"),
        }
    }

    #[test]
    fn there_is_a_cpu() {
        assert!(configured_cpus() >= 1);
    }
}
