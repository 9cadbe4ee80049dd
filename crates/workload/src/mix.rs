//! The per-I/O decisions that are not offsets: which direction (`rwmixread`) and, in
//! random modes, whether this I/O takes a new random offset (`percentage_random` and the
//! `:N` modifier), each from its own fio stream (see [`crate::FioSeeds`]).
//!
//! The read/write choice of a mixed job is fio 3.33's (fitted with `--write_iolog` over
//! every `rwmixread` from 0 to 100): the job holds a current direction and a threshold. Before
//! an I/O, while the current direction's issued I/Os are below the threshold, it stays;
//! otherwise a percentage draw `v` in 1..=100 picks reads when `v ≤ rwmixread`, writes
//! otherwise, and when that changes the direction the threshold becomes the other
//! direction's issued I/Os times the new direction's share, divided by 100. So a mix holds a
//! direction for a run that grows with the job, as fio's does, rather than drawing every I/O.
//!
//! `percentage_random`: a percentage draw per I/O (the first I/O too) takes a random offset
//! when it is at most the direction's percentage, else continues from the previous I/O
//! (from the region start at first). Each direction draws from a stream of its own, the
//! three seeded alike (fio 3.33's reads and writes of `randrw` follow the same sequence of
//! draws, each at its own pace).

use crate::seeds::{FioSeeds, FioStream};
use crate::taus::FioRng;
use iomark_core::{Ddir, PerDir, RwMode};

/// Direction and random-or-not decisions for one job.
#[derive(Debug, Clone)]
pub(crate) struct Mix {
    mode: RwMode,
    /// The direction of every I/O, for modes with one (`trimwrite` modes: trims).
    fixed: Option<Ddir>,
    /// The shares of reads and writes, in percent.
    share: [u32; 2],
    percentage_random: [u32; 3],
    /// A random mode's `:N` (1 = every I/O random).
    every: u64,
    /// Follow-up I/Os left before the next new offset, counted over every direction (fio
    /// 3.33: in `randrw:3` the fourth I/O takes a new offset whatever the directions of
    /// the three before it); a new pass starts it over.
    left: u64,
    /// Per direction: every I/O takes a new random offset (a random mode without `:N`
    /// and with `percentage_random=100`), so that no count or draw is needed.
    always_new: [bool; 3],
    /// The mixed mode's current direction (read or write).
    current: Ddir,
    /// Reads and writes issued.
    issued: [u64; 2],
    /// The current direction holds while its issued I/Os are below this.
    hold: u64,
    /// The direction and threshold before the last change of direction, and the I/Os
    /// issued then: what [`Mix::not_issued`] goes back to.
    before_change: (Ddir, u64, u64),
    rw_rng: FioRng,
    seq_rngs: [FioRng; 3],
    rw_start: FioRng,
    seq_start: [FioRng; 3],
}

impl Mix {
    /// The decisions of a job in `mode` with the job's fio `seeds`; `modifier` is the `:N`
    /// value (used here only for random modes).
    pub(crate) fn new(
        mode: RwMode,
        rwmixread: u32,
        percentage_random: &PerDir<u32>,
        modifier: u64,
        seeds: &FioSeeds,
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
        let read = rwmixread.min(100);
        Mix {
            mode,
            fixed,
            share: [read, 100 - read],
            percentage_random: Ddir::DATA.map(|d| *percentage_random.get(d)),
            every,
            left: 0,
            always_new: Ddir::DATA
                .map(|d| mode.is_random() && every == 1 && *percentage_random.get(d) >= 100),
            current: Ddir::Read,
            issued: [0; 2],
            hold: 0,
            before_change: (Ddir::Read, 0, u64::MAX),
            rw_rng: seeds.rng(FioStream::RwMix),
            seq_rngs: [0, 1, 2].map(|_| seeds.rng(FioStream::SeqRand)),
            rw_start: seeds.rng(FioStream::RwMix),
            seq_start: [0, 1, 2].map(|_| seeds.rng(FioStream::SeqRand)),
        }
    }

    /// True when every I/O of direction `dir` takes a new random offset
    /// (`new_random_offset` then always answers true and changes nothing).
    pub(crate) fn always_new(&self, dir: Ddir) -> bool {
        self.always_new[dir.index()]
    }

