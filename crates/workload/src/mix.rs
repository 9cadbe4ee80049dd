//! The per-I/O decisions that are not offsets: which direction (`rwmixread`) and, in
//! random modes, whether this I/O takes a new random offset (`percentage_random` and the
//! `:N` modifier).
//!
//! Each decision draws from its own stream, so changing `rwmixread` leaves the offsets
//! alone. The read/write choice is an independent draw per I/O (fio 3.33 with
//! `rwmixread=75` over 102400 random I/Os issued 75.03% reads; this gives the same mean).

use crate::rng::{Rng, Stream};
use iomark_core::{Ddir, PerDir, RwMode};

/// Direction and random-or-not decisions for one job.
#[derive(Debug, Clone)]
pub(crate) struct Mix {
    mode: RwMode,
    /// The direction of every I/O, for modes with one (`trimwrite` modes: trims).
    fixed: Option<Ddir>,
    rwmixread: u32,
    percentage_random: [u32; 3],
    /// A random mode's `:N` (1 = every I/O random).
    every: u64,
    /// Per direction: follow-up I/Os left before the next new offset.
    left: [u64; 3],
    /// Per direction: every I/O takes a new random offset (a random mode without `:N`
    /// and with `percentage_random=100`), so that no count or draw is needed.
    always_new: [bool; 3],
    rw_rng: Rng,
    seq_rng: Rng,
}

impl Mix {
    /// The decisions of a job in `mode` seeded with `seed`; `modifier` is the `:N` value
    /// (used here only for random modes).
    pub(crate) fn new(
        mode: RwMode,
        rwmixread: u32,
        percentage_random: &PerDir<u32>,
        modifier: u64,
        seed: u64,
    ) -> Mix {
        let every = if mode.is_random() { modifier.max(1) } else { 1 };
        let fixed = match mode {
            RwMode::Read | RwMode::RandRead => Some(Ddir::Read),
            RwMode::Write | RwMode::RandWrite => Some(Ddir::Write),
            RwMode::Trim | RwMode::RandTrim | RwMode::TrimWrite | RwMode::RandTrimWrite => {
                Some(Ddir::Trim)
            }
            RwMode::ReadWrite | RwMode::RandReadWrite => None,
        };
        Mix {
            mode,
            fixed,
            rwmixread,
            percentage_random: Ddir::DATA.map(|d| *percentage_random.get(d)),
            every,
            left: [0; 3],
            always_new: Ddir::DATA
                .map(|d| mode.is_random() && every == 1 && *percentage_random.get(d) >= 100),
            rw_rng: Rng::for_stream(seed, Stream::RwMix),
            seq_rng: Rng::for_stream(seed, Stream::SeqRandMix),
        }
    }

    /// True when every I/O of direction `dir` takes a new random offset
    /// (`new_random_offset` then always answers true and changes nothing).
    pub(crate) fn always_new(&self, dir: Ddir) -> bool {
        self.always_new[dir.index()]
    }

    /// Starts the `:N` count over (a new pass).
    pub(crate) fn reset(&mut self) {
        self.left = [0; 3];
    }

    /// The direction of the next I/O. `trimwrite` modes answer `Trim`: the write of the
    /// pair is produced by the caller.
    #[inline]
    pub(crate) fn direction(&mut self) -> Ddir {
        match self.fixed {
            Some(dir) => dir,
            None if self.rw_rng.percent(self.rwmixread) => Ddir::Read,
            None => Ddir::Write,
        }
    }

    /// Fixes the direction of the next I/Os of a mixed mode, or with `None` gives the choice
    /// back to `rwmixread`; the modes with one direction keep it.
    pub(crate) fn steer(&mut self, dir: Option<Ddir>) {
        if matches!(self.mode, RwMode::ReadWrite | RwMode::RandReadWrite) {
            self.fixed = dir;
        }
    }

    /// In a random mode, true when this I/O of direction `dir` takes a new random offset:
    /// the first of every `:N` I/Os, and then only with `percentage_random` chance.
    /// Sequential modes always answer false.
    #[inline]
    pub(crate) fn new_random_offset(&mut self, dir: Ddir) -> bool {
        let i = dir.index();
        if self.always_new[i] {
            // What the count below gives with `every == 1` and `p >= 100`, without it.
            return true;
        }
        if !self.mode.is_random() {
            return false;
        }
        if self.left[i] > 0 {
            self.left[i] -= 1;
            return false;
        }
        self.left[i] = self.every - 1;
        match self.percentage_random[i] {
            p if p >= 100 => true,
            p => self.seq_rng.percent(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rwmix_proportions_over_a_million_draws() {
        // Fixed seed, tolerance ±0.5 percentage points.
        for read in [0u32, 10, 50, 75, 100] {
            let mut m = Mix::new(RwMode::RandReadWrite, read, &PerDir::all(100), 0, 0x89);
            let n = 1_000_000;
            let reads = (0..n).filter(|_| m.direction() == Ddir::Read).count();
            let pct = reads as f64 * 100.0 / f64::from(n);
            assert!((pct - f64::from(read)).abs() < 0.5, "{read}: {pct}");
        }
    }

    #[test]
    fn modifier_gives_a_new_offset_every_n() {
        let mut m = Mix::new(RwMode::RandRead, 50, &PerDir::all(100), 4, 1);
        let picks: Vec<bool> = (0..8).map(|_| m.new_random_offset(Ddir::Read)).collect();
        assert_eq!(picks, [true, false, false, false, true, false, false, false]);
        let mut s = Mix::new(RwMode::Read, 50, &PerDir::all(100), 4096, 1);
        assert!(!s.new_random_offset(Ddir::Read));
    }

    #[test]
    fn always_new_answers_what_the_count_would() {
        for (mode, modifier, percent) in
            [(RwMode::RandRead, 0, 100), (RwMode::RandReadWrite, 1, 100), (RwMode::Read, 0, 100)]
        {
            let fast = Mix::new(mode, 50, &PerDir::all(percent), modifier, 7);
            let mut general = fast.clone();
            general.always_new = [false; 3];
            let mut fast = fast;
            for i in 0..3000 {
                let dir = Ddir::DATA[i % 3];
                assert_eq!(fast.new_random_offset(dir), general.new_random_offset(dir));
                if i % 1000 == 999 {
                    fast.reset();
                    general.reset();
                }
            }
            assert_eq!(fast.seq_rng, general.seq_rng, "{mode:?}: no draw");
        }
    }

    #[test]
    fn steering_fixes_a_mixed_direction_only() {
        let mut m = Mix::new(RwMode::RandReadWrite, 100, &PerDir::all(100), 0, 3);
        m.steer(Some(Ddir::Write));
        assert!((0..100).all(|_| m.direction() == Ddir::Write));
        m.steer(None);
        assert_eq!(m.direction(), Ddir::Read);
        let mut r = Mix::new(RwMode::Read, 100, &PerDir::all(100), 0, 3);
        r.steer(Some(Ddir::Write));
        assert_eq!(r.direction(), Ddir::Read);
    }

    #[test]
    fn percentage_random_share() {
        let mut m = Mix::new(RwMode::RandWrite, 50, &PerDir::all(30), 0, 5);
        let n = 100_000;
        let random = (0..n).filter(|_| m.new_random_offset(Ddir::Write)).count();
        assert!((29_000..31_000).contains(&random), "{random}");
    }
}
