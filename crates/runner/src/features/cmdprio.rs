//! Per-I/O priorities as a job runs: which priority each read or write gets, drawn from
//! the job's `cmdprio_*` rules ([`iomark_plan::cmdprio`]) as fio 3.33 draws it: from its
//! stream 19, one draw per read or write whose rule gives a share above 0 (a percentage in
//! 1..=100, the priority when it is at most the share), learned from fio's latency logs
//! with `log_prio=1` (the same priority I/O for I/O, reads and writes sharing the state).

use iomark_core::Ddir;
use iomark_plan::cmdprio::{CmdPrio, Rule};
use iomark_workload::FioRng;

/// Picks the priority of each I/O as it is issued; no allocation.
pub struct Picker<'a> {
    prio: &'a CmdPrio,
    rng: FioRng,
}

impl<'a> Picker<'a> {
    /// A picker for `prio`, drawing from `rng` (fio's stream 19 of the job).
    pub fn new(prio: &'a CmdPrio, rng: FioRng) -> Picker<'a> {
        Picker { prio, rng }
    }

    /// The priority of an I/O of direction `ddir` and `len` bytes (0: the thread's own).
    #[inline]
    pub fn pick(&mut self, ddir: Ddir, len: u64) -> u16 {
        let d = match ddir {
            Ddir::Read => 0,
            Ddir::Write => 1,
            _ => return 0,
        };
        let (percent, value) = match &self.prio.rules[d] {
            Rule::None => return 0,
            Rule::Percent { percent, value } => (*percent, *value),
            Rule::Split(entries) => match entries.iter().find(|e| e.0 == len) {
                Some(&(_, p, v)) => (p, v),
                None => return 0,
            },
        };
        if percent > 0 && self.rng.percent() <= percent {
            value
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use iomark_engine::thread::ioprio_value;

    fn prio(rules: [Rule; 2]) -> CmdPrio {
        CmdPrio { rules, values: Vec::new(), total_latency: false }
    }

    #[test]
    fn the_share_drawn_is_the_percentage() {
        let p = prio([Rule::Percent { percent: 30, value: ioprio_value(1, 0) }, Rule::None]);
        let mut picker = Picker::new(&p, FioRng::new(1234, false));
        let high = (0..100_000).filter(|_| picker.pick(Ddir::Read, 4096) != 0).count();
        assert!((29_000..31_000).contains(&high), "{high}");
        assert_eq!((0..1000).filter(|_| picker.pick(Ddir::Write, 4096) != 0).count(), 0);
        assert_eq!(picker.pick(Ddir::Trim, 4096), 0);
    }

    #[test]
    fn bssplit_gives_priorities_by_block_size() {
        let p = prio([
            Rule::Split(vec![(4096, 100, ioprio_value(1, 0)), (65536, 0, ioprio_value(2, 5))]),
            Rule::Split(vec![(8192, 100, ioprio_value(3, 0))]),
        ]);
        let mut picker = Picker::new(&p, FioRng::new(1, false));
        assert_eq!(picker.pick(Ddir::Read, 4096), ioprio_value(1, 0));
        assert_eq!(picker.pick(Ddir::Read, 65536), 0);
        assert_eq!(picker.pick(Ddir::Read, 8192), 0);
        assert_eq!(picker.pick(Ddir::Write, 8192), ioprio_value(3, 0));
    }
}
