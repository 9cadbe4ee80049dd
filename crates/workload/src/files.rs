//! Which file serves the next I/O: fio's `file_service_type` and `openfiles`, as measured
//! on fio 3.33 with `--write_iolog` on the null engine.
//!
//! - `roundrobin:N`, `sequential` and `random:N` move among the files whose pass is not
//!   over (see [`FileService`]). A round robin's next pass starts at the file after
//!   the one whose end it found last, with a fresh quota (`filename=a:b`, a of 3 blocks and
//!   b of 2: a b a b a, then b a b a a).
//! - `openfiles=K` keeps at most K files in service: a file opens when the service first
//!   turns to it and closes when its pass is over; a file that is not open is passed over
//!   while K are open (`nrfiles=4 openfiles=2` round robin serves files 0 and 1 until both
//!   are done, then 2 and 3). The skewed kinds draw among all files.
//! - `zipf`, `pareto` and `normal` draw a value of their law (fio's, see the
//!   `distribution::laws` module) over `nrfiles × 1024` values from the job's file stream,
//!   add the stream's first draw (zipf, pareto; normal adds nothing) without fio's hash,
//!   and serve the file of the 1024-value bucket the sum falls in, modulo the values
//!   (fio 3.33, every I/O of `nrfiles=5` and `8` runs). Over 8 files zipf (θ 1.1) sends
//!   85% of the I/Os to the hot file and 5% to the next, pareto (0.2) 74% and 8.6%,
//!   normal 44%, 44%, 7% and 6% to the middle four.

use crate::distribution::laws::Law;
use crate::error::ConfigError;
use crate::offsets::FileCursor;
use crate::seeds::{FioSeeds, FioStream};
use crate::taus::FioRng;

/// fio's `file_service_type`: which file serves the next I/O.
///
/// The skewed kinds (`zipf`, `pareto`, `normal`) draw a file for every I/O, as fio 3.33
/// does: a value of the law over `nrfiles × 1024` values, whose 1024-value buckets are the
/// files (see the module note). A file whose pass is over is started again when it is drawn
/// (fio closes and reopens it), so such a job ends on its byte or I/O budget only.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FileService {
    /// `roundrobin[:N]` (default, N=1): N I/Os on a file, then the next file that is not
    /// done (fio 3.33: `nrfiles=2 rw=read` alternates files every I/O).
    RoundRobin(u32),
    /// `sequential`: finish one file before moving to the next.
    Sequential,
    /// `random[:N]`: N I/Os on a file chosen uniformly among those not done.
    Random(u32),
    /// `zipf[:θ]` (default 1.1): rank k of the files' values with probability ∝ (k+1)^-θ,
    /// the hottest values starting at a random place (a random file, from the seed).
    Zipf(f64),
    /// `pareto[:h]` (default 0.2, 0 < h < 1): P(rank < k) = (k/n)^(ln(1-h)/ln h), placed
    /// like zipf (fio 3.33: `pareto:0.5` is uniform, `pareto:0.9` piles up just before the
    /// hot place).
    Pareto(f64),
    /// `normal[:dev]` / `gauss[:dev]` (default 0): a bell curve centred between the middle
    /// files, widened by `dev` percent (see [`crate::Distribution::Normal`]).
    Normal(f64),
}

impl FileService {
    /// True for `zipf`, `pareto` and `normal`.
    pub fn is_skewed(self) -> bool {
        matches!(self, FileService::Zipf(_) | FileService::Pareto(_) | FileService::Normal(_))
    }
}

/// How many files `random` draws at most before it takes the next that can serve.
const RANDOM_FILE_DRAWS: u32 = 10_000;

/// Values of the file law per file.
const VALUES_PER_FILE: u64 = 1024;

/// The draw of a skewed `file_service_type`.
#[derive(Debug, Clone)]
struct SkewedFiles {
    law: Law,
    /// `nrfiles × 1024`.
    values: u64,
    /// What every value is shifted by.
    shift: u64,
    rng: FioRng,
}

impl SkewedFiles {
    /// The draw of `service` over `files` files from the file stream `rng`, or `None` for
    /// the uniform kinds.
    fn new(service: FileService, files: usize, mut rng: FioRng) -> Option<SkewedFiles> {
        let values = files as u64 * VALUES_PER_FILE;
        let law = match service {
            FileService::Zipf(theta) => Law::zipf(values, theta),
            FileService::Pareto(h) => Law::pareto(h),
            FileService::Normal(deviation) => Law::gauss(values, deviation),
            _ => return None,
        };
        let shift = if law.draws_shift() { rng.next_raw() } else { 0 };
        Some(SkewedFiles { law, values, shift, rng })
    }

