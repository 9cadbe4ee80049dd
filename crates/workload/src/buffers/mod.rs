//! Write buffer contents: what each write puts on the storage, as fio 3.33 does it.
//!
//! What a buffer holds, by the first rule that applies (each checked by writing files with
//! fio 3.33 and hashing, dumping or compressing them):
//!
//! 1. `buffer_compress_percentage` or `dedupe_percentage` given (even as 0): generated
//!    data. Each chunk of `buffer_compress_chunk` bytes (0 or more than the block: the
//!    whole block) starts with ⌊chunk × (100 − p) / 100⌋ random bytes and ends with the
//!    fixed part: zeros, or the pattern from its first byte (`p=40`, chunk 512: 307 random
//!    bytes, 205 fixed). `p=100` is the fixed part alone over the whole block (the pattern
//!    runs on across chunks); no percentage is all random. `zero_buffers` and a pattern
//!    alone do not apply here (fio 3.33 writes random data for `dedupe_percentage=50
//!    buffer_pattern=1`).
//! 2. `buffer_pattern`: the pattern, from its first byte at the start of every write
//!    (see [`Pattern`]); `zero_buffers` loses to it.
//! 3. `zero_buffers`: zeros.
//! 4. Otherwise random data.
//!
//! When the contents are made: with `refill_buffers` (resolved, see
//! [`BufferOptions::refill_buffers`]) before every write; otherwise once, when the I/O
//! unit pool is made and again whenever a unit that served a read is to serve a write (the
//! read left the file's data in it). Buffers filled once are the same for every unit: they
//! come from a fixed per-job seed, so the same job writes the same bytes on every engine.
//!
//! Deduplication: each generated write is either *unique* (new random data, from a new
//! seed) or, with probability `dedupe_percentage`, a *duplicate*: in mode `repeat` the
//! last unique write again (fio 3.33: every duplicate is the unique block just before it),
//! in mode `working_set` one of the first N unique writes drawn uniformly, N being
//! `dedupe_working_set_percentage` of the job's size in blocks (fio 3.33: 5% of 256 blocks
//! gives duplicates of the first 12). With `dedupe_global` the working set's seeds are the
//! same in every job that sets it, so jobs share it (fio 3.33: two such jobs of 256 blocks
//! share their 12 working-set blocks). Only a seed is kept per buffer, never its data.
//!
//! Scrambling (fio's `scramble_buffers`, on when buffers are filled once, unless turned
//! off or overruled, see [`BufferOptions::scramble_buffers`]) stamps the first 16 bytes of
//! every 512-byte sector with the sector's file offset and a per-write random value:
//! cheap (1/32 of the buffer), and enough that no two written sectors are equal, which
//! defeats naive deduplication as fio's scramble intends. fio scrambles other bytes; only
//! the effect (every block unique) is the same.
//!
//! Nothing here allocates, opens or reads anything; the buffers belong to the caller.

mod pattern;

pub use pattern::{Pattern, PatternError, MAX_PATTERN};

use crate::rng::{Rng, Stream};

/// Buffer content options for writes, as the runner resolved them from the job (see
/// the module note for what each combination writes, as measured on fio 3.33).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferOptions {
    /// `zero_buffers`: buffers hold zeros.
    pub zero_buffers: bool,
    /// `refill_buffers`, resolved: new contents for every write. fio turns it on by itself
    /// for `buffer_compress_percentage` between 1 and 99 and for any `dedupe_percentage`,
    /// unless the job sets `refill_buffers` itself; the runner applies that.
    pub refill_buffers: bool,
    /// `scramble_buffers`, resolved: lightly modify each write's buffer so that no two
    /// written blocks are identical. fio's default is on, but off with `zero_buffers` or
    /// `buffer_pattern` unless the job sets it; the runner applies that. Never with
    /// `refill_buffers`, `buffer_compress_percentage` or `dedupe_percentage`.
    pub scramble_buffers: bool,
    /// `buffer_pattern`: the pattern that fills buffers (and the fixed part of
    /// compressible buffers, instead of zeros).
    pub pattern: Option<Pattern>,
    /// `buffer_compress_percentage` when the job gives it (0..=100); given at all, it
    /// switches to the compressible-data generator.
    pub compress_percentage: Option<u32>,
    /// `buffer_compress_chunk` in bytes (default 512); 0 means the whole block.
    pub compress_chunk: u64,
    /// `dedupe_percentage` and its companions, when the job gives it.
    pub dedupe: Option<Dedupe>,
}

