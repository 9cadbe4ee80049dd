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
//! Random data is fio 3.33's, byte for byte (checked by writing files with both): each
//! buffer's data comes from one seed (see [`fio_fill`]), the wrapping product of the next
//! two draws of fio's buffer stream (see [`crate::FioSeeds`]); compressible data takes one
//! seed per chunk for its random part, the chunk being `buffer_compress_chunk` but no
//! larger than the smallest write (with `dedupe_percentage` above 0 only, and with
//! `buffer_compress_percentage` between 1 and 99).
//!
//! When the contents are made: when the I/O unit pool is made, unit by unit (each unit
//! takes its seeds, as fio's do); then, with `refill_buffers` (resolved, see
//! [`BufferOptions::refill_buffers`]), before every write. A unit that served a read holds
//! the file's data and writes it as it is, as fio 3.33 does (`rw=rw` writes back what it
//! read), but for a `buffer_pattern`, which is laid down again.
//!
//! Deduplication (`dedupe_percentage` above 0) is fio 3.33's: each generated fill is
//! unique or a duplicate by a draw of its own stream, and a duplicate repeats the last
//! unique fill (`dedupe_mode=repeat`) or one of the working set, the first
//! `dedupe_working_set_percentage` of the job's blocks of buffers (`working_set`; fio
//! 3.33: 5% of 1024 blocks is 51); see the `dedupe` module. Nothing but random states is
//! kept per buffer, never its data.
//!
//! Scrambling (fio's `scramble_buffers`, on when buffers are filled once, unless turned
//! off or overruled, see [`BufferOptions::scramble_buffers`]) stamps the first 16 bytes of
//! every 512-byte sector with the sector's file offset and a per-write random value:
//! cheap (1/32 of the buffer), and enough that no two written sectors are equal, which
//! defeats naive deduplication as fio's scramble intends. fio scrambles other bytes, with
//! values taken from the clock (two fio runs write different bytes there); only the effect
//! (every block unique) is the same.
//!
//! Nothing here allocates (but the working set's states, at the first fill), opens or
//! reads anything; the buffers belong to the caller.

mod dedupe;
mod pattern;

use dedupe::FioDedupe;

pub use pattern::{Pattern, PatternError, MAX_PATTERN};