    /// The next file.
    fn pick(&mut self) -> usize {
        let n = self.values;
        let v = self.law.unsigned_value(n, &mut self.rng);
        ((v.wrapping_add(self.shift) % n) / VALUES_PER_FILE) as usize
    }
}

/// Which files are open, for `openfiles`.
#[derive(Debug, Clone)]
struct OpenFiles {
    /// At most this many open at once.
    limit: usize,
    open: Vec<bool>,
    count: usize,
}

impl OpenFiles {
    /// The state for `files` files with `openfiles=limit`; `None` when nothing limits.
    fn new(limit: Option<usize>, files: usize) -> Option<OpenFiles> {
        let limit = limit.filter(|&l| l > 0 && l < files)?;
        Some(OpenFiles { limit, open: vec![false; files], count: 0 })
    }

    /// Whether the service may turn to file `f` (its pass not being over).
    fn may_serve(&self, f: usize) -> bool {
        self.open[f] || self.count < self.limit
    }

    fn open(&mut self, f: usize) {
        if !self.open[f] {
            self.open[f] = true;
            self.count += 1;
        }
    }

    /// Closes file `f` (its pass is over).
    fn close(&mut self, f: usize) {
        if self.open[f] {
            self.open[f] = false;
            self.count -= 1;
        }
    }
}

/// Which file serves the next I/O of a job with several: the `file_service_type` and
/// `openfiles` state of one job.
#[derive(Debug, Clone)]
pub(crate) struct FilePicker {
    service: FileService,
    /// The file serving now.
    current: usize,
    /// I/Os the current file still serves before the service moves on (round robin and
    /// random kinds).
    left_on_file: u32,
    /// The file whose pass was found over last: a round robin's next pass starts after it.
    last_done: usize,
    /// The draw of a skewed `file_service_type`.
    skewed: Option<SkewedFiles>,
    /// Which files are open, when `openfiles` limits them.
    open: Option<OpenFiles>,
    /// The draws of `random`: fio's file stream, a file `⌊files × f⌋` for the fraction `f`.
    random: FioRng,
    random_start: FioRng,
}

impl FilePicker {
    /// The service of `files` files by `service`, with at most `open_files` open at once,
    /// drawing from the job's file stream.
    pub(crate) fn new(
        service: FileService,
        files: usize,
        open_files: Option<usize>,
        seeds: &FioSeeds,
    ) -> FilePicker {
        let skewed = SkewedFiles::new(service, files, seeds.rng(FioStream::Files));
        FilePicker {
            service,
            current: 0,
            left_on_file: first_quota(service),
            last_done: 0,
            skewed,
            open: OpenFiles::new(open_files, files),
            random: seeds.rng(FioStream::Files),
            random_start: seeds.rng(FioStream::Files),
        }
    }

    /// True for a skewed service, which draws a file for every I/O and starts a file whose
    /// pass is over again when it is drawn.
    pub(crate) fn is_skewed(&self) -> bool {
        self.skewed.is_some()
    }

    /// The pass over `file` is over: it closes.
    pub(crate) fn file_done(&mut self, file: usize) {
        self.last_done = file;
        if let Some(open) = &mut self.open {
            open.close(file);
        }
    }

    /// A new pass over the files starts; with `reseed` (the files were closed and opened
    /// again) the draws of `random` start over, as fio's do.
    pub(crate) fn new_pass(&mut self, reseed: bool) {
        if reseed {
            self.random = self.random_start.clone();
        }
        if let FileService::RoundRobin(_) = self.service {
            // fio 3.33 goes on from the file after the one whose end it found last, with a
            // fresh quota (`filename=a:b`, a of 3 blocks and b of 2: a b a b a, then b a b a
            // a; `roundrobin:2`: a a b b a, then a a b b a).
            self.current = self.last_done;
            self.left_on_file = 0;
        } else {
            self.current = 0;
            self.left_on_file = first_quota(self.service);
        }
    }

    /// The first file at or after `from` (cyclically) that may serve: its pass not over,
    /// and open or with room to open under `openfiles`. Only called while a file's pass is
    /// not over.
    fn next_open_file(&self, files: &[FileCursor], from: usize) -> usize {
        let n = files.len();
        if n == 1 {
            return 0;
        }
        let serves = |i: usize| !files[i].done && self.open.as_ref().is_none_or(|o| o.may_serve(i));
        (0..n).map(|i| (from + i) % n).find(|&i| serves(i)).unwrap_or(0)
    }

    /// A file drawn for `random`: fio 3.33 draws again while the file drawn cannot serve
    /// (its pass known to be over, or closed under `openfiles`). After many draws, the
    /// first file that can serve from the last one drawn, so that this always ends.
    fn random_file(&mut self, files: &[FileCursor]) -> usize {
        let n = files.len();
        let mut pick = 0;
        for _ in 0..RANDOM_FILE_DRAWS {
            pick = self.random.below(n as u64) as usize;
            if !files[pick].done && self.open.as_ref().is_none_or(|o| o.may_serve(pick)) {
                return pick;
            }
        }
        self.next_open_file(files, pick)
    }