    /// A new pass: with `reseed` (the files were closed and opened again, and the job
    /// gives no `randseed`) the streams restart (the direction, its threshold and the I/Os issued carry on: fio 3.33's
    /// `rw=rw` over 64 blocks with `loops=3` gives its second pass the first pass's draws,
    /// not its directions). The `:N` count carries on too: a pass that a follow-up ended
    /// at the region's tail leaves its other follow-ups to the next pass, from the start
    /// (fio 3.33: `randread:8 size=62k loops=2` reads 0, 4k, 8k before the second pass's
    /// first random offset).
    pub(crate) fn reset(&mut self, reseed: bool) {
        if reseed {
            self.rw_rng = self.rw_start.clone();
            self.seq_rngs = self.seq_start.clone();
        }
    }

    /// The direction of the next I/O. `trimwrite` modes answer `Trim`: the write of the
    /// pair is produced by the caller.
    #[inline]
    pub(crate) fn direction(&mut self) -> Ddir {
        match self.fixed {
            Some(dir) => dir,
            None => self.mixed_direction(),
        }
    }

    /// The mix's own choice for the next I/O of a mixed mode, whatever it is steered to,
    /// and whether the other direction has a share; `None` for other modes.
    pub(crate) fn choice(&mut self) -> Option<(Ddir, bool)> {
        if !matches!(self.mode, RwMode::ReadWrite | RwMode::RandReadWrite) {
            return None;
        }
        let dir = self.mixed_direction();
        Some((dir, self.share[1 - dir.index()] > 0))
    }

    /// The direction of a mixed mode (see the module note).
    #[inline]
    fn mixed_direction(&mut self) -> Ddir {
        let cur = self.current.index();
        if self.issued[cur] >= self.hold {
            let dir = if self.rw_rng.percent() <= self.share[0] { Ddir::Read } else { Ddir::Write };
            if dir != self.current {
                self.before_change = (self.current, self.hold, self.issued[0] + self.issued[1]);
                let d = dir.index();
                self.hold = self.issued[1 - d] * u64::from(self.share[d]) / 100;
                self.current = dir;
            }
        }
        self.current
    }

    /// The one direction of every I/O of a mode that is not a mix (whose direction is
    /// drawn or steered); `None` for a mix.
    pub(crate) fn fixed_direction(&self) -> Option<Ddir> {
        self.fixed.filter(|_| !matches!(self.mode, RwMode::ReadWrite | RwMode::RandReadWrite))
    }

    /// The I/O whose direction was chosen last was not issued (it found the pass over):
    /// a change of direction made for it is undone, the draw staying drawn. fio 3.33:
    /// `randrw bs=4k,16k size=250k random_distribution=pareto:0.3 loops=3` reads three
    /// blocks per pass, each pass ended by a write that does not fit. (A file whose pass
    /// ends while others go on hands the I/O, in its direction, to the next file.)
    pub(crate) fn not_issued(&mut self) {
        let (current, hold, issued) = self.before_change;
        if issued == self.issued[0] + self.issued[1] {
            (self.current, self.hold) = (current, hold);
            self.before_change.2 = u64::MAX;
        }
    }

    /// Counts an I/O of direction `dir` as issued.
    #[inline]
    pub(crate) fn issued(&mut self, dir: Ddir) {
        if let Some(n) = self.issued.get_mut(dir.index()) {
            *n += 1;
        }
    }

