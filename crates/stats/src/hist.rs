//! [`LatHistogram`]: the latency histogram behind every percentile and every json+ bin.
//!
//! The I/O path records one value per completed I/O, so recording is a few shifts, one
//! test and one addition. The buckets live in chunks of 128 that are allocated when a
//! value first lands in them, so a histogram costs memory only for the ranges its
//! latencies fall in. Reduction (percentiles, bins) and merging happen after the run and
//! may take their time.
//!
//! The histogram keeps bucket counts only. The exact smallest and largest values, which
//! the end buckets report, are kept beside it by its owner (a
//! [`LatRecorder`](crate::recorder::LatRecorder)'s [`SumMoments`](crate::sums::SumMoments)
//! already tracks them for the min/max lines) and passed in when reading, so the I/O path
//! does not track them twice.

use std::ops::RangeInclusive;

/// Sub-buckets per power of two, as a power of two: 2^9 = 512.
const SUB_BITS: u32 = 9;
/// Values below this (1024 ns) have a bucket each and are recorded exactly.
const EXACT_LIMIT: u64 = 2 << SUB_BITS;
/// Values up to `2^RANGE_BITS - 1` are inside the range.
const RANGE_BITS: u32 = 42;
/// Buckets inside the range: 1024 exact ones, then 512 per power of two from 2^10 to 2^41.
const IN_RANGE: usize =
    EXACT_LIMIT as usize + ((RANGE_BITS - SUB_BITS - 1) as usize) * (1 << SUB_BITS);
/// The index of the overflow bucket.
const OVERFLOW: usize = IN_RANGE;
/// Buckets per chunk, as a power of two: 2^7 = 128 (1 KiB of counts).
const CHUNK_BITS: u32 = 7;
/// Buckets per chunk.
const CHUNK: usize = 1 << CHUNK_BITS;
/// Chunks that cover every bucket, the overflow bucket included (the last one is partly
/// past the end: its buckets beyond [`OVERFLOW`] are never recorded into).
const CHUNKS: usize = (IN_RANGE + 1).div_ceil(CHUNK);
/// One chunk of bucket counts.
type Chunk = Box<[u64; CHUNK]>;

