//! Write buffer contents: zeros, random data filled once and lightly scrambled per write
//! (fio's default), or fresh random data for every write.
//!
//! Scrambling stamps the first 16 bytes of every 512-byte sector with the sector's file
//! offset and a per-write random value: cheap (1/32 of the buffer), and enough that no two
//! written sectors are equal, which defeats naive deduplication as fio's scramble intends.
//! Nothing here allocates; the buffers belong to the caller.

use crate::config::BufferOptions;
use crate::rng::{Rng, Stream};

/// The sector size at which scrambling stamps a buffer.
pub const SCRAMBLE_SECTOR: usize = 512;

/// Fills and prepares write buffers for one job.
#[derive(Debug, Clone)]
pub struct BufferFiller {
    opts: BufferOptions,
    rng: Rng,
}

impl BufferFiller {
    /// A filler with the job's buffer options, drawing from the job's buffer stream.
    pub fn new(opts: BufferOptions, seed: u64) -> BufferFiller {
        BufferFiller { opts, rng: Rng::for_stream(seed, Stream::Buffers) }
    }

    /// Fills a buffer when the I/O unit pool is created: zeros with `zero_buffers`,
    /// random bytes otherwise. Call it again when a buffer that last served a read is about
    /// to serve a write (the read left the file's data in it).
    pub fn initial_fill(&mut self, buf: &mut [u8]) {
        if self.opts.zero_buffers {
            buf.fill(0);
        } else {
            self.rng.fill_bytes(buf);
        }
    }

    /// Prepares `buf` for a write at file offset `offset`: nothing with `zero_buffers`,
    /// fresh random data with `refill_buffers`, a scramble with `scramble_buffers`
    /// (see the module note), else nothing.
    pub fn prepare_write(&mut self, buf: &mut [u8], offset: u64) {
        if self.opts.zero_buffers {
            return;
        }
        if self.opts.refill_buffers {
            self.rng.fill_bytes(buf);
            return;
        }
        if self.opts.scramble_buffers {
            let stamp = self.rng.next_u64().to_le_bytes();
            for (i, sector) in buf.chunks_mut(SCRAMBLE_SECTOR).enumerate() {
                let at = offset.wrapping_add((i * SCRAMBLE_SECTOR) as u64).to_le_bytes();
                stamp_sector(sector, &at, &stamp);
            }
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
mod tests {
    use super::*;

    fn opts(zero: bool, refill: bool, scramble: bool) -> BufferOptions {
        BufferOptions { zero_buffers: zero, refill_buffers: refill, scramble_buffers: scramble }
    }

    #[test]
    fn zero_buffers_stay_zero() {
        let mut f = BufferFiller::new(opts(true, false, true), 1);
        let mut buf = [0xffu8; 4096];
        f.initial_fill(&mut buf);
        f.prepare_write(&mut buf, 8192);
        assert!(buf.iter().all(|&b| b == 0));
    }

    #[test]
    fn scramble_makes_every_write_and_sector_differ() {
        let mut f = BufferFiller::new(BufferOptions::default(), 1);
        let mut buf = [0u8; 4096];
        f.initial_fill(&mut buf);
        let base = buf;
        f.prepare_write(&mut buf, 0);
        let first = buf;
        f.prepare_write(&mut buf, 0);
        assert_ne!(first, buf, "same offset, two writes");
        assert_eq!(first[16..512], base[16..512], "only the stamp changes");
        let sectors: Vec<&[u8]> = first.chunks(512).collect();
        for (i, a) in sectors.iter().enumerate() {
            for b in &sectors[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn stamps_are_the_offset_then_the_stamp_cut_to_the_sector() {
        for len in [0, 1, 7, 8, 9, 15, 16, 17, 511, 512, 513, 520, 527, 528, 4096] {
            let mut f = BufferFiller::new(BufferOptions::default(), 3);
            let mut stamp_rng = f.rng.clone();
            let mut buf = vec![0xaa; len];
            f.prepare_write(&mut buf, 0x0102_0304_0506_0708);
            // The rule written out byte by byte.
            let stamp = stamp_rng.next_u64().to_le_bytes();
            let mut want = vec![0xaa; len];
            for (i, sector) in want.chunks_mut(SCRAMBLE_SECTOR).enumerate() {
                let at = (0x0102_0304_0506_0708 + (i * SCRAMBLE_SECTOR) as u64).to_le_bytes();
                for (j, byte) in sector.iter_mut().take(16).enumerate() {
                    *byte = if j < 8 { at[j] } else { stamp[j - 8] };
                }
            }
            assert_eq!(buf, want, "{len} bytes");
        }
    }

    #[test]
    fn refill_replaces_the_whole_buffer() {
        let mut f = BufferFiller::new(opts(false, true, true), 1);
        let mut buf = [0u8; 1024];
        f.initial_fill(&mut buf);
        let before = buf;
        f.prepare_write(&mut buf, 0);
        let same = before.iter().zip(buf.iter()).filter(|(a, b)| a == b).count();
        assert!(same < 32, "{same} bytes unchanged");
    }

    #[test]
    fn same_seed_same_contents() {
        let mut a = BufferFiller::new(BufferOptions::default(), 7);
        let mut b = BufferFiller::new(BufferOptions::default(), 7);
        let (mut x, mut y) = ([0u8; 600], [0u8; 600]);
        a.initial_fill(&mut x);
        b.initial_fill(&mut y);
        a.prepare_write(&mut x, 4096);
        b.prepare_write(&mut y, 4096);
        assert_eq!(x, y);
    }
}