    /// Counts `n` I/Os of direction `dir` as issued.
    pub(crate) fn issued_n(&mut self, dir: Ddir, n: u64) {
        if let Some(count) = self.issued.get_mut(dir.index()) {
            *count += n;
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
    /// the first of every `:N` I/Os of any direction, and then only with
    /// `percentage_random` chance.
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
        if self.left > 0 {
            self.left -= 1;
            return false;
        }
        self.left = self.every - 1;
        match self.percentage_random[i] {
            p if p >= 100 => true,
            p => self.seq_rngs[i].percent() <= p,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeds(randseed: u64) -> FioSeeds {
        FioSeeds::repeatable(randseed, 1)
    }

    /// The first `n` directions of a mixed job, as letters.
    fn directions(read: u32, randseed: u64, n: usize) -> String {
        let mut m = Mix::new(RwMode::ReadWrite, read, &PerDir::all(100), 0, &seeds(randseed));
        (0..n)
            .map(|_| {
                let d = m.direction();
                m.issued(d);
                if d == Ddir::Read {
                    'r'
                } else {
                    'w'
                }
            })
            .collect()
    }

    #[test]
    fn a_change_of_direction_for_an_io_not_issued_is_undone() {
        let mut m = Mix::new(RwMode::ReadWrite, 50, &PerDir::all(100), 0, &seeds(0x89));
        let mut last = m.direction();
        while last == Ddir::Read {
            m.issued(last);
            last = m.direction();
        }
        // The write drawn was not issued: back to reads, with the threshold before.
        m.not_issued();
        assert_eq!((m.current, m.hold), (Ddir::Read, 0));
        // Once an I/O is issued after a change, the change stays.
        let mut m = Mix::new(RwMode::ReadWrite, 50, &PerDir::all(100), 0, &seeds(0x89));
        while m.direction() == Ddir::Read {
            m.issued(Ddir::Read);
        }
        m.issued(Ddir::Write);
        m.not_issued();
        assert_eq!(m.current, Ddir::Write);
    }

    #[test]
    fn mixes_choose_fio_3_33_directions() {
        // fio 3.33, `--rw=rw --randseed=1` with `rwmixread` 50 and 90.
        assert_eq!(
            directions(50, 1, 60),
            "wwwrwwrwwwwrrwwrwrwrrrrrwwwrwwwwrrrrrwrrwrrwwrwrrrrrwwwrrwww"
        );
        assert_eq!(
            directions(90, 1, 60),
            "rwrrrrrrrrrrrwrrrrrrrrrwrrrrrrrrrrrrrrrwrrrrrwrrrrrrrrrrrrrr"
        );
    }

    #[test]
    fn mix_proportions_over_a_million_ios() {
        for read in [0u32, 10, 50, 75, 100] {
            let d = directions(read, 0x89, 1_000_000);
            let pct = d.bytes().filter(|&c| c == b'r').count() as f64 / 10_000.0;
            assert!((pct - f64::from(read)).abs() < 0.5, "{read}: {pct}");
        }
    }

    #[test]
    fn modifier_gives_a_new_offset_every_n() {
        let mut m = Mix::new(RwMode::RandRead, 50, &PerDir::all(100), 4, &seeds(1));
        let picks: Vec<bool> = (0..8).map(|_| m.new_random_offset(Ddir::Read)).collect();
        assert_eq!(picks, [true, false, false, false, true, false, false, false]);
        let mut s = Mix::new(RwMode::Read, 50, &PerDir::all(100), 4096, &seeds(1));
        assert!(!s.new_random_offset(Ddir::Read));
    }

    #[test]
    fn always_new_answers_what_the_count_would() {
        for (mode, modifier, percent) in
            [(RwMode::RandRead, 0, 100), (RwMode::RandReadWrite, 1, 100), (RwMode::Read, 0, 100)]
        {
            let fast = Mix::new(mode, 50, &PerDir::all(percent), modifier, &seeds(7));
            let mut general = fast.clone();
            general.always_new = [false; 3];
            let mut fast = fast;
            for i in 0..3000 {
                let dir = Ddir::DATA[i % 3];
                assert_eq!(fast.new_random_offset(dir), general.new_random_offset(dir));
                if i % 1000 == 999 {
                    fast.reset(true);
                    general.reset(true);
                }
            }
            assert_eq!(fast.seq_rngs, general.seq_rngs, "{mode:?}: no draw");
        }
    }

    #[test]
    fn steering_fixes_a_mixed_direction_only() {
        let mut m = Mix::new(RwMode::RandReadWrite, 100, &PerDir::all(100), 0, &seeds(3));
        m.steer(Some(Ddir::Write));
        assert!((0..100).all(|_| m.direction() == Ddir::Write));
        m.steer(None);
        assert_eq!(m.direction(), Ddir::Read);
        let mut r = Mix::new(RwMode::Read, 100, &PerDir::all(100), 0, &seeds(3));
        r.steer(Some(Ddir::Write));
        assert_eq!(r.direction(), Ddir::Read);
    }

    #[test]
    fn percentage_random_share() {
        let mut m = Mix::new(RwMode::RandWrite, 50, &PerDir::all(30), 0, &seeds(5));
        let n = 100_000;
        let random = (0..n).filter(|_| m.new_random_offset(Ddir::Write)).count();
        assert!((29_000..31_000).contains(&random), "{random}");
    }
}
