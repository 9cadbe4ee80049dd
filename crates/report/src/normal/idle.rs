//! fio 3.33's `CPU idleness` section (`--idle-prof`), after the disks in the normal report,
//! and alone for `--idle-prof=calibrate`:
//!
//! ```text
//! CPU idleness:
//!   system: 36.57%
//!   percpu: 1.94%, 71.19%
//!   unit work: mean=18.77us, stddev=15.50
//! ```

use iomark_stats::report::IdleReport;
use std::fmt::Write as _;

/// The section for `idle`; with `measured` false (a calibration alone) only the unit of
/// work, as fio prints it.
pub fn cpu_idleness(idle: &IdleReport, measured: bool) -> String {
    let mut out = String::from("CPU idleness:\n");
    if measured {
        let _ = writeln!(out, "  system: {:3.2}%", idle.system);
        if !idle.percpu.is_empty() {
            let cpus: Vec<String> = idle.percpu.iter().map(|p| format!("{p:3.2}%")).collect();
            let _ = writeln!(out, "  percpu: {}", cpus.join(", "));
        }
    }
    let _ = writeln!(
        out,
        "  unit work: mean={:3.2}us, stddev={:3.2}",
        idle.unit_mean_us, idle.unit_stddev_us
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_is_fios() {
        let idle = IdleReport {
            system: 36.571,
            percpu: vec![1.94, 71.19],
            unit_mean_us: 18.77,
            unit_stddev_us: 15.5,
        };
        assert_eq!(
            cpu_idleness(&idle, true),
            "CPU idleness:\n  system: 36.57%\n  percpu: 1.94%, 71.19%\n  \
             unit work: mean=18.77us, stddev=15.50\n"
        );
        let system = IdleReport { percpu: Vec::new(), ..idle.clone() };
        assert!(!cpu_idleness(&system, true).contains("percpu"));
        assert_eq!(
            cpu_idleness(&idle, false),
            "CPU idleness:\n  unit work: mean=18.77us, stddev=15.50\n"
        );
    }
}