/// A log-linear histogram of latencies in nanoseconds, HdrHistogram-like.
///
/// # Layout
///
/// - Values `0..1024` ns have one bucket each: exact.
/// - From 1024 ns on, each power of two `[2^e, 2^(e+1))` (e = 10..=41) is split into 512
///   equal sub-buckets of width `2^(e-9)`.
/// - Values of `2^42` ns (about 73.3 minutes, more than the required hour) and above go to
///   one overflow bucket. They are counted in [`count`](Self::count), never lost, and
///   [`overflow_count`](Self::overflow_count) says how many there are. Their representative
///   value is the largest value recorded, so a percentile that falls there reports the true
///   maximum; any other overflowed value has no error bound.
///
/// [`count`](Self::count) adds the buckets up: it is for reading after the run.
///
/// That is [`BUCKETS`](Self::BUCKETS) = 1024 + 32 × 512 + 1 = 17 409 buckets of `u64`,
/// 139 272 bytes if every one were kept. They are kept in 137 chunks of 128 buckets
/// (1 KiB each) that are allocated when a value first lands in them, behind a table of
/// 137 pointers (1 096 bytes) allocated with the first value: an empty histogram holds no
/// heap memory, and one whose latencies span a few ranges a few KiB
/// ([`heap_bytes`](Self::heap_bytes)). Recording a value into a chunk that exists is one
/// test more than into one flat array; the first value of a chunk allocates it (at most
/// 137 times in a histogram's life, all at the start of a steady workload). fio keeps 1 856
/// buckets for each of 3 latency kinds × 3 directions plus one for syncs, 148 480 bytes per
/// job whether they are used or not; iomark makes only the histograms a job needs (by
/// default one clat histogram per direction the job performs), and only the chunks its
/// latencies use. The chunks change the memory only: every bucket, and so the error bound,
/// the bins and merging, are those of the flat layout.
///
/// # Error bound
///
/// Every value this histogram reports (a percentile or a bin value) lies in the same bucket
/// as the value it stands for: the bucket's midpoint `low + width/2`, except that a
/// percentile falling in the bucket of the smallest (largest) recorded value reports that
/// exact value (given as `recorded` to [`percentiles`](Self::percentiles)), so the 0th and
/// 100th percentiles are exact. Below 1024 ns buckets have width 1 and the error is 0. In
/// `[2^e, 2^(e+1))` a bucket is `[low, low + 2^(e-9))` with `low >= 2^e`, so for a true
/// value `v` in it
///
/// ```text
/// |reported - v| <= width / 2 = 2^(e-10)    and    v >= 2^e
/// |reported - v| / v <= 2^(e-10) / 2^e = 1/1024 ≈ 0.098 %
/// ```
///
/// which is below the 0.1 % iomark promises (fio: 1/128 ≈ 0.78 %, with 64 sub-buckets and
/// its own midpoints). The test `percentiles_are_within_the_bound` checks it against exact
/// sorted values.
///
/// # Bins, and why they merge exactly
///
/// A bin's value ([`bins`](Self::bins), json+ `bins`) is a function of its bucket alone:
/// the midpoint, or [`OVERFLOW_VALUE`](Self::OVERFLOW_VALUE) for the overflow bucket. It
/// never depends on what else was recorded, so any two histograms name a bucket alike, and
/// the bins of a sum of histograms (a group, a priority class's share of a direction, the
/// `mixed` direction) are the bins of the parts added key by key. fio 3.33's bin values
/// are its buckets' own values too.
///
/// # Percentiles
///
/// [`percentile`](Self::percentile) uses fio's rank rule: the value reported for `p` is the
/// one at which the cumulative count first reaches `p/100 · N`, that is the value of rank
/// `ceil(p/100 · N)` (at least 1) in sorted order. fio 3.33 compares `sum >= p/100·N`
/// bucket by bucket; runs with N = 100 confirmed it (a strict `>` disagreed with 5 of 19
/// percentiles). iomark computes the rank so that a percentage written in decimal, such as
/// 99.99, is not pushed to the next rank by binary rounding.
#[derive(Debug, Clone, Default)]
pub struct LatHistogram {
    /// [`CHUNKS`] entries once a value was recorded (none before); a chunk is `None`
    /// until a value lands in it.
    chunks: Box<[Option<Chunk>]>,
}

impl PartialEq for LatHistogram {
    /// Two histograms are equal when every bucket holds the same count, whichever chunks
    /// each has allocated.
    fn eq(&self, other: &Self) -> bool {
        (0..CHUNKS).all(|c| self.chunk(c) == other.chunk(c))
    }
}

impl Eq for LatHistogram {}

/// The counts of a chunk that was never allocated.
static EMPTY_CHUNK: [u64; CHUNK] = [0; CHUNK];

impl LatHistogram {
    /// The number of buckets, the overflow bucket included.
    pub const BUCKETS: usize = IN_RANGE + 1;
    /// The largest value inside the range (2^42 − 1 ns, about 73.3 minutes).
    pub const MAX_TRACKABLE: u64 = (1 << RANGE_BITS) - 1;
    /// Heap bytes of one chunk of 128 buckets, allocated when a value first lands in it.
    pub const CHUNK_BYTES: usize = CHUNK * std::mem::size_of::<u64>();
    /// Heap bytes of the table of chunks, allocated with the first value.
    pub const TABLE_BYTES: usize = CHUNKS * std::mem::size_of::<Option<Chunk>>();
    /// Heap bytes of a histogram with a value in every bucket (all its chunks allocated).
    pub const FULL_HEAP_BYTES: usize = Self::TABLE_BYTES + CHUNKS * Self::CHUNK_BYTES;
    /// The value of the overflow bucket's bin: 2^42 ns, the smallest value it holds
    /// (values past [`MAX_TRACKABLE`](Self::MAX_TRACKABLE) have no error bound).
    pub const OVERFLOW_VALUE: u64 = Self::MAX_TRACKABLE + 1;

