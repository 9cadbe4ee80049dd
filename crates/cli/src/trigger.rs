//! fio's triggers (`--trigger-file`, `--trigger-timeout`, `--trigger`): a thread beside the
//! run watches for the file (every 250 ms) and for the timeout; when either comes, it
//! removes the file, stops the jobs as SIGTERM would (they save their verify state where
//! they save it), and runs the trigger command with `sh -c`. The run then prints the report
//! of what was done and exits with 0, as fio 3.33 does (its stderr line "terminating on
//! signal 15" is not printed: a run that succeeds writes nothing to stderr).

use crate::signals::{Control, Woken};
use iomark_options::cmdline::ProgramOptions;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How often the trigger file is looked for.
const POLL: Duration = Duration::from_millis(250);

/// The watcher of one run.
pub struct Trigger {
    file: Option<PathBuf>,
    deadline: Option<Instant>,
    command: Option<String>,
}

impl Trigger {
    /// The trigger `program` asks for, if any.
    pub fn of(program: &ProgramOptions) -> Option<Trigger> {
        if program.trigger_file.is_none() && program.trigger_timeout.is_none() {
            return None;
        }
        Some(Trigger {
            file: program.trigger_file.clone(),
            deadline: program.trigger_timeout.map(|t| Instant::now() + t),
            command: program.trigger.clone(),
        })
    }

    /// Watches until the run ends (see [`Control::set_running`]) or the trigger fires;
    /// a note for the report when the trigger command failed.
    pub fn watch(self, control: &Control) -> Option<String> {
        let mut seen = control.usr1_seen();
        loop {
            if self.file.as_ref().is_some_and(|f| std::fs::remove_file(f).is_ok())
                || self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                return self.fire(control);
            }
            let next = Instant::now() + POLL;
            let until = self.deadline.map_or(next, |d| d.min(next));
            if control.wait(&mut seen, Some(until)) == Woken::Over {
                return None;
            }
        }
    }

    /// Stops the run and runs the command; a note when the command failed (the run
    /// itself succeeds, so the note goes with its report, not to standard error).
    fn fire(&self, control: &Control) -> Option<String> {
        control.stop.store(true, Ordering::SeqCst);
        let command = self.command.as_ref()?;
        match std::process::Command::new("sh").arg("-c").arg(command).status() {
            Ok(s) if s.success() => None,
            Ok(s) => Some(format!("--trigger '{command}': {s}")),
            Err(e) => Some(format!("--trigger '{command}': {e}")),
        }
    }
}
