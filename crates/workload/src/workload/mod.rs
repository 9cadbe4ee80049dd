//! [`Workload`]: the I/O sequence of one job, a deterministic function of its
//! [`WorkloadConfig`]; the runner's hot loop calls [`Workload::next`] (see the crate note
//! for how a job ends).

use crate::bs::{BsChooser, Sizes};
use crate::buffers::BufferFiller;
use crate::config::{Sequencer, WorkloadConfig};
use crate::distribution::Draws;
use crate::error::ConfigError;
use crate::files::FilePicker;
use crate::mix::Mix;
use crate::offsets::{Extent, FileCursor, Follow};
use crate::seeds::FioStream;
use crate::taus::FioRng;
use crate::zones::StridedZones;
use iomark_core::{Ddir, RwMode};

mod fast;
mod opens;
mod setup;

use opens::FileCloses;

/// One I/O to issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IoRequest {
    /// Read, write or trim.
    pub dir: Ddir,
    /// Index into [`WorkloadConfig::files`].
    pub file: usize,
    /// Absolute offset in the file, in bytes (the region's offset included).
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
}

/// The I/O sequence of one job: a deterministic function of its [`WorkloadConfig`].
#[derive(Debug, Clone)]
pub struct Workload {
    /// `rw` is a random mode.
    random: bool,
    /// `bs_is_seq_rand`: see [`Workload::seq_rand_extent`].
    seq_rand_bs: bool,
    /// `rw` is `trimwrite` or `randtrimwrite`: each trim is followed by a write.
    trimwrite: bool,
    /// Sequential `trimwrite` whose trims and writes have fixed sizes: per file, each kind
    /// on its own cursor at its own size, as fio 3.33's logs show (docs/random.md): a trim
    /// first, a write after each trim, and after a write a trim only when that write
    /// landed on the last trim's offset. With equal sizes that is trim and write pairs on
    /// each file, the files taking turns between the two.
    trimwrite_apart: bool,
    /// True when every I/O is one random map block (see
    /// [`Workload::generate_one_block`]): `generate` then takes that shortcut.
    one_block: bool,
    skip: u64,
    sequencer: Sequencer,
    loops: u64,
    time_based: bool,
    io_limit: u64,
    io_size_given: bool,
    /// `io_size × loops`, or `u64::MAX` with `time_based` (which ignores it).
    byte_cap: u64,
    /// `number_ios × loops`, or `u64::MAX` for no limit (a count of I/Os never gets there)
    /// and with `time_based`.
    ios_cap: u64,
    max_bs: u64,
    map_unit: u64,
    align: [u64; 3],
    bs: [BsChooser; 3],
    files: Vec<FileCursor>,
    /// `zonemode=strided`, if set.
    zones: Option<StridedZones>,
    /// Bytes issued since the last zone turn (see [`StridedZones`]).
    zone_bytes: u64,
    /// Which file serves the next I/O, when there are several.
    picker: FilePicker,
    files_done: usize,
    /// A file of a skewed service whose pass was found over and started again: it serves
    /// the next I/O without a new draw.
    again: Option<usize>,
    mix: Mix,
    /// The offsets' stream, shared by the files.
    offsets_rng: FioRng,
    offsets_rng_start: FioRng,
    /// A new pass restarts the streams (offsets, block sizes, the mix, the file service),
    /// so that every pass is the same order: fio 3.33 restarts them when it closes and
    /// reopens the files for the pass, unless the job gives `randseed` (then they go on:
    /// `randread bs=4k size=64k loops=2 randseed=137` reads its second pass in another
    /// order). Never with `time_based`, whose passes run on.
    restarts: bool,
    /// The files closed, for the iolog.
    closes: FileCloses,
    /// The zone stream of `zoned` distributions.
    zone_rng: FioRng,
    /// The block size stream of each direction, restarted with every pass as fio does.
    bs_rngs: [FioRng; 3],
    bs_rngs_start: [FioRng; 3],
    pending: Option<IoRequest>,
    pass: u64,
    counted_bytes: u64,
    counted_ios: u64,
    total_bytes: u64,
    finished: bool,
    /// `next` answers `None` at the end of each pass, until [`Workload::next_pass`].
    pause_between_passes: bool,
    buffers: BufferFiller,
    /// How many more calls of `next` may take the one-block shortcut without looking at
    /// the rest of the state (see [`Workload::fast_room`]); 0 sends `next` the long way.
    fast_left: u64,
    /// What `fast_left` was when the long way last measured it: the shortcut's I/Os since
    /// then (`fast_granted - fast_left`) are counted in the budgets and the mix when the
    /// long way next runs ([`Workload::settle_fast`]), not one by one.
    fast_granted: u64,
    /// The direction of the shortcut's I/Os while `fast_left` is above 0.
    fast_dir: Ddir,
}