    /// An empty histogram. It holds no heap memory until a value is recorded.
    pub fn new() -> Self {
        LatHistogram { chunks: Box::default() }
    }

    /// Records one value, in nanoseconds. Allocates only for the first value of a chunk.
    #[inline]
    pub fn record(&mut self, ns: u64) {
        self.record_n(ns, 1);
    }

    /// Records `count` occurrences of one value. A count of 0 changes nothing (but may
    /// allocate the value's chunk).
    #[inline]
    pub fn record_n(&mut self, ns: u64, count: u64) {
        let idx = index_of(ns);
        match self.chunks.get_mut(idx >> CHUNK_BITS) {
            Some(Some(chunk)) => chunk[idx & (CHUNK - 1)] += count,
            _ => self.record_in_new_chunk(idx, count),
        }
    }

    /// Records `count` into bucket `idx`, whose chunk (or the table) is not allocated yet.
    #[cold]
    #[inline(never)]
    fn record_in_new_chunk(&mut self, idx: usize, count: u64) {
        self.chunk_mut(idx >> CHUNK_BITS)[idx & (CHUNK - 1)] += count;
    }

    /// Chunk `c` for writing, allocated (and the table) if it was not.
    fn chunk_mut(&mut self, c: usize) -> &mut [u64; CHUNK] {
        if self.chunks.is_empty() {
            self.chunks = (0..CHUNKS).map(|_| None).collect();
        }
        self.chunks[c].get_or_insert_with(|| Box::new([0; CHUNK]))
    }

    /// Chunk `c`'s counts, zeros if it is not allocated.
    fn chunk(&self, c: usize) -> &[u64; CHUNK] {
        match self.chunks.get(c) {
            Some(Some(chunk)) => chunk,
            _ => &EMPTY_CHUNK,
        }
    }

    /// The allocated chunks, with their index.
    fn allocated(&self) -> impl Iterator<Item = (usize, &[u64; CHUNK])> {
        self.chunks.iter().enumerate().filter_map(|(c, chunk)| Some((c, &**chunk.as_ref()?)))
    }

    /// The buckets of the allocated chunks, in increasing index, as `(index, count)`:
    /// every bucket that is not in the list holds 0.
    fn buckets(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.allocated().flat_map(|(c, chunk)| {
            chunk.iter().enumerate().map(move |(i, &n)| ((c << CHUNK_BITS) + i, n))
        })
    }

    /// Adds every count of `other` into this histogram. The result is exactly what
    /// recording both histograms' values into one would have given. Allocates the chunks
    /// `other` has and this one lacks.
    pub fn merge(&mut self, other: &LatHistogram) {
        for (c, theirs) in other.allocated() {
            if theirs.iter().all(|&n| n == 0) {
                continue;
            }
            for (mine, n) in self.chunk_mut(c).iter_mut().zip(theirs.iter()) {
                *mine += *n;
            }
        }
    }