impl Default for BufferOptions {
    fn default() -> Self {
        BufferOptions {
            zero_buffers: false,
            refill_buffers: false,
            scramble_buffers: true,
            pattern: None,
            compress_percentage: None,
            compress_chunk: 512,
            dedupe: None,
        }
    }
}

/// The sector size at which scrambling stamps a buffer.
pub const SCRAMBLE_SECTOR: usize = 512;

/// How duplicate buffers are chosen (fio's `dedupe_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DedupeMode {
    /// `repeat` (default): a duplicate repeats the last unique write.
    Repeat,
    /// `working_set`: a duplicate is one of the first `n` unique writes, drawn uniformly.
    WorkingSet {
        /// How many unique writes form the working set (at least 1).
        buffers: u64,
    },
}

/// fio's deduplication options (`dedupe_percentage` and its companions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dedupe {
    /// `dedupe_percentage`: the share of writes, in percent, that repeat earlier data.
    pub percentage: u32,
    /// `dedupe_mode`.
    pub mode: DedupeMode,
    /// `dedupe_global`: jobs that set it share their working set.
    pub global: bool,
}

impl Dedupe {
    /// The size of the working set in buffers: `percent` of `size` bytes in blocks of
    /// `block` bytes, rounded down, at least 1 (fio 3.33: 5% of 1024 blocks is 51).
    pub fn working_set_buffers(percent: u32, size: u64, block: u64) -> u64 {
        let blocks = u128::from(size / block.max(1));
        (blocks * u128::from(percent.min(100)) / 100).max(1) as u64
    }
}

/// What the buffers hold: the first rule of the module note that applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Content {
    /// Generated data (compressible and/or deduplicated).
    Generated,
    /// The pattern (in the options).
    Pattern,
    /// Zeros.
    Zeros,
    /// Random data.
    Random,
}

/// A fixed salt: the seed of the data that buffers filled once hold.
const BASE_SALT: u64 = 0x6261_7365_2d62_7566;
/// A fixed salt: the seeds of the dedupe working set.
const WORKING_SET_SALT: u64 = 0x776f_726b_2d73_6574;
/// The working set base of jobs with `dedupe_global`: one value for all of them.
const GLOBAL_WORKING_SET: u64 = 0x676c_6f62_616c_2d77;

/// Fills and prepares write buffers for one job.
#[derive(Debug, Clone)]
pub struct BufferFiller {
    opts: BufferOptions,
    content: Content,
    /// Per-write draws: refills, scramble stamps, dedupe decisions and new seeds.
    rng: Rng,
    /// The seed of the contents of buffers filled once.
    base_seed: u64,
    /// The seed of the last unique generated write (dedupe mode `repeat`).
    last_unique: u64,
    /// How many unique generated writes there were.
    uniques: u64,
    /// Where the working set's seeds come from.
    working_set_base: u64,
}

impl BufferFiller {
    /// A filler with the job's buffer options, drawing from the job's buffer stream.
    pub fn new(opts: BufferOptions, seed: u64) -> BufferFiller {
        let content = if opts.compress_percentage.is_some() || opts.dedupe.is_some() {
            Content::Generated
        } else if opts.pattern.is_some() {
            Content::Pattern
        } else if opts.zero_buffers {
            Content::Zeros
        } else {
            Content::Random
        };
        let mut rng = Rng::for_stream(seed, Stream::Buffers);
        let base_seed = rng.next_u64() ^ BASE_SALT;
        let global = opts.dedupe.is_some_and(|d| d.global);
        let working_set_base = if global { GLOBAL_WORKING_SET } else { seed ^ WORKING_SET_SALT };
        BufferFiller { opts, content, rng, base_seed, last_unique: 0, uniques: 0, working_set_base }
    }

    /// Whether every write gets new contents (then [`BufferFiller::initial_fill`] has
    /// nothing to do).
    pub fn refills(&self) -> bool {
        self.opts.refill_buffers
    }

    /// Fills a buffer that is to hold write data: when the I/O unit pool is made, and
    /// again when a buffer that last served a read is to serve a write (the read left the
    /// file's data in it). Draws nothing from the job's random stream: every call gives
    /// the same bytes. Does nothing when every write refills its buffer anyway.
    pub fn initial_fill(&mut self, buf: &mut [u8]) {
        if self.opts.refill_buffers {
            return;
        }
        match self.content {
            Content::Generated => self.generate(buf, self.base_seed),
            Content::Pattern => self.fill_fixed(buf),
            Content::Zeros => buf.fill(0),
            Content::Random => Rng::from_seed(self.base_seed).fill_bytes(buf),
        }
    }

