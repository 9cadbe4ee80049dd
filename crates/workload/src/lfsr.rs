//! `random_generator=lfsr`: random offsets that visit every block exactly once per pass
//! without a random map.
//!
//! A maximal-length linear feedback shift register of `w` bits steps through all `2^w - 1`
//! non-zero states before it repeats. iomark takes the smallest `w` with `2^w - 1` ≥ the
//! number of blocks, reads each state `s` as block `s - 1`, and skips the states past the
//! last block (fewer than half of them). So every block comes exactly once per period, in
//! an order that looks random, with no memory but the register: that is the point of fio's
//! `lfsr`. The register starts at a state drawn from the job's seed (fio 3.33 starts at the
//! same state whatever `randseed` is; iomark's order follows the seed, like its other
//! random choices) and restarts there at every pass.
//!
//! The register is a Galois one shifting right: when the bit shifted out is 1, the tap
//! mask is XORed in. The taps of each width are those of a primitive polynomial (the
//! classic table of maximal-length taps, as in Xilinx application note XAPP052); the tests
//! check that each polynomial is primitive, by enumeration up to 20 bits and by the order
//! of `x` modulo the polynomial up to 64.

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
    &[32, 22, 2, 1],
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

/// Visits `0..n` once per period in a scrambled order.
#[derive(Debug, Clone)]
pub(crate) struct Lfsr {
    n: u64,
    mask: u64,
    start: u64,
    state: u64,
    /// Values still to come in this period.
    left: u64,
}

impl Lfsr {
    /// A register over `0..n` (`n` ≥ 1) whose period starts at a state drawn from `seed`.
    pub(crate) fn new(n: u64, seed: u64) -> Lfsr {
        let n = n.max(1);
        // The smallest width whose 2^w - 1 non-zero states cover n values.
        let width = (64 - n.leading_zeros()).max(1);
        let states = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
        let start = 1 + seed % states;
        Lfsr { n, mask: tap_mask(width), start, state: start, left: n }
    }

    /// Back to the start of the period (a new pass).
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
            self.state ^= self.mask;
        }
    }

    /// The next value in `0..n`, or `None` once all `n` came in this period.
    #[inline]
    pub(crate) fn next_value(&mut self) -> Option<u64> {
        if self.left == 0 {
            return None;
        }
        loop {
            let value = self.state - 1;
            self.step();
            if value < self.n {
                self.left -= 1;
                return Some(value);
            }
        }
    }
}

#[cfg(test)]
mod tests;
