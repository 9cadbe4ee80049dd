//! fio's latency histogram layout, the one its histogram logs (`write_hist_log`) use, and
//! the folding of iomark's finer [`LatHistogram`] into it.
//!
//! fio 3.33 keeps latencies in nanoseconds in 1856 bins: 29 groups of 64. Values below 128
//! ns have a bin each. From 128 on, each power of two `[2^m, 2^(m+1))` is split into 64
//! equal bins of width `2^(m-6)`; the last power of two that fits is `[2^33, 2^34)`, and
//! every larger value (17.2 s and more) is counted in the last bin, 1855.
//!
//! iomark's histogram splits each power of two into 512 bins of width `2^(m-9)` aligned on
//! the same boundaries, so every one of its buckets lies inside exactly one of fio's bins
//! and folding is exact: the fio log carries the counts fio would have recorded.
//!
//! `log_hist_coarseness=c` adds up `2^c` neighbouring bins, which gives `ceil(1856 / 2^c)`
//! bins (fio 3.33 gives 15 at `c=7`, the last one holding the 64 remaining bins; its help
//! text still says 1216 bins, a figure from older releases).

use crate::hist::LatHistogram;

/// fio's bins per histogram (`FIO_IO_U_PLAT_NR`).
pub const FIO_HIST_BINS: usize = 1856;

/// Bits of sub-bin resolution per power of two (64 bins).
const PLAT_BITS: u32 = 6;

/// fio's bin for a latency of `ns` nanoseconds.
pub fn fio_bin(ns: u64) -> usize {
    if ns < (2 << PLAT_BITS) {
        return ns as usize;
    }
    let msb = 63 - ns.leading_zeros();
    let shift = msb - PLAT_BITS;
    let base = ((shift + 1) as usize) << PLAT_BITS;
    let offset = ((ns >> shift) as usize) & ((1 << PLAT_BITS) - 1);
    (base + offset).min(FIO_HIST_BINS - 1)
}

/// The smallest latency that falls in fio's bin `bin` (its lower edge).
pub fn fio_bin_low(bin: usize) -> u64 {
    if bin < (2 << PLAT_BITS) {
        return bin as u64;
    }
    let shift = (bin >> PLAT_BITS) as u32 - 1;
    let offset = (bin & ((1 << PLAT_BITS) - 1)) as u64;
    ((1 << PLAT_BITS) + offset) << shift
}

/// Adds the counts of `hist` into `out` (fio's 1856 bins). Every iomark bucket lies inside
/// one fio bin, so its bin value names that bin. Reads every bucket: call it off the I/O
/// path or once per histogram window.
pub fn fold(hist: &LatHistogram, out: &mut [u64; FIO_HIST_BINS]) {
    for (value, count) in hist.bins() {
        out[fio_bin(value)] += count;
    }
}

/// The number of bins at coarseness `c` (`ceil(1856 / 2^c)`, at least 1).
pub fn coarse_bins(c: u32) -> usize {
    let width = 1usize << c.min(16);
    FIO_HIST_BINS.div_ceil(width)
}

/// Adds `bins` up by groups of `2^c` into `out` (whose length is [`coarse_bins`]`(c)`).
pub fn coarsen(bins: &[u64; FIO_HIST_BINS], c: u32, out: &mut [u64]) {
    let width = 1usize << c.min(16);
    for (slot, group) in out.iter_mut().zip(bins.chunks(width)) {
        *slot = group.iter().sum();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_follow_fios_layout() {
        assert_eq!((fio_bin(0), fio_bin(127), fio_bin(128), fio_bin(129)), (0, 127, 128, 128));
        assert_eq!((fio_bin(130), fio_bin(255), fio_bin(256)), (129, 191, 192));
        assert_eq!(fio_bin((1 << 34) - 1), FIO_HIST_BINS - 1);
        assert_eq!(fio_bin(1 << 34), FIO_HIST_BINS - 1);
        assert_eq!(fio_bin(u64::MAX), FIO_HIST_BINS - 1);
        // Each bin starts where the previous one ends.
        for bin in 1..FIO_HIST_BINS {
            let low = fio_bin_low(bin);
            assert_eq!(fio_bin(low), bin, "bin {bin} low {low}");
            assert_eq!(fio_bin(low - 1), bin - 1, "bin {bin} low {low}");
        }
    }

    #[test]
    fn folding_is_exact() {
        let mut h = LatHistogram::new();
        let mut expected = [0u64; FIO_HIST_BINS];
        let mut v = 1u64;
        while v < (1 << 45) {
            for x in [v, v + 1, v + v / 3, 2 * v - 1] {
                h.record(x);
                expected[fio_bin(x)] += 1;
            }
            v = v * 3 / 2 + 1;
        }
        let mut got = [0u64; FIO_HIST_BINS];
        fold(&h, &mut got);
        assert_eq!(got, expected);
    }

    #[test]
    fn coarseness_adds_neighbours() {
        assert_eq!([0, 1, 6, 7, 20].map(coarse_bins), [1856, 928, 29, 15, 1]);
        let mut bins = [0u64; FIO_HIST_BINS];
        bins[0] = 1;
        bins[63] = 2;
        bins[64] = 3;
        bins[1855] = 4;
        let mut out = vec![0; coarse_bins(6)];
        coarsen(&bins, 6, &mut out);
        assert_eq!((out[0], out[1], out[28]), (3, 3, 4));
        let mut out = vec![0; coarse_bins(7)];
        coarsen(&bins, 7, &mut out);
        assert_eq!((out[0], out[14], out.iter().sum::<u64>()), (6, 4, 10));
    }
}