    /// The file of the next I/O among `files` (more than one).
    #[inline(never)]
    pub(crate) fn pick(&mut self, files: &[FileCursor]) -> usize {
        let switch = files[self.current].done || self.left_on_file == 0;
        match self.service {
            FileService::Sequential => {
                if files[self.current].done {
                    self.current = self.next_open_file(files, self.current + 1);
                }
            }
            FileService::RoundRobin(n) => {
                if switch {
                    self.current = self.next_open_file(files, self.current + 1);
                    self.left_on_file = n.max(1);
                }
                self.left_on_file -= 1;
            }
            FileService::Random(n) => {
                if switch {
                    self.current = self.random_file(files);
                    self.left_on_file = n.max(1);
                }
                self.left_on_file -= 1;
            }
            FileService::Zipf(_) | FileService::Pareto(_) | FileService::Normal(_) => {
                if let Some(skewed) = &mut self.skewed {
                    self.current = skewed.pick();
                }
            }
        }
        if let Some(open) = &mut self.open {
            open.open(self.current);
        }
        self.current
    }
}

/// How many I/Os the first file of a pass serves before the service first switches:
/// round robin starts on file 0 with a full quota; random service draws a file first.
fn first_quota(service: FileService) -> u32 {
    match service {
        FileService::RoundRobin(n) => n.max(1),
        _ => 0,
    }
}