    /// Makes this histogram `whole` less every histogram of `parts`, bucket by bucket:
    /// what is left of `whole` once the parts are taken out, so that the parts and this
    /// histogram add up to `whole` exactly. Each part must be a share of `whole` (its
    /// values recorded there too); a bucket a part would take below zero is left at zero
    /// and [`Err`] says the parts were no shares.
    pub fn set_remainder<'a>(
        &mut self,
        whole: &LatHistogram,
        parts: impl IntoIterator<Item = &'a LatHistogram>,
    ) -> Result<(), NotAShare> {
        self.clone_from(whole);
        let mut fits = true;
        for part in parts {
            for (c, taken) in part.allocated() {
                if taken.iter().all(|&n| n == 0) {
                    continue;
                }
                for (left, taken) in self.chunk_mut(c).iter_mut().zip(taken.iter()) {
                    fits &= *taken <= *left;
                    *left = left.saturating_sub(*taken);
                }
            }
        }
        if fits {
            Ok(())
        } else {
            Err(NotAShare)
        }
    }

    /// Values recorded, overflowed ones included (a sum over the buckets).
    pub fn count(&self) -> u64 {
        self.allocated().map(|(_, chunk)| chunk.iter().sum::<u64>()).sum()
    }

    /// Values recorded above [`MAX_TRACKABLE`](Self::MAX_TRACKABLE).
    pub fn overflow_count(&self) -> u64 {
        self.chunk(OVERFLOW >> CHUNK_BITS)[OVERFLOW & (CHUNK - 1)]
    }

    /// Heap bytes this histogram holds: the table and the chunks allocated so far.
    pub fn heap_bytes(&self) -> usize {
        if self.chunks.is_empty() {
            return 0;
        }
        Self::TABLE_BYTES + self.allocated().count() * Self::CHUNK_BYTES
    }

    /// The value at percentile `p` (0–100) by fio's rank rule (see the type's doc), within
    /// 0.1 % of the exact value; `recorded` is the smallest and largest value recorded. 0
    /// for an empty histogram, as fio prints. `p` is clamped to `[0, 100]` (NaN counts as
    /// 0); `p = 0` gives the smallest value, `p = 100` the largest, both exact.
    pub fn percentile(&self, p: f64, recorded: RangeInclusive<u64>) -> u64 {
        self.percentiles(&[p], recorded)[0]
    }

    /// The values at several percentiles, in the order given, in one pass per call;
    /// `recorded` is the smallest and largest value recorded.
    pub fn percentiles(&self, ps: &[f64], recorded: RangeInclusive<u64>) -> Vec<u64> {
        let mut order: Vec<usize> = (0..ps.len()).collect();
        order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]));
        let mut out = vec![0; ps.len()];
        let total = self.count();
        if total == 0 {
            return out;
        }
        let mut cumulative = 0u64;
        // Buckets left out hold 0, so they never bring the count up to a rank.
        let mut buckets = self.buckets();
        let mut current: Option<usize> = None;
        for i in order {
            let rank = rank_for(ps[i], total);
            while cumulative < rank {
                match buckets.next() {
                    Some((idx, c)) => {
                        cumulative += c;
                        current = Some(idx);
                    }
                    None => break,
                }
            }
            out[i] = current.map_or(*recorded.end(), |idx| representative(idx, &recorded));
        }
        out
    }

    /// The non-empty buckets as `(bin value, count)`, in increasing value (json+
    /// `bins`). A bin's value is its bucket's alone (see "Bins" in the type's doc) and
    /// obeys the same 0.1 % bound as percentiles, the overflow bucket's excepted.
    pub fn bins(&self) -> Bins<'_> {
        Bins { hist: self, next: 0 }
    }

    /// The index of the bucket that holds `ns`: two values with the same index are
    /// indistinguishable to the histogram (a bin's value from [`bins`](Self::bins) falls in
    /// the bucket it stands for, so this maps a json+ bin back to its bucket).
    pub fn bucket_of(ns: u64) -> usize {
        index_of(ns)
    }

    /// Forgets every value; keeps the allocation.
    pub fn clear(&mut self) {
        for chunk in self.chunks.iter_mut().flatten() {
            chunk.fill(0);
        }
    }
}

/// On the wire (the MPI gather) a histogram is its non-empty buckets as `(index, count)`
/// pairs, most of its 17 409 buckets being empty.
impl serde::Serialize for LatHistogram {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let used: Vec<(u32, u64)> =
            self.buckets().filter(|&(_, c)| c > 0).map(|(i, c)| (i as u32, c)).collect();
        used.serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for LatHistogram {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let used = Vec::<(u32, u64)>::deserialize(d)?;
        let mut hist = LatHistogram::new();
        for (i, c) in used {
            let i = i as usize;
            if i >= LatHistogram::BUCKETS {
                return Err(serde::de::Error::custom(format!("histogram bucket {i} out of range")));
            }
            hist.chunk_mut(i >> CHUNK_BITS)[i & (CHUNK - 1)] = c;
        }
        Ok(hist)
    }
}

