//! Per-I/O priorities as a job runs: which priority each read or write gets, drawn from
//! the job's `cmdprio_*` rules ([`iomark_plan::cmdprio`]) with a generator of its own.

use iomark_core::Ddir;
use iomark_plan::cmdprio::{CmdPrio, Rule};

/// Picks the priority of each I/O as it is issued; no allocation.
pub struct Picker<'a> {
    prio: &'a CmdPrio,
    rng: u64,
}

impl<'a> Picker<'a> {
    /// A picker for `prio`, its draws seeded by `seed`.
    pub fn new(prio: &'a CmdPrio, seed: u64) -> Picker<'a> {
        Picker { prio, rng: seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1 }
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
        if self.draw() < percent {
            value
        } else {
            0
        }
    }

    /// A number in 0..100 (xorshift64*).
    fn draw(&mut self) -> u32 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        ((self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) % 100) as u32
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
        let mut picker = Picker::new(&p, 1234);
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
        let mut picker = Picker::new(&p, 1);
        assert_eq!(picker.pick(Ddir::Read, 4096), ioprio_value(1, 0));
        assert_eq!(picker.pick(Ddir::Read, 65536), 0);
        assert_eq!(picker.pick(Ddir::Read, 8192), 0);
        assert_eq!(picker.pick(Ddir::Write, 8192), ioprio_value(3, 0));
    }
}
