//! [`RandomMap`]: one bit per block of a region, so that a random pass touches every block
//! once, with a summary level that keeps a nearly full map quick to search.

/// One bit per block of a region: set once the block has been done in this pass.
///
/// A second level keeps one bit per word of the first, set when that word is full, so that
/// finding a free block in a nearly full map skips 64 words at a time instead of one.
///
/// The bits past the last block (of the last word, and of the last summary word) are set
/// from the start and never cleared: they are never free, so a search that runs off the
/// end of the region stops at them without comparing with `blocks`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RandomMap {
    words: Vec<u64>,
    /// Bit `w` set when `words[w]` is all ones.
    full: Vec<u64>,
    blocks: u64,
    used: u64,
}

/// The `n` low bits set (`n` ≤ 64).
#[inline]
fn low_bits(n: u64) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// Sets the bits of `bits` past the first `used` (none if `used` is a multiple of 64).
fn set_padding(bits: &mut [u64], used: u64) {
    if let Some(last) = bits.last_mut() {
        if used % 64 != 0 {
            *last |= !low_bits(used % 64);
        }
    }
}

impl RandomMap {
    /// A clear map of `blocks` blocks (allocated here, once).
    pub(crate) fn new(blocks: u64) -> RandomMap {
        let words = blocks.div_ceil(64);
        let mut map = RandomMap {
            words: vec![0; words as usize],
            full: vec![0; words.div_ceil(64) as usize],
            blocks,
            used: 0,
        };
        map.reset();
        map
    }

    /// As [`RandomMap::new`], or `None` when the memory cannot be had (fio's
    /// `softrandommap` then runs without the map).
    pub(crate) fn try_new(blocks: u64) -> Option<RandomMap> {
        let alloc = |len: u64| -> Option<Vec<u64>> {
            let len = usize::try_from(len).ok()?;
            let mut v = Vec::new();
            v.try_reserve_exact(len).ok()?;
            v.resize(len, 0);
            Some(v)
        };
        let words = blocks.div_ceil(64);
        let mut map =
            RandomMap { words: alloc(words)?, full: alloc(words.div_ceil(64))?, blocks, used: 0 };
        map.reset();
        Some(map)
    }

    /// How many blocks the map covers.
    #[inline]
    pub(crate) fn blocks(&self) -> u64 {
        self.blocks
    }

    /// Clears every block (a new pass).
    pub(crate) fn reset(&mut self) {
        self.words.fill(0);
        self.full.fill(0);
        set_padding(&mut self.words, self.blocks);
        set_padding(&mut self.full, self.words.len() as u64);
        self.used = 0;
    }

    /// Clears the map and makes it cover its first `blocks` blocks (no more than it was
    /// made with): the words past them count as done. A strided zone's map, at each visit.
    pub(crate) fn reset_to(&mut self, blocks: u64) {
        let in_use = blocks.div_ceil(64) as usize;
        debug_assert!(in_use <= self.words.len());
        self.blocks = blocks;
        self.words.fill(0);
        self.words[in_use..].fill(u64::MAX);
        set_padding(&mut self.words[..in_use], blocks);
        self.full.fill(0);
        for w in in_use..self.words.len() {
            self.full[w / 64] |= 1 << (w % 64);
        }
        set_padding(&mut self.full, self.words.len() as u64);
        self.used = 0;
    }