impl Workload {
    /// Checks `cfg` and builds the generator, allocating all it will need.
    pub fn new(cfg: &WorkloadConfig) -> Result<Workload, ConfigError> {
        crate::validate::validate(cfg)?;
        let loops = u64::from(cfg.loops.max(1));
        // fio's map block is the smallest size of all directions (`map_bs`); strided
        // zones keep the smallest size the job issues, which is nearer fio's there.
        let map_unit = if cfg.zones.is_some() { cfg.min_bs() } else { cfg.map_bs() };
        let skewed =
            cfg.rw.is_random() && cfg.directions().any(|d| cfg.distribution.get(d).is_skewed());
        let lfsr = cfg.lfsr && cfg.rw.is_random();
        let use_map = cfg.random_map && cfg.rw.is_random() && !skewed && !lfsr;
        let restarts = !cfg.time_based && !cfg.fio_seeds.randseed_given();
        let bs = Ddir::DATA.map(|d| BsChooser::new(cfg.bs.get(d), cfg.bs_unaligned));
        // Random I/Os are aligned to their direction's smallest size (with `bs_is_seq_rand`
        // too, whose random sizes are the write sizes: fio 3.33 draws `bs=4k,16k` reads of
        // 16k at 4k offsets).
        let align =
            Ddir::DATA.map(|d| cfg.blockalign.get(d).unwrap_or_else(|| cfg.bs.get(d).min()).max(1));
        let offsets_rng = cfg.fio_seeds.offsets_rng();
        let trimwrite = matches!(cfg.rw, RwMode::TrimWrite | RwMode::RandTrimWrite);
        // A trimwrite pair draws its size from the writes' stream (fio 3.33:
        // `rw=trimwrite bsrange=4k-16k` pairs 4k, 4k, 8k, 12k… as a `rw=write` writes).
        let bs_rngs = [0, 1, if trimwrite { 1 } else { 2 }].map(|d| cfg.fio_seeds.bs_rng(d));
        let mix = Mix::new(
            cfg.rw,
            cfg.rwmixread,
            &cfg.percentage_random,
            cfg.rw_modifier,
            &cfg.fio_seeds,
        );
        let files = setup::cursors(cfg, use_map.then_some(map_unit), skewed, lfsr, &align)?;
        // The shortcut's conditions (see `generate_one_block`): no trimwrite pair, taus88
        // offsets, a random map of fewer than 2^21 blocks on every file, sizes by direction, and in every
        // direction the job issues, every I/O at a new random offset and one map block per
        // I/O.
        let one_block = use_map
            && offsets_rng.is_32()
            && cfg.zones.is_none()
            && files.iter().all(|f| f.map.as_ref().is_some_and(|m| FioRng::small(m.blocks())))
            && !trimwrite
            && !cfg.bs_is_seq_rand
            && cfg
                .directions()
                .all(|d| mix.always_new(d) && bs[d.index()].fixed() == Some(map_unit));
        let sizes = [Ddir::Write, Ddir::Trim].map(|d| bs[d.index()].fixed());
        let trimwrite_apart = trimwrite
            && !cfg.rw.is_random()
            && !cfg.bs_is_seq_rand
            && sizes.iter().all(Option::is_some);
        Ok(Workload {
            random: cfg.rw.is_random(),
            seq_rand_bs: cfg.bs_is_seq_rand,
            trimwrite,
            trimwrite_apart,
            one_block,
            skip: if cfg.rw.is_random() { 0 } else { cfg.rw_modifier },
            sequencer: cfg.rw_sequencer,
            loops,
            time_based: cfg.time_based,
            io_limit: cfg.io_limit,
            io_size_given: cfg.io_size_given,
            byte_cap: if cfg.time_based { u64::MAX } else { cfg.io_limit.saturating_mul(loops) },
            // trimwrite apart: `number_ios` pairs are twice as many I/Os of either kind
            // (with pairs, the writes count).
            ios_cap: cfg.number_ios.filter(|&n| n > 0 && !cfg.time_based).map_or(u64::MAX, |n| {
                n.saturating_mul(loops).saturating_mul(if trimwrite_apart { 2 } else { 1 })
            }),
            max_bs: cfg.max_bs(),
            map_unit,
            align,
            bs,
            files,
            zones: cfg.zones,
            zone_bytes: 0,
            picker: FilePicker::new(
                cfg.file_service,
                cfg.files.len(),
                cfg.open_files,
                &cfg.fio_seeds,
            ),
            files_done: 0,
            again: None,
            mix,
            offsets_rng_start: offsets_rng.clone(),
            offsets_rng,
            restarts,
            closes: FileCloses::new(!cfg.time_based),
            zone_rng: cfg.fio_seeds.rng(FioStream::Zone),
            bs_rngs_start: bs_rngs.clone(),
            bs_rngs,
            pending: None,
            pass: 1,
            counted_bytes: 0,
            counted_ios: 0,
            total_bytes: 0,
            finished: false,
            pause_between_passes: false,
            buffers: BufferFiller::for_job(cfg),
            fast_left: 0,
            fast_granted: 0,
            fast_dir: Ddir::Read,
        })
    }