    /// Prepares `buf`, exactly the bytes a write at file offset `offset` will carry:
    /// new contents with `refill_buffers`, else a scramble with `scramble_buffers` (see the
    /// module note), else nothing. Allocates nothing.
    pub fn prepare_write(&mut self, buf: &mut [u8], offset: u64) {
        if self.opts.refill_buffers {
            match self.content {
                Content::Generated => {
                    let seed = self.next_seed();
                    self.generate(buf, seed);
                }
                Content::Pattern => self.fill_fixed(buf),
                Content::Zeros => buf.fill(0),
                Content::Random => self.rng.fill_bytes(buf),
            }
        } else if self.opts.scramble_buffers && self.content != Content::Generated {
            let stamp = self.rng.next_u64().to_le_bytes();
            for (i, sector) in buf.chunks_mut(SCRAMBLE_SECTOR).enumerate() {
                let at = offset.wrapping_add((i * SCRAMBLE_SECTOR) as u64).to_le_bytes();
                stamp_sector(sector, &at, &stamp);
            }
        }
    }

    /// The seed of the next generated write: a new one (unique), or an earlier one
    /// (duplicate) as `dedupe_percentage` and `dedupe_mode` say.
    fn next_seed(&mut self) -> u64 {
        let Some(dedupe) = self.opts.dedupe else {
            return self.rng.next_u64();
        };
        let duplicate = self.uniques > 0 && self.rng.percent(dedupe.percentage);
        match dedupe.mode {
            DedupeMode::Repeat if duplicate => self.last_unique,
            DedupeMode::Repeat => {
                self.uniques += 1;
                self.last_unique = self.rng.next_u64();
                self.last_unique
            }
            DedupeMode::WorkingSet { buffers } if duplicate => {
                let index = self.rng.below(self.uniques.min(buffers));
                self.working_set_seed(index)
            }
            DedupeMode::WorkingSet { buffers } => {
                let index = self.uniques;
                self.uniques += 1;
                if index < buffers {
                    self.working_set_seed(index)
                } else {
                    self.rng.next_u64()
                }
            }
        }
    }

    /// The seed of working-set buffer `index`: a function of the base and the index, so
    /// that the set is never stored (and is shared by jobs with the same base).
    fn working_set_seed(&self, index: u64) -> u64 {
        let mut z = self.working_set_base ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Fills `buf` with generated data from `seed` (rule 1 of the module note).
    fn generate(&self, buf: &mut [u8], seed: u64) {
        let mut rng = Rng::from_seed(seed);
        let Some(percent) = self.opts.compress_percentage.map(|p| p.min(100)) else {
            rng.fill_bytes(buf);
            return;
        };
        if percent == 100 {
            self.fill_fixed(buf);
            return;
        }
        let chunk = match self.opts.compress_chunk as usize {
            0 => buf.len(),
            n => n.min(buf.len()),
        };
        for piece in buf.chunks_mut(chunk.max(1)) {
            let random = piece.len() * (100 - percent as usize) / 100;
            let (head, tail) = piece.split_at_mut(random);
            rng.fill_bytes(head);
            self.fill_fixed(tail);
        }
    }

    /// The fixed part of generated data: the pattern from its first byte, or zeros.
    fn fill_fixed(&self, buf: &mut [u8]) {
        match &self.opts.pattern {
            Some(p) => p.fill(buf),
            None => buf.fill(0),
        }
    }
}

/// Writes the sector's offset, then the write's stamp, over the first 16 bytes of
/// `sector` (as much as fits of a last sector shorter than that).
#[inline]
fn stamp_sector(sector: &mut [u8], at: &[u8; 8], stamp: &[u8; 8]) {
    if let Some((head, _)) = sector.split_first_chunk_mut::<16>() {
        // Every whole sector: two fixed-size copies, plain stores (no memcpy call).
        head[..8].copy_from_slice(at);
        head[8..].copy_from_slice(stamp);
        return;
    }
    let len = sector.len();
    let n = len.min(8);
    sector[..n].copy_from_slice(&at[..n]);
    if len > 8 {
        sector[8..].copy_from_slice(&stamp[..len - 8]);
    }
}

#[cfg(test)]
mod tests;