use crate::rng::{Rng, Stream};
use crate::seeds::{FioSeeds, FioStream};
use crate::taus::FioRng;

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
    /// `working_set`: a duplicate is one of the first `buffers` buffers of the job, drawn
    /// uniformly.
    WorkingSet {
        /// How many buffers form the working set (at least 1).
        buffers: u64,
        /// Their length: the job's smallest write.
        block: u64,
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

/// Fills and prepares write buffers for one job.
#[derive(Debug, Clone)]
pub struct BufferFiller {
    opts: BufferOptions,
    content: Content,
    /// Per-write draws of iomark's own: scramble stamps.
    rng: Rng,
    /// fio's buffer stream: the seeds of random data (see [`fio_fill`]).
    fio: FioRng,
    /// fio's deduplication, with `dedupe_percentage` above 0.
    dedupe: Option<Box<FioDedupe>>,
}

impl BufferFiller {
    /// A filler with the job's buffer options, drawing from the job's buffer streams:
    /// fio's (`seeds`) for random data, iomark's own (`seed`) for the rest.
    pub fn new(opts: BufferOptions, seed: u64, seeds: &FioSeeds) -> BufferFiller {
        let content = if opts.compress_percentage.is_some() || opts.dedupe.is_some() {
            Content::Generated
        } else if opts.pattern.is_some() {
            Content::Pattern
        } else if opts.zero_buffers {
            Content::Zeros
        } else {
            Content::Random
        };
        let rng = Rng::for_stream(seed, Stream::Buffers);
        let fio = seeds.rng(FioStream::Buffers);
        let chunk = |len: u64| match opts.compress_chunk {
            0 => len,
            n => n.min(len),
        };
        let draws = |len: u64| 2 * len.div_ceil(chunk(len).max(1));
        let dedupe = opts
            .dedupe
            .filter(|d| d.percentage > 0)
            .map(|d| Box::new(FioDedupe::new(&d, seeds, &fio, draws)));
        BufferFiller { opts, content, rng, fio, dedupe }
    }

    /// Whether every write gets new contents.
    pub fn refills(&self) -> bool {
        self.opts.refill_buffers
    }

    /// Fills a buffer of the I/O unit pool when the pool is made, unit by unit, as fio
    /// 3.33 fills its units (random data takes the next seeds of fio's buffer stream, with
    /// `refill_buffers` too: the first write's data is the seed after the units').
    pub fn initial_fill(&mut self, buf: &mut [u8]) {
        match self.content {
            Content::Generated => self.generate_next(buf),
            Content::Pattern => self.fill_fixed(buf),
            Content::Zeros => buf.fill(0),
            Content::Random => fio_fill(buf, next_seed(&mut self.fio)),
        }
    }

    /// A buffer that served a read is to serve a write: it holds the file's data. fio
    /// 3.33 writes that data as it is (random, zero and compressible buffers are not filled
    /// again), but for a `buffer_pattern`, which it lays down again.
    pub fn after_read(&mut self, buf: &mut [u8]) {
        if self.content == Content::Pattern && !self.opts.refill_buffers {
            self.fill_fixed(buf);
        }
    }

    /// Prepares `buf`, exactly the bytes a write at file offset `offset` will carry:
    /// new contents with `refill_buffers`, else a scramble with `scramble_buffers` (see the
    /// module note), else nothing. Allocates nothing.
    pub fn prepare_write(&mut self, buf: &mut [u8], offset: u64) {
        if self.opts.refill_buffers {
            match self.content {
                Content::Generated => self.generate_next(buf),
                Content::Pattern => self.fill_fixed(buf),
                Content::Zeros => buf.fill(0),
                Content::Random => fio_fill(buf, next_seed(&mut self.fio)),
            }
        } else if self.opts.scramble_buffers && self.content != Content::Generated {
            let stamp = self.rng.next_u64().to_le_bytes();
            for (i, sector) in buf.chunks_mut(SCRAMBLE_SECTOR).enumerate() {
                let at = offset.wrapping_add((i * SCRAMBLE_SECTOR) as u64).to_le_bytes();
                stamp_sector(sector, &at, &stamp);
            }
        }
    }

    /// Fills `buf` with the next generated data (rule 1 of the module note), fio 3.33's:
    /// with deduplication, from the state its decision gives, chunk by chunk; without, each
    /// chunk's random part from the next seed of fio's buffer stream (one seed for the
    /// whole buffer when nothing is compressible).
    fn generate_next(&mut self, buf: &mut [u8]) {
        let percent = self.opts.compress_percentage.map_or(0, |p| p.min(100));
        if let Some(dedupe) = &mut self.dedupe {
            // fio 3.33 writes random chunks for `buffer_compress_percentage=100` here.
            let percent = if percent == 100 { 0 } else { percent };
            match dedupe.source(&mut self.fio) {
                Some(mut copy) => self.generate_chunks(buf, percent, &mut copy),
                None => {
                    let mut fio = self.fio.clone();
                    self.generate_chunks(buf, percent, &mut fio);
                    self.fio = fio;
                }
            }
            return;
        }
        if percent == 0 {
            // Nothing to compress: random data from one seed, as without the option.
            fio_fill(buf, next_seed(&mut self.fio));
            return;
        }
        let mut fio = self.fio.clone();
        self.generate_chunks(buf, percent, &mut fio);
        self.fio = fio;
    }

    /// Fills `buf` chunk by chunk: a random part of `100 - percent` percent from the next
    /// seed of `state`, then the fixed part; all fixed at 100%.
    fn generate_chunks(&self, buf: &mut [u8], percent: u32, state: &mut FioRng) {
        if percent == 100 {
            self.fill_fixed(buf);
            return;
        }
        for piece in buf.chunks_mut(self.chunk(buf.len())) {
            let random = piece.len() * (100 - percent as usize) / 100;
            let (head, tail) = piece.split_at_mut(random);
            fio_fill(head, next_seed(state));
            self.fill_fixed(tail);
        }
    }

    /// The length of a compressible chunk of a buffer of `len` bytes.
    fn chunk(&self, len: usize) -> usize {
        match self.opts.compress_chunk as usize {
            0 => len,
            n => n.min(len),
        }
        .max(1)
    }

    /// The fixed part of generated data: the pattern from its first byte, or zeros.
    fn fill_fixed(&self, buf: &mut [u8]) {
        match &self.opts.pattern {
            Some(p) => p.fill(buf),
            None => buf.fill(0),
        }
    }
}

/// The seed of the next random data: the wrapping product of the next two draws of fio's
/// buffer stream (fitted to the bytes fio 3.33 writes with `refill_buffers`).
#[inline]
fn next_seed(fio: &mut FioRng) -> u64 {
    let a = fio.next_raw();
    a.wrapping_mul(fio.next_raw())
}

/// The multiplier between the 32-byte groups of fio's random data.
const FILL_STEP: u64 = 0x61c8_8646_80b5_83eb;

/// Fills `buf` with fio 3.33's random data from `seed`, as its files show it: 32-byte
/// groups of four little-endian 64-bit words `b`, `2b`, `3b`, `5b`, where `b` starts at the
/// seed and is multiplied by 0x61c8864680b583eb (wrapping) from one group to the next;
/// then, in a tail shorter than a group, words `b` one by one with the same step between
/// them, and the bytes left the first bytes of the next `b`.
pub fn fio_fill(buf: &mut [u8], seed: u64) {
    let mut b = seed;
    let mut groups = buf.chunks_exact_mut(32);
    for group in &mut groups {
        for (word, m) in group.chunks_exact_mut(8).zip([1u64, 2, 3, 5]) {
            word.copy_from_slice(&b.wrapping_mul(m).to_le_bytes());
        }
        b = b.wrapping_mul(FILL_STEP);
    }
    let mut words = groups.into_remainder().chunks_mut(8);
    for word in &mut words {
        word.copy_from_slice(&b.to_le_bytes()[..word.len()]);
        b = b.wrapping_mul(FILL_STEP);
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