    /// Records the files closed for the iolog (see [`Workload::closed_files`]); off
    /// until called.
    pub fn log_closed_files(&mut self) {
        self.closes.enable(self.files.len());
    }

    /// Whether files were closed since the last [`Workload::closed_files`].
    #[inline]
    pub fn has_closed_files(&self) -> bool {
        self.closes.pending()
    }

    /// The files (indices into the job's files) closed since the last call, in order, as
    /// fio 3.33 closes them: when a file's pass is found over, unless the job's passes run
    /// on without closing (`time_based`, random I/O without the random map). A file closed
    /// is opened again before its next I/O.
    pub fn closed_files(&mut self) -> impl Iterator<Item = usize> + '_ {
        self.closes.take()
    }

    /// Whether random offsets come from the random map (a random mode without
    /// `norandommap`, `random_generator=lfsr` or a skewed distribution).
    pub fn uses_random_map(&self) -> bool {
        self.random && self.files.iter().any(|f| f.map.is_some())
    }

    /// Which pass over the files the job is in (1 for the first).
    pub fn pass(&self) -> u64 {
        self.pass
    }

    /// Bytes issued so far, all directions.
    pub fn bytes_issued(&self) -> u64 {
        self.total_bytes + self.fast_taken() * self.map_unit
    }

    /// Makes `next` answer `None` at the end of each pass (every file's pass over), so that
    /// the runner can act between passes (`unlink_each_loop`); [`Workload::next_pass`]
    /// then goes on.
    pub fn pause_between_passes(&mut self) {
        self.pause_between_passes = true;
    }

    /// After `next` paused at the end of a pass: starts the next pass if fio would (see
    /// the crate note); false when the job's I/O is over (and always when `next` ended for
    /// another reason).
    pub fn next_pass(&mut self) -> bool {
        self.settle_fast();
        if self.finished || self.files_done < self.files.len() {
            return false;
        }
        if self.budget_spent() || !self.start_next_pass() {
            self.finished = true;
            return false;
        }
        true
    }

    /// Whether the pass under way is not the last of `loops` (always, with `time_based`).
    /// Passes beyond `loops` that only complete `io_size` are not loops.
    pub fn loops_left(&self) -> bool {
        self.time_based || self.pass < self.loops
    }

    /// Takes `buffers` as the job's buffer filler: the one that laid out the job's files
    /// (see [`BufferFiller::for_job`]), so that the units' data follows the layout's.
    pub fn set_buffers(&mut self, buffers: BufferFiller) {
        self.buffers = buffers;
    }

    /// Fills a buffer of the I/O unit pool (see [`BufferFiller::initial_fill`]).
    pub fn initial_fill(&mut self, buf: &mut [u8]) {
        self.buffers.initial_fill(buf);
    }

    /// A buffer that served a read is to serve a write (see [`BufferFiller::after_read`]).
    pub fn after_read(&mut self, buf: &mut [u8]) {
        self.buffers.after_read(buf);
    }

    /// Prepares a buffer for a write at `offset` (see [`BufferFiller::prepare_write`]).
    pub fn prepare_write(&mut self, buf: &mut [u8], offset: u64) {
        self.buffers.prepare_write(buf, offset);
    }

    /// The direction the read/write mix of a mixed job chooses for the next I/O (drawing as
    /// fio draws), and whether the other direction has a share: what a rate limit then
    /// keeps or changes ([`Workload::steer`]). `None` for a job that is not mixed.
    pub fn mix_choice(&mut self) -> Option<(Ddir, bool)> {
        self.mix.choice()
    }

    /// Fixes the direction of the next I/Os of a mixed job (`rw=rw`, `randrw`), or with
    /// `None` gives the choice back to `rwmixread`; other modes keep their direction. The
    /// runner's rate limits choose the direction this way, as fio's do.
    pub fn steer(&mut self, dir: Option<Ddir>) {
        self.mix.steer(dir);
    }

    /// The write of a `trimwrite` pair, after its trim.
    #[inline(never)]
    fn pending_write(&mut self) -> Option<IoRequest> {
        let write = self.pending.take()?;
        self.account(&write, true);
        Some(write)
    }

    #[inline]
    fn account(&mut self, req: &IoRequest, counts: bool) {
        self.mix.issued(req.dir);
        self.total_bytes += req.len;
        if counts {
            self.counted_bytes += req.len;
            self.counted_ios += 1;
        }
    }

    /// True when `io_size × loops` bytes or `number_ios × loops` I/Os were issued (never
    /// with `time_based`, whose caps are out of reach).
    #[inline]
    fn budget_spent(&self) -> bool {
        self.counted_bytes >= self.byte_cap || self.counted_ios >= self.ios_cap
    }

    /// Opens a new pass if fio would (see the crate note); false when the job is over.
    /// Once a pass: kept out of `next`'s inlined code.
    #[cold]
    #[inline(never)]
    fn start_next_pass(&mut self) -> bool {
        let more = self.time_based
            || self.pass < self.loops
            || (self.io_size_given
                && self.total_bytes < self.io_limit
                && self.io_limit - self.total_bytes >= self.max_bs);
        if !more {
            return false;
        }
        self.pass += 1;
        // The I/O that found the pass over was not issued: its change of direction is
        // undone (another file of the pass would have served it in that direction).
        self.mix.not_issued();
        for f in &mut self.files {
            f.reset();
        }
        self.files_done = 0;
        self.zone_bytes = 0;
        self.picker.new_pass(self.restarts);
        self.mix.reset(self.restarts);
        if self.restarts {
            self.offsets_rng = self.offsets_rng_start.clone();
            self.bs_rngs = self.bs_rngs_start.clone();
        }
        true
    }

    #[inline]
    fn pick_file(&mut self) -> usize {
        if self.files.len() == 1 {
            // Whatever the service, the only file: the quota and the file stream (drawn
            // from for nothing else) have no effect on the I/O.
            return 0;
        }
        if let Some(file) = self.again.take() {
            return file;
        }
        self.picker.pick(&self.files)
    }

    /// The pass over `file` is over: the file closes, or with a skewed service starts
    /// over at once and serves the I/O (fio 3.33 draws no other file then, and logs no
    /// close).
    #[cold]
    #[inline(never)]
    fn file_done(&mut self, file: usize) {
        if self.picker.is_skewed() {
            self.files[file].reset();
            self.again = Some(file);
            return;
        }
        self.closes.done(file);
        self.files[file].done = true;
        self.files_done += 1;
        self.picker.file_done(file);
    }

    /// The next I/O on `file`, or `None` when the file's pass is over.
    #[inline]
    fn generate(&mut self, file: usize) -> Option<IoRequest> {
        if self.one_block {
            let dir = self.mix.direction();
            return self.generate_one_block(file, dir);
        }
        if let Some(zones) = self.zones {
            return self.generate_zoned(file, zones);
        }
        self.generate_plain(file)
    }

    /// `generate` with strided zones: once the job has done `zonesize` bytes in the
    /// current zone, `file` moves to its next zone; the I/O's bytes count towards the next
    /// turn.
    #[inline(never)]
    fn generate_zoned(&mut self, file: usize, zones: StridedZones) -> Option<IoRequest> {
        if self.zone_bytes >= zones.size {
            self.zone_bytes = 0;
            self.files[file].next_zone();
        }
        let req = self.generate_plain(file)?;
        self.zone_bytes += req.len;
        Some(req)
    }

    /// `generate` without the shortcut and zone turns.
    #[inline]
    fn generate_plain(&mut self, file: usize) -> Option<IoRequest> {
        if self.trimwrite_apart {
            return self.generate_trimwrite_apart(file);
        }
        let dir = self.mix.direction();
        let d = dir.index();
        let ext: Extent = if self.seq_rand_bs {
            self.seq_rand_extent(file, dir)?
        } else {
            let mut sizes = Sizes { bs: &self.bs[d], rng: &mut self.bs_rngs[d] };
            let cursor = &mut self.files[file];
            if !self.random {
                cursor.sequential(d, self.skip, &mut sizes)?
            } else {
                let follow = if self.mix.new_random_offset(dir) {
                    None
                } else {
                    let from = match self.sequencer {
                        Sequencer::Sequential => cursor.pos[d],
                        Sequencer::Identical => cursor.last[d],
                    };
                    Some(cursor.follow(from, &mut sizes))
                };
                let mark = follow.is_none();
                match follow {
                    Some(Follow::Fits(ext)) => ext,
                    Some(Follow::Tail) => return None,
                    None | Some(Follow::Past) => {
                        let units = (self.map_unit, self.align[d]);
                        let mut draws =
                            Draws { offsets: &mut self.offsets_rng, zone: &mut self.zone_rng };
                        cursor.random(d, &mut draws, &mut sizes, units, mark)?
                    }
                }
            }
        };
        let cursor = &mut self.files[file];
        cursor.advance(d, ext);
        if self.trimwrite {
            // trimwrite: the write of the pair continues from the same place.
            cursor.advance(Ddir::Write.index(), ext);
        }
        Some(IoRequest { dir, file, offset: cursor.region.offset + ext.0, len: ext.1 })
    }

    /// `generate` for [`Workload::trimwrite_apart`]: the file's next trim or write, each
    /// kind on its own cursor, or `None` when the next one would pass the region's end.
    #[inline(never)]
    fn generate_trimwrite_apart(&mut self, file: usize) -> Option<IoRequest> {
        let cursor = &mut self.files[file];
        let dir = if cursor.trim_next { Ddir::Trim } else { Ddir::Write };
        let d = dir.index();
        let mut sizes = Sizes { bs: &self.bs[d], rng: &mut self.bs_rngs[d] };
        let ext = cursor.sequential(d, self.skip, &mut sizes)?;
        cursor.advance(d, ext);
        cursor.trim_next = dir == Ddir::Write && ext.0 == cursor.last[Ddir::Trim.index()];
        Some(IoRequest { dir, file, offset: cursor.region.offset + ext.0, len: ext.1 })
    }

    /// The extent of the next I/O under `bs_is_seq_rand`: as `generate`, but the block size
    /// comes from the read sizes for a sequential I/O and from the write sizes for a random
    /// one, whatever the direction; the random decision is drawn before the size.
    #[inline(never)]
    fn seq_rand_extent(&mut self, file: usize, dir: Ddir) -> Option<Extent> {
        let d = dir.index();
        let [seq_rng, rand_rng, _] = &mut self.bs_rngs;
        let mut seq = Sizes { bs: &self.bs[0], rng: seq_rng };
        let cursor = &mut self.files[file];
        if !self.random {
            return cursor.sequential(d, self.skip, &mut seq);
        }
        let new = self.mix.new_random_offset(dir);
        if !new {
            let from = match self.sequencer {
                Sequencer::Sequential => cursor.pos[d],
                Sequencer::Identical => cursor.last[d],
            };
            match cursor.follow(from, &mut seq) {
                Follow::Fits(ext) => return Some(ext),
                Follow::Tail => return None,
                Follow::Past => {}
            }
        }
        // A follow-up that did not fit keeps the sequential sizes (fio 3.33).
        let mut rand = if new { Sizes { bs: &self.bs[1], rng: rand_rng } } else { seq };
        if cursor.is_uniform_without_map() {
            // The offsets range over where the direction's own smallest size fits, so a
            // random size may not fit at the one drawn: that ends the pass (fio 3.33:
            // `randread bs=4k,16k norandommap size=62k` reads 0 and 44k, then stops).
            let off = self.offsets_rng.below(cursor.positions(self.bs[d].min(), self.align[d]));
            let off = off * self.align[d];
            return rand.within(cursor.region.len - off).map(|l| (off, l));
        }
        let mut draws = Draws { offsets: &mut self.offsets_rng, zone: &mut self.zone_rng };
        cursor.random(d, &mut draws, &mut rand, (self.map_unit, self.align[d]), new)
    }

    /// `generate` for the commonest random jobs: a random mode (not trimwrite) with the
    /// random map where, in every direction it issues, every I/O takes a new random offset
    /// (no `:N`, `percentage_random=100`) and the block size is fixed and equal to the
    /// map's block, with fewer than 2^21 blocks per file and taus88 offsets (the draw's
    /// integer form). Under those conditions each step of `generate` reduces to the line
    /// here:
    ///
    /// - the direction is drawn first, as `generate` does (a draw only for `randrw`);
    ///   the size is the map block, drawing nothing; `mix.new_random_offset()` is true,
    ///   changing nothing;
    /// - `cursor.random()` draws the same block, takes the next free one and marks it (its
    ///   one-block case), or answers `None` after the draw when the map is full;
    /// - the cursor's previous offsets are not needed (see below), and there is no
    ///   trimwrite write to follow.
    ///
    /// `shortcut_and_general_path_agree` checks it on many random configurations.
    #[inline(always)]
    fn generate_one_block(&mut self, file: usize, dir: Ddir) -> Option<IoRequest> {
        let unit = self.map_unit;
        let cursor = &mut self.files[file];
        let map = cursor.map.as_mut()?;
        // A full map is found after the draw, as fio finds it (other files share the
        // stream).
        let b = map.take_one(self.offsets_rng.below_small(map.blocks()))?;
        // The cursor's previous offsets (`pos`, `last`) are left as they are: only
        // follow-ups and sequential I/O read them, which a one-block job never makes.
        Some(IoRequest { dir, file, offset: cursor.region.offset + b * unit, len: unit })
    }
}

/// The I/O sequence: `next` is the runner's hot-path call.
impl Iterator for Workload {
    type Item = IoRequest;

    /// The next I/O, or `None` once the job's I/O (all loops) is done. Never allocates.
    ///
    /// Inlined into the caller: while the one-block shortcut on the only file is certain
    /// (`fast_room`), one turn of the general loop (`next_general`) is all `next` does.
    #[inline(always)]
    fn next(&mut self) -> Option<IoRequest> {
        if self.fast_left > 0 {
            // `generate_one_block(0, fast_dir)`, its map's inlined case returning at once:
            // counted in the budgets and the mix when the long way next runs.
            let (unit, dir) = (self.map_unit, self.fast_dir);
            let cursor = &mut self.files[0];
            if let Some(map) = cursor.map.as_mut() {
                let from = self.offsets_rng.below_small(map.blocks());
                if let Some(b) = map.take_in_word(from) {
                    self.fast_left -= 1;
                    let offset = cursor.region.offset + b * unit;
                    return Some(IoRequest { dir, file: 0, offset, len: unit });
                }
                return self.next_fast_long(from);
            }
        }
        self.next_slow()
    }
}

#[cfg(test)]
mod tests;
