//! The system services a job's `verify_async` helpers get from the runner (the verify
//! crate knows no engine): CPU affinity and CPU time.

use iomark_engine::file::ThreadUsage;
use iomark_engine::thread as sys;
use iomark_verify::HelperHost;
use std::sync::{Mutex, PoisonError};

/// The system services of a job's `verify_async` helpers: CPU affinity through
/// [`iomark_engine::thread`], and the CPU time of the helpers, summed as they end (the
/// job's, as in fio).
#[derive(Debug, Default)]
pub struct Host {
    used: Mutex<ThreadUsage>,
}

impl Host {
    /// The CPU time of the helpers that have ended.
    pub fn used(&self) -> ThreadUsage {
        *self.used.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl HelperHost for Host {
    fn pinned(&self, cpus: &[u32], spawn: &mut dyn FnMut()) -> std::io::Result<()> {
        let before = sys::affinity()?;
        sys::set_affinity(cpus)?;
        spawn();
        sys::set_affinity(&before)
    }

    fn helper_ends(&self) {
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        *used = used.plus(ThreadUsage::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_run_on_the_cpus_given_and_the_caller_keeps_its_own() {
        let before = sys::affinity().expect("affinity");
        let cpu = before[0];
        let host = Host::default();
        let mut seen = None;
        host.pinned(&[cpu], &mut || seen = Some(sys::affinity().expect("affinity")))
            .expect("pinned");
        assert_eq!(seen, Some(vec![cpu]));
        assert_eq!(sys::affinity().expect("affinity"), before);
    }

    #[test]
    fn a_cpu_the_system_lacks_is_refused() {
        let mut spawned = false;
        assert!(Host::default().pinned(&[4000], &mut || spawned = true).is_err());
        assert!(!spawned);
    }
}
