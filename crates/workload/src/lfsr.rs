//! `random_generator=lfsr`: random offsets that visit every block exactly once per pass
//! without a random map, in fio 3.33's order.
//!
//! fio's register, as its offsets show it (fitted with `--write_iolog` over files of 1 to
//! 2^63 blocks; each bit of its output obeys the recurrence of the width's polynomial with
//! one more, constant, term):
//!
//! - Its width `w` is the smallest with `2^w - 1` ≥ the number of blocks `n`, at least 3.
//! - One step: the low bit `o` leaves, the state shifts right and `o` enters at the top;
//!   when `o` is 0, the bits just below each tap (other than the width itself) flip. That is
//!   a Galois register in XNOR form: all ones is its one fixed point, and it goes through
//!   the other `2^w - 1` states, 0 included, before it repeats. A state is block `state`;
//!   states past the last block are stepped over.
//! - It starts at `seed & (2^w - 1)` (the seed of the job's offsets, see
//!   [`crate::FioSeeds`]: `randseed` changes nothing, the job's number does). fio 3.33 fails
//!   the job ("failed initializing LFSR") when that is all ones; iomark refuses it. The first
//!   pass starts one step further than the others: each block comes once per pass, and a
//!   second pass of a file whose blocks fill the period starts with the block the first one
//!   ended with.
//!
//! The taps of each width are the classic table of maximal-length taps (Xilinx application
//! note XAPP052), but for 32 bits, where fio's are 32, 31, 29, 1; the tests check that every
//! set is primitive, by enumeration up to 20 bits and by the order of `x` up to 64.

/// The taps of a maximal-length register of each width 2..=64, 1-based bit numbers (the
/// width itself always among them).
const TAPS: [&[u32]; 63] = [
    &[2, 1],
    &[3, 2],
    &[4, 3],
    &[5, 3],
    &[6, 5],
    &[7, 6],
    &[8, 6, 5, 4],
    &[9, 5],
    &[10, 7],
    &[11, 9],
    &[12, 6, 4, 1],
    &[13, 4, 3, 1],
    &[14, 5, 3, 1],
    &[15, 14],
    &[16, 15, 13, 4],
    &[17, 14],
    &[18, 11],
    &[19, 6, 2, 1],
    &[20, 17],
    &[21, 19],
    &[22, 21],
    &[23, 18],
    &[24, 23, 22, 17],
    &[25, 22],
    &[26, 6, 2, 1],
    &[27, 5, 2, 1],
    &[28, 25],
    &[29, 27],
    &[30, 6, 4, 1],
    &[31, 28],
    &[32, 31, 29, 1],
    &[33, 20],
    &[34, 27, 2, 1],
    &[35, 33],
    &[36, 25],
    &[37, 5, 4, 3, 2, 1],
    &[38, 6, 5, 1],
    &[39, 35],
    &[40, 38, 21, 19],
    &[41, 38],
    &[42, 41, 20, 19],
    &[43, 42, 38, 37],
    &[44, 43, 18, 17],
    &[45, 44, 42, 41],
    &[46, 45, 26, 25],
    &[47, 42],
    &[48, 47, 21, 20],
    &[49, 40],
    &[50, 49, 24, 23],
    &[51, 50, 36, 35],
    &[52, 49],
    &[53, 52, 38, 37],
    &[54, 53, 18, 17],
    &[55, 31],
    &[56, 55, 35, 34],
    &[57, 50],
    &[58, 39],
    &[59, 58, 38, 37],
    &[60, 59],
    &[61, 60, 46, 45],
    &[62, 61, 6, 5],
    &[63, 62],
    &[64, 63, 61, 60],
];

/// The XOR mask of a register of `width` bits (1..=64).
fn tap_mask(width: u32) -> u64 {
    if width == 1 {
        return 1;
    }
    TAPS[width as usize - 2].iter().fold(0, |m, &t| m | 1 << (t - 1))
}

/// Visits `0..n` once per pass, in fio's order.
#[derive(Debug, Clone)]
pub(crate) struct Lfsr {
    n: u64,
    /// The top bit, where the leaving bit enters.
    top: u64,
    /// The bits that flip when the leaving bit is 0.
    flips: u64,
    /// The state a pass after the first starts from.
    start: u64,
    state: u64,
    /// Values still to come in this pass.
    left: u64,
}

impl Lfsr {
    /// A register over `0..n` (`n` ≥ 1) seeded with `seed`, at the start of the first pass;
    /// `None` when the seed puts it at its fixed point (fio fails such a job).
    pub(crate) fn new(n: u64, seed: u64) -> Option<Lfsr> {
        let n = n.max(1);
        let mut width = 3;
        while width < 64 && (1u64 << width) - 1 < n {
            width += 1;
        }
        let all = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
        let top = 1u64 << (width - 1);
        let start = seed & all;
        if start == all {
            return None;
        }
        let mut l = Lfsr { n, top, flips: tap_mask(width) & !top, start, state: start, left: n };
        l.step();
        Some(l)
    }

    /// Back to the start (a new pass).
    pub(crate) fn reset(&mut self) {
        self.state = self.start;
        self.left = self.n;
    }

    /// One step of the register.
    #[inline]
    fn step(&mut self) {
        let out = self.state & 1;
        self.state >>= 1;
        if out != 0 {
            self.state |= self.top;
        } else {
            self.state ^= self.flips;
        }
    }

    /// The next value in `0..n`, or `None` once all `n` came in this pass.
    #[inline]
    pub(crate) fn next_value(&mut self) -> Option<u64> {
        if self.left == 0 {
            return None;
        }
        loop {
            self.step();
            if self.state < self.n {
                self.left -= 1;
                return Some(self.state);
            }
        }
    }
}

#[cfg(test)]
mod tests;