/// A part given to [`LatHistogram::set_remainder`] held more in some bucket than the whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a histogram taken out of another held values the other did not")]
pub struct NotAShare;

/// The value a percentile reports for bucket `idx`: the exact maximum in the bucket
/// holding the largest value (and the overflow bucket), the exact minimum in the bucket
/// holding the smallest, the bin value elsewhere. All three lie in the bucket, so the
/// bound holds.
fn representative(idx: usize, recorded: &RangeInclusive<u64>) -> u64 {
    if idx == index_of(*recorded.end()) {
        return *recorded.end();
    }
    if idx == index_of(*recorded.start()) {
        return *recorded.start();
    }
    bin_value(idx)
}

/// The value of bucket `idx`'s bin: its midpoint (the value itself below 1024 ns), or
/// [`LatHistogram::OVERFLOW_VALUE`]. A function of the bucket alone.
fn bin_value(idx: usize) -> u64 {
    if idx == OVERFLOW {
        return LatHistogram::OVERFLOW_VALUE;
    }
    let (low, width) = bucket_bounds(idx);
    low + width / 2
}

/// Iterator over a histogram's non-empty buckets; see [`LatHistogram::bins`].
#[derive(Debug, Clone)]
pub struct Bins<'a> {
    hist: &'a LatHistogram,
    next: usize,
}

impl Iterator for Bins<'_> {
    type Item = (u64, u64);

    fn next(&mut self) -> Option<(u64, u64)> {
        while self.next < LatHistogram::BUCKETS {
            let idx = self.next;
            let Some(Some(chunk)) = self.hist.chunks.get(idx >> CHUNK_BITS) else {
                // A chunk never allocated holds nothing: on to the next one.
                self.next = ((idx >> CHUNK_BITS) + 1) << CHUNK_BITS;
                continue;
            };
            self.next += 1;
            let c = chunk[idx & (CHUNK - 1)];
            if c > 0 {
                return Some((bin_value(idx), c));
            }
        }
        None
    }
}

/// The bucket of a value. Below 1024 the value itself; above, with `e` the position of the
/// highest set bit and `shift = e - 9`, the top ten bits `v >> shift` lie in `512..1024`,
/// so `(shift << 9) + (v >> shift)` numbers the buckets of every power of two in turn.
#[inline]
fn index_of(ns: u64) -> usize {
    if ns < EXACT_LIMIT {
        return ns as usize;
    }
    if ns > LatHistogram::MAX_TRACKABLE {
        return OVERFLOW;
    }
    let e = 63 - ns.leading_zeros();
    let shift = e - SUB_BITS;
    ((shift as usize) << SUB_BITS) + (ns >> shift) as usize
}

/// `(lowest value, width)` of an in-range bucket; the inverse of [`index_of`].
fn bucket_bounds(idx: usize) -> (u64, u64) {
    if idx < EXACT_LIMIT as usize {
        return (idx as u64, 1);
    }
    let shift = (idx >> SUB_BITS) as u32 - 1;
    let top = (idx - ((shift as usize) << SUB_BITS)) as u64;
    (top << shift, 1 << shift)
}

/// fio's rank for percentile `p` of `n` values: `ceil(p/100 · n)`, clamped to `1..=n`.
/// A product within 1e-9 (relative) of a whole number is taken as that number, so that
/// decimal percentages such as 99.99 are not pushed up a rank by binary rounding.
pub(crate) fn rank_for(p: f64, n: u64) -> u64 {
    let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 100.0) };
    let x = p * n as f64 / 100.0;
    let nearest = x.round();
    let rank = if (x - nearest).abs() <= 1e-9 * x.max(1.0) { nearest } else { x.ceil() };
    (rank as u64).clamp(1, n)
}

#[cfg(test)]
mod tests;
