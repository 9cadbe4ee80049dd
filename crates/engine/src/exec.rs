//! fio's `exec` engine: the job runs a program (`program`, `arguments`) for its runtime.
//! The program starts with the engine; each "I/O" waits 100 ms and moves no data (fio
//! 3.33's report of such a job: ten I/Os of about 100 ms a second, whatever the program
//! does); when the job ends, a program still running gets SIGTERM, then SIGKILL after
//! `grace_time` seconds. With `std_redirect` its standard output and error go to
//! `NAME.stdout` and `NAME.stderr`.

use crate::interface::{Engine, EngineError, Queued};
use crate::unit::IoUnit;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// What the exec engine runs, resolved by the plan.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExecSpec {
    /// The program.
    pub program: String,
    /// Its arguments, `%r` and `%n` replaced.
    pub args: Vec<String>,
    /// Seconds between SIGTERM and SIGKILL (`grace_time`).
    pub grace_s: u64,
    /// Where its standard output and error go (`std_redirect`), if redirected.
    pub redirect: Option<(PathBuf, PathBuf)>,
}

/// How long each I/O waits.
const TICK: Duration = Duration::from_millis(100);

/// The `exec` engine, with its program.
#[derive(Debug)]
pub struct ExecEngine {
    child: Option<Child>,
    grace: Duration,
}

impl ExecEngine {
    /// Starts `spec`'s program.
    pub fn new(spec: Option<&ExecSpec>) -> Result<Self, EngineError> {
        let spec = spec.ok_or_else(|| EngineError::option("program", "exec needs a program"))?;
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args).stdin(Stdio::null());
        if let Some((out, err)) = &spec.redirect {
            let open = |p: &PathBuf| {
                std::fs::File::create(p)
                    .map_err(|e| EngineError::other(format!("{}: {e}", p.display())))
            };
            cmd.stdout(open(out)?).stderr(open(err)?);
        }
        let child = cmd.spawn().map_err(|e| {
            EngineError::option("program", format!("cannot run '{}': {e}", spec.program))
        })?;
        Ok(ExecEngine { child: Some(child), grace: Duration::from_secs(spec.grace_s) })
    }

    /// Ends the program: SIGTERM, then SIGKILL once the grace time is over.
    fn stop(&mut self) {
        let Some(mut child) = self.child.take() else { return };
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        // SAFETY: kill(2) on the pid of our own child, which has not been reaped yet.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
        let mut waited = Duration::ZERO;
        while waited < self.grace {
            if matches!(child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
            waited += Duration::from_millis(10);
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Engine for ExecEngine {
    fn name(&self) -> &'static str {
        "exec"
    }

    fn is_sync(&self) -> bool {
        true
    }

    fn syscalls(&self) -> Option<u64> {
        Some(0)
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        std::thread::sleep(TICK);
        unit.len = 0;
        unit.result = 0;
        Queued::Completed
    }

    fn finish(&mut self) -> crate::file::ThreadUsage {
        self.stop();
        crate::file::ThreadUsage::default()
    }
}

impl Drop for ExecEngine {
    fn drop(&mut self) {
        self.stop();
    }
}
