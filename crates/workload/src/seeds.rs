//! Where each of a job's random streams starts, as fio 3.33 seeds them: one seed per purpose,
//! derived from `randseed` and the job's number, each seeding its own [`FioRng`].
//!
//! Fitted to fio 3.33's block sizes, read/write choices, file choices and offsets under many
//! `randseed` values and job numbers (the draws of each stream give its seed away, see
//! [`crate::taus`]):
//!
//! - stream `k` of job number `t` (fio counts jobs from 1 in the order it makes them; the
//!   clones of a job with `numjobs=n` follow it, clone `i ≥ 1` being number `first + n - i`)
//!   is seeded with `randseed · t · G^(k+4) + k`, wrapping at 64 bits, `G` = 0x9e370001;
//! - the offsets (and `random_generator=lfsr`'s register) ignore `randseed` while
//!   `randrepeat` holds: they are seeded with `0xb1899bed · t`, so two jobs that differ only in
//!   `randseed` issue the same offsets (fio 3.33 does so); but the clones of a job that
//!   gives `randseed` (`numjobs` > 1) seed their offsets as stream 6 (`randseed=5
//!   numjobs=3`: 0xb1899bed, then 0xb43a0015 and 0xcd7c0010 for job numbers 3 and 2);
//! - the zipf, pareto and normal state of each file ([`FioSeeds::file_seed`]) is seeded
//!   with the offsets' seed when the job gives `randseed`, else with a hash of the file's
//!   name times the job number (`crate::jhash`);
//! - `rate_process=poisson` draws its gaps from streams 15 (reads), 17 (writes) and 18
//!   (trims); deduplication its decisions from 14 and its working-set picks from 20;
//! - with `randrepeat=0` every stream starts at random (iomark draws one base from the
//!   system and derives the streams from it the same way).

use crate::taus::FioRng;

/// fio's seed of the offsets of job number 1 while `randrepeat` holds.
const OFFSETS_SEED: u64 = 0xb189_9bed;
/// The multiplier between the seeds of consecutive streams.
const STEP: u64 = 0x9e37_0001;

/// One of fio's per-purpose random streams, by its place in fio's list of seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum FioStream {
    /// Read block sizes (`bsrange`, `bssplit`).
    BsRead = 0,
    /// Write block sizes.
    BsWrite = 1,
    /// Trim block sizes.
    BsTrim = 2,
    /// The read/write choice of mixed modes.
    RwMix = 4,
    /// `file_service_type=random`.
    Files = 5,
    /// Random buffer contents.
    Buffers = 9,
    /// `percentage_random`, whatever the direction.
    SeqRand = 10,
    /// The offsets of the clones of a job that gives `randseed`.
    CloneOffsets = 6,
    /// The sizes of `filesize=lo-hi`.
    FileSize = 7,
    /// Whether a write logged for verification is chosen for trimming
    /// (`trim_percentage`): one percentage draw per logged write.
    TrimPick = 8,
    /// Whether a deduplicated buffer is a duplicate.
    Dedupe = 14,
    /// The gaps of `rate_process=poisson` between reads.
    PoissonRead = 15,
    /// The zone of `random_distribution=zoned` and `zoned_abs`.
    Zone = 16,
    /// The gaps of `rate_process=poisson` between writes.
    PoissonWrite = 17,
    /// The gaps of `rate_process=poisson` between trims.
    PoissonTrim = 18,
    /// Whether an I/O takes the priority of `cmdprio_percentage` or `cmdprio_bssplit`: one
    /// draw per read or write whose rule gives a share above 0.
    CmdPrio = 19,
    /// Which working-set buffer a duplicate is (`dedupe_mode=working_set`).
    DedupeSet = 20,
}

impl FioStream {
    /// The block size stream of direction index `d` (0 read, 1 write, 2 trim).
    pub fn bs(d: usize) -> FioStream {
        [FioStream::BsRead, FioStream::BsWrite, FioStream::BsTrim][d.min(2)]
    }

    /// The Poisson stream of direction index `d` (0 read, 1 write, 2 trim).
    pub fn poisson(d: usize) -> FioStream {
        [FioStream::PoissonRead, FioStream::PoissonWrite, FioStream::PoissonTrim][d.min(2)]
    }
}

/// The seeds of one job's fio streams.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FioSeeds {
    /// `randseed × job number` (or a random value): what every stream's seed derives from.
    pub base: u64,
    /// The seed of the offsets.
    pub offsets: u64,
    /// `random_generator=tausworthe64`: every stream draws 64 bits.
    pub use64: bool,
    /// fio's number of the job (from 1).
    pub job: u64,
    /// The files' skewed states are seeded from their names (`randseed` not given).
    pub by_name: bool,
    /// The job verifies what it writes: fio 3.33 then seeds the write sizes' stream as the
    /// read sizes' (stream 0), so a `bsrange` writes other sizes than without `verify`.
    pub verify_sizes: bool,
}

impl Default for FioSeeds {
    /// fio 3.33's seeds of job number 1 with the default `randseed`.
    fn default() -> FioSeeds {
        FioSeeds::repeatable(crate::DEFAULT_SEED, 1)
    }
}

impl FioSeeds {
    /// The seeds of job number `job` (from 1) with `randrepeat` on and `randseed`.
    pub fn repeatable(randseed: u64, job: u64) -> FioSeeds {
        FioSeeds {
            base: randseed.wrapping_mul(job),
            offsets: OFFSETS_SEED.wrapping_mul(job),
            use64: false,
            job,
            by_name: true,
            verify_sizes: false,
        }
    }