/// fio 3.33's limits on the parameter of a skewed `file_service_type`.
pub(crate) fn check(service: FileService) -> Result<(), ConfigError> {
    let why = match service {
        FileService::Zipf(t) if t == 1.0 || t < 0.0 => "zipf theta must be 0 or more and not 1",
        FileService::Pareto(h) if !(h > 0.0 && h < 1.0) => "pareto input must be in 0 < h < 1",
        FileService::Normal(d) if !(0.0..100.0).contains(&d) => {
            "normal deviation must be in 0 <= dev < 100"
        }
        _ => return Ok(()),
    };
    Err(ConfigError::BadFileService(format!("{why} ({service:?})")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FileRegion, IoRequest, Workload, WorkloadConfig};
    use iomark_core::RwMode;

    const K: u64 = 1024;

    fn files(n: usize, len: u64, service: FileService) -> WorkloadConfig {
        WorkloadConfig {
            files: vec![FileRegion::new(0, len); n],
            file_service: service,
            io_limit: n as u64 * len,
            ..WorkloadConfig::single_file(RwMode::Read, 4 * K, len)
        }
    }

    fn order(cfg: &WorkloadConfig) -> Vec<(usize, u64)> {
        Workload::new(cfg).unwrap().map(|r| (r.file, r.offset / K)).collect()
    }

    #[test]
    fn openfiles_serves_a_window_of_files_as_fio() {
        // fio 3.33, nrfiles=4 size=64k openfiles=2: f0 f1 alternate to their end, then f2 f3.
        let mut cfg = files(4, 16 * K, FileService::RoundRobin(1));
        cfg.open_files = Some(2);
        let got = order(&cfg);
        let want: Vec<(usize, u64)> = [(0, 1), (2, 3)]
            .iter()
            .flat_map(|&(a, b)| (0..4).flat_map(move |i| [(a, 4 * i), (b, 4 * i)]))
            .collect();
        assert_eq!(got, want);
        // openfiles=3 roundrobin:2: f0 f0 f1 f1 f2 f2, twice, then f3 alone.
        let mut cfg = files(4, 16 * K, FileService::RoundRobin(2));
        cfg.open_files = Some(3);
        let f: Vec<usize> = order(&cfg).iter().map(|x| x.0).collect();
        assert_eq!(f, [0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 3, 3, 3, 3]);
        // openfiles=1 is sequential.
        let mut cfg = files(4, 16 * K, FileService::Random(1));
        cfg.open_files = Some(1);
        let f: Vec<usize> = order(&cfg).iter().map(|x| x.0).collect();
        assert!(f.chunks(4).all(|c| c.iter().all(|&x| x == c[0])), "{f:?}");
    }

    #[test]
    fn a_round_robin_pass_starts_after_the_file_found_done_last() {
        // fio 3.33, filename=a:b loops=2, a of 3 blocks and b of 2.
        let cfg = |n: u32| {
            let mut cfg = files(2, 8 * K, FileService::RoundRobin(n));
            cfg.files[0].len = 12 * K;
            cfg.io_limit = 20 * K;
            cfg.loops = 2;
            cfg
        };
        let pass = [(0, 0), (1, 0), (0, 4), (1, 4), (0, 8)];
        let second = [(1, 0), (0, 0), (1, 4), (0, 4), (0, 8)];
        assert_eq!(order(&cfg(1)), [pass, second].concat());
        // roundrobin:2 ends the pass on a's end with b found done last: a again.
        let pass = [(0, 0), (0, 4), (1, 0), (1, 4), (0, 8)];
        assert_eq!(order(&cfg(2)), [pass, pass].concat());
    }

    #[test]
    fn open_files_never_exceed_the_limit() {
        for service in [FileService::RoundRobin(1), FileService::Random(3), FileService::Random(1)]
        {
            let mut cfg = files(7, 32 * K, service);
            cfg.open_files = Some(3);
            let reqs: Vec<IoRequest> = Workload::new(&cfg).unwrap().collect();
            assert_eq!(reqs.len(), 7 * 8);
            // A file is open from its first I/O to its last.
            let span = |f: usize| {
                let first = reqs.iter().position(|r| r.file == f).unwrap();
                let last = reqs.iter().rposition(|r| r.file == f).unwrap();
                (first, last)
            };
            for i in 0..reqs.len() {
                let open = (0..7).filter(|&f| (span(f).0..=span(f).1).contains(&i)).count();
                assert!(open <= 3, "{service:?}: {open} files open at I/O {i}");
            }
        }
    }

    /// The share of I/Os per file of `service` over 8 files, 40000 draws.
    fn shares(service: FileService, seed: u64) -> Vec<f64> {
        let mut cfg = files(8, 1 << 30, service);
        cfg.io_limit = 40_000 * 4 * K;
        cfg.random_map = false;
        cfg.fio_seeds = crate::FioSeeds::repeatable(seed, 1);
        let mut counts = [0u64; 8];
        for r in Workload::new(&cfg).unwrap() {
            counts[r.file] += 1;
        }
        counts.iter().map(|&c| c as f64 / 400.0).collect()
    }

    fn sorted(mut v: Vec<f64>) -> Vec<f64> {
        v.sort_by(|a, b| b.partial_cmp(a).unwrap());
        v
    }

    #[test]
    fn skewed_services_give_fios_shares() {
        // fio 3.33 over 8 files (default seed): zipf 85.6% on the hot file, 5.5% on the
        // next; pareto 74.9% and 8.6%; pareto:0.5 uniform; normal 43.9/43.6/6.9/5.6%
        // for the middle four. The hot place is the file stream's first draw and its
        // file's share depends on where in the file it falls: the two largest shares
        // together hold ranks 0 to somewhere between 1024 and 2048 of 8192, 85.6–90.7% for
        // zipf (fio with randseed=1: 69.4 + 19.5) and 74.9–82.5% for pareto.
        for seed in [1, 2, 3] {
            let z = sorted(shares(FileService::Zipf(1.1), seed));
            assert!((84.5..92.0).contains(&(z[0] + z[1])), "zipf {z:?}");
            let p = sorted(shares(FileService::Pareto(0.2), seed));
            assert!((73.0..84.5).contains(&(p[0] + p[1])), "pareto {p:?}");
            let u = shares(FileService::Pareto(0.5), seed);
            assert!(u.iter().all(|&s| (s - 12.5).abs() < 1.0), "pareto:0.5 {u:?}");
        }
        let g = shares(FileService::Normal(0.0), 7);
        for (f, want) in [(2, 6.7), (3, 43.3), (4, 43.3), (5, 6.7)] {
            assert!((g[f] - want).abs() < 1.5, "normal file {f}: {g:?}");
        }
        assert!(g[0] + g[1] + g[6] + g[7] < 0.5, "normal {g:?}");
    }

    #[test]
    fn skewed_services_restart_a_finished_file() {
        // fio 3.33 reopens a file whose pass is over when it is drawn again: the job runs
        // to its byte budget.
        let mut cfg = files(3, 32 * K, FileService::Zipf(1.1));
        cfg.io_limit = 3 * 32 * K;
        let reqs: Vec<IoRequest> = Workload::new(&cfg).unwrap().collect();
        assert_eq!(reqs.len(), 24);
        let mut pos = [0u64; 3];
        for r in &reqs {
            let expect = if pos[r.file] == 32 * K { 0 } else { pos[r.file] };
            assert_eq!(r.offset, expect, "{reqs:?}");
            pos[r.file] = expect + r.len;
        }
    }

    #[test]
    fn bad_parameters_are_refused() {
        for service in [
            FileService::Zipf(1.0),
            FileService::Pareto(0.0),
            FileService::Pareto(1.0),
            FileService::Normal(100.0),
        ] {
            let err = Workload::new(&files(2, 16 * K, service)).unwrap_err();
            assert!(err.to_string().contains("file_service_type"), "{err}");
        }
    }
}