    /// True when every block is done.
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        self.used >= self.blocks
    }

    /// The first free block at or after `from`, wrapping to the start; `None` when full.
    #[inline]
    pub(crate) fn next_free(&self, from: u64) -> Option<u64> {
        if self.is_full() {
            return None;
        }
        let from = if from < self.blocks { from } else { from % self.blocks };
        // Nothing free from `from` to the end means the free blocks are all before it.
        self.free_from(from).or_else(|| self.free_from(0))
    }

    /// The first free block at or after `b` (`b < blocks`), not wrapping.
    #[inline]
    fn free_from(&self, b: u64) -> Option<u64> {
        let w = (b / 64) as usize;
        let word = self.words[w] | ((1 << (b % 64)) - 1);
        if word != u64::MAX {
            return Some(w as u64 * 64 + u64::from((!word).trailing_zeros()));
        }
        self.free_after_word(w)
    }

    /// The first free block in a word after word `w`: a search of the summary.
    fn free_after_word(&self, w: usize) -> Option<u64> {
        let w = self.word_not_full(w + 1)?;
        Some(w as u64 * 64 + u64::from((!self.words[w]).trailing_zeros()))
    }

    /// The first word at or after word `from` that is not full.
    fn word_not_full(&self, from: usize) -> Option<usize> {
        let mut s = from / 64;
        let mut summary = *self.full.get(s)? | low_bits(from as u64 % 64);
        while summary == u64::MAX {
            s += 1;
            summary = *self.full.get(s)?;
        }
        Some(s * 64 + (!summary).trailing_zeros() as usize)
    }

    /// How many free blocks follow from `b` (itself included), at most `max`.
    pub(crate) fn free_run(&self, b: u64, max: u64) -> u64 {
        let mut n = 0;
        while n < max {
            let at = b + n;
            let Some(&word) = self.words.get((at / 64) as usize) else { break };
            let shift = at % 64;
            // The free blocks from `at` to the first done one (padding counts as done), or
            // to the end of the word.
            let run = u64::from((word >> shift).trailing_zeros()).min(64 - shift);
            n += run;
            if shift + run < 64 {
                break;
            }
        }
        n.min(max)
    }

    /// `next_free(from)`, marked done with `mark_one`: the block taken, or `None` when the
    /// map is full. The commonest case (a free block in `from`'s own word) is inlined; the
    /// rest goes the long way.
    ///
    /// The inlined case needs no test of `from` against the map's end nor of a full map:
    /// a free bit at or after `from` in its word is a block of the map (the bits past the
    /// last block are set), and a full map has none; a `from` past the words, or a word
    /// with no free bit from `from` on, goes the long way, which wraps.
    #[inline(always)]
    pub(crate) fn take_one(&mut self, from: u64) -> Option<u64> {
        self.take_in_word(from).or_else(|| self.take_one_long(from))
    }

    /// [`RandomMap::take_one`]'s inlined case: a free block at or after `from` in its own
    /// word, taken; `None` sends the caller the long way ([`RandomMap::take_one_long`]).
    #[inline(always)]
    pub(crate) fn take_in_word(&mut self, from: u64) -> Option<u64> {
        let w = (from / 64) as usize;
        if let Some(word) = self.words.get_mut(w) {
            let rest = *word | ((1 << (from % 64)) - 1);
            if rest != u64::MAX {
                let bit = (!rest).trailing_zeros();
                *word |= 1 << bit;
                if *word == u64::MAX {
                    self.word_full(w);
                }
                self.used += 1;
                return Some((from & !63) | u64::from(bit));
            }
        }
        None
    }

    /// `take_one` the long way.
    #[inline(never)]
    pub(crate) fn take_one_long(&mut self, from: u64) -> Option<u64> {
        let b = self.next_free(from)?;
        self.mark_one(b);
        Some(b)
    }

    /// Word `w` has become full: the summary says so.
    #[cold]
    #[inline(never)]
    fn word_full(&mut self, w: usize) {
        self.full[w / 64] |= 1 << (w % 64);
    }

    /// Marks block `b` as done (it must be free): `mark(b, 1)`.
    #[inline]
    pub(crate) fn mark_one(&mut self, b: u64) {
        let w = (b / 64) as usize;
        self.words[w] |= 1 << (b % 64);
        if self.words[w] == u64::MAX {
            self.full[w / 64] |= 1 << (w % 64);
        }
        self.used += 1;
    }

    /// Marks `n` blocks from `b` as done (they must be free).
    pub(crate) fn mark(&mut self, b: u64, n: u64) {
        let end = (b + n).min(self.blocks);
        let mut at = b;
        while at < end {
            let w = (at / 64) as usize;
            let shift = at % 64;
            let count = (end - at).min(64 - shift);
            self.words[w] |= low_bits(count) << shift;
            if self.words[w] == u64::MAX {
                self.full[w / 64] |= 1 << (w % 64);
            }
            at += count;
        }
        self.used += end.saturating_sub(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::taus::FioRng;

    #[test]
    fn map_finds_free_blocks_and_wraps() {
        let mut m = RandomMap::new(130);
        m.mark(0, 129);
        assert_eq!(m.next_free(5), Some(129));
        assert_eq!(m.free_run(129, 4), 1);
        m.mark(129, 1);
        assert!(m.is_full());
        assert_eq!(m.next_free(0), None);
        m.reset();
        assert_eq!(m.next_free(77), Some(77));
        m.mark(100, 30);
        assert_eq!(m.next_free(100), Some(0));
    }

    #[test]
    fn map_reset_to_covers_only_the_first_blocks() {
        let mut m = RandomMap::new(64 * 70);
        for blocks in [70, 64, 1, 0, 64 * 70] {
            m.reset_to(blocks);
            let mut seen = 0;
            while let Some(b) = m.next_free(blocks / 2) {
                assert!(b < blocks, "{b} of {blocks}");
                m.mark_one(b);
                seen += 1;
            }
            assert_eq!(seen, blocks);
            assert!(m.is_full());
        }
    }

    #[test]
    fn map_summary_finds_the_same_block_as_a_plain_search() {
        // Larger than one summary word (64 × 64 blocks), with a ragged last word.
        let blocks = 3 * 64 * 64 + 37;
        let mut m = RandomMap::new(blocks);
        let mut marked = vec![false; blocks as usize];
        let mut rng = FioRng::new(11, false);
        for round in 0..2000 {
            let b = rng.below(blocks);
            let n = 1 + rng.below(200).min(blocks - b - 1);
            let run = m.free_run(b, n);
            let plain_run = (b..b + n).take_while(|&i| !marked[i as usize]).count() as u64;
            assert_eq!(run, plain_run, "round {round}: run at {b}");
            if run == 1 && round % 2 == 0 {
                m.mark_one(b);
            } else {
                m.mark(b, run);
            }
            for i in b..b + run {
                marked[i as usize] = true;
            }
            let from = rng.below(blocks);
            let plain = (from..blocks).chain(0..from).find(|&i| !marked[i as usize]);
            assert_eq!(m.next_free(from), plain, "round {round}, from {from}");
        }
        let left: u64 = marked.iter().filter(|&&d| !d).count() as u64;
        m.mark(0, 0);
        assert_eq!(m.is_full(), left == 0);
    }

    #[test]
    fn take_one_takes_what_next_free_and_mark_one_take() {
        for blocks in [1, 63, 64, 65, 64 * 64 + 1, 3 * 64 * 64 + 37] {
            let (mut a, mut b) = (RandomMap::new(blocks), RandomMap::new(blocks));
            let mut rng = FioRng::new(blocks, false);
            // Past the end too: the long way wraps it.
            for _ in 0..=blocks {
                let from = rng.below(blocks + blocks / 3 + 1);
                let want = b.next_free(from);
                if let Some(block) = want {
                    b.mark_one(block);
                }
                assert_eq!(a.take_one(from), want, "{blocks} blocks, from {from}");
                assert_eq!(a, b);
            }
            assert!(a.is_full());
        }
    }
}