    /// These seeds for a job that gives `randseed` itself, `clone` when it is a clone
    /// (`numjobs`) other than the first: the files' skewed states take the offsets' seed,
    /// and a clone's offsets are stream 6.
    pub fn given_randseed(self, clone: bool) -> FioSeeds {
        let offsets = if clone { self.seed(FioStream::CloneOffsets) } else { self.offsets };
        FioSeeds { offsets, by_name: false, ..self }
    }

    /// The seeds of a job whose streams start at random (`randrepeat=0`), from `random`.
    pub fn random(random: u64) -> FioSeeds {
        let offsets = random.rotate_left(32) ^ OFFSETS_SEED;
        FioSeeds {
            base: random,
            offsets,
            use64: false,
            job: 1,
            by_name: false,
            verify_sizes: false,
        }
    }

    /// Whether the job gives `randseed` (or draws at random, `randrepeat=0`): fio 3.33
    /// then seeds the files' skewed states with the offsets' seed, and a new pass goes on
    /// with the streams where the last one left them instead of restarting them.
    pub fn randseed_given(&self) -> bool {
        !self.by_name
    }

    /// The seed of `stream`.
    pub fn seed(&self, stream: FioStream) -> u64 {
        let k = stream as u64;
        let mut mult = 1u64;
        for _ in 0..k + 4 {
            mult = mult.wrapping_mul(STEP);
        }
        self.base.wrapping_mul(mult).wrapping_add(k)
    }

    /// A fresh state of `stream`. `random_generator=tausworthe64` makes the offsets, the
    /// block sizes and the file choice draw 64 bits; the read/write mix,
    /// `percentage_random` and the zones keep drawing 32 (fio 3.33's choices of these do not
    /// change with it).
    pub fn rng(&self, stream: FioStream) -> FioRng {
        let use64 = self.use64
            && !matches!(stream, FioStream::RwMix | FioStream::SeqRand | FioStream::Zone);
        FioRng::new(self.seed(stream), use64)
    }

    /// The seed of the zipf, pareto or normal state of the file named `name` (as the job
    /// names it, which is also how its iolog names it): the offsets' seed when the job gives
    /// `randseed` (or starts at random), else the hash of the name times the job number, in
    /// 32 bits (fio 3.33: `j.0.0` of job 1 0xd646691e, `j.1.0` of job 2 0x0ae78e18).
    pub fn file_seed(&self, name: &str) -> u64 {
        if !self.by_name {
            return self.offsets;
        }
        let hash = crate::jhash::name_hash(name.as_bytes());
        u64::from(hash.wrapping_mul(self.job as u32))
    }

    /// A fresh state of the block size stream of direction index `d` (0 read, 1 write,
    /// 2 trim), the writes' seeded as the reads' when the job verifies.
    pub fn bs_rng(&self, d: usize) -> FioRng {
        let d = if d == 1 && self.verify_sizes { 0 } else { d };
        self.rng(FioStream::bs(d))
    }

    /// A fresh state of the offsets.
    pub fn offsets_rng(&self) -> FioRng {
        FioRng::new(self.offsets, self.use64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_fitted_to_fio_3_33() {
        // Read block sizes: randseed 0x89 → 0xadbc0089 (low 32 bits), 1 → 0x78dc0001; the
        // 64-bit seed shows with tausworthe64: 0x5a4b9ee878dc0001.
        assert_eq!(FioSeeds::repeatable(0x89, 1).seed(FioStream::BsRead) as u32, 0xadbc_0089);
        assert_eq!(FioSeeds::repeatable(1, 1).seed(FioStream::BsRead), 0x5a4b_9ee8_78dc_0001);
        // Writes and trims: 1 + randseed·0x17130001, 2 + randseed·0xb54a0001.
        assert_eq!(FioSeeds::repeatable(1, 1).seed(FioStream::BsWrite) as u32, 0x1713_0002);
        assert_eq!(FioSeeds::repeatable(1, 1).seed(FioStream::BsTrim) as u32, 0xb54a_0003);
        // The second job of the run doubles the base.
        assert_eq!(FioSeeds::repeatable(0x89, 2).seed(FioStream::BsRead) as u32, 0x5b78_0112);
        assert_eq!(FioSeeds::repeatable(7, 3).offsets as u32, 0x149c_d3c7);
    }

    #[test]
    fn clone_offsets_and_file_seeds_fitted_to_fio_3_33() {
        // `randseed=5 numjobs=3`: the job keeps 0xb1899bed, its clones (numbers 3 and 2)
        // draw stream 6.
        let s = |job| FioSeeds::repeatable(5, job).given_randseed(job > 1);
        assert_eq!(s(1).offsets, 0xb189_9bed);
        assert_eq!(s(3).offsets as u32, 0xb43a_0015);
        assert_eq!(s(2).offsets as u32, 0xcd7c_0010);
        assert_eq!(s(2).file_seed("j.1.0"), s(2).offsets);
        // Without randseed: the hash of the name times the job number.
        assert_eq!(FioSeeds::repeatable(0x89, 1).file_seed("j.0.0"), 0xd646_691e);
        assert_eq!(FioSeeds::repeatable(0x89, 2).file_seed("j.1.0"), 0x0ae7_8e18);
    }
}
