//! Ranks as threads of one process: the barrier and the gather of [`Ranks`] over shared
//! memory, and the merged report checked against the ranks' own.

use super::*;
use iomark_options::jobfile::Loader;
use iomark_options::value::subst::Keywords;
use std::path::Path;
use std::sync::{Arc, Barrier, Mutex};

/// Job files are never loaded here: every job comes from the command line.
struct NoFiles;

impl Loader for NoFiles {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        Err(std::io::Error::new(std::io::ErrorKind::NotFound, path.display().to_string()))
    }
    fn env(&self, _: &str) -> Option<String> {
        None
    }
    fn keywords(&self) -> Keywords {
        Keywords { ncpus: 1, pagesize: 4096, mb_memory: 1024 }
    }
}

/// One rank among threads sharing a barrier and a mailbox per rank.
struct ThreadRank {
    rank: u32,
    barrier: Arc<Barrier>,
    mail: Arc<Mutex<Vec<Option<Vec<u8>>>>>,
    barriers: Arc<Mutex<u32>>,
}

impl Ranks for ThreadRank {
    fn rank(&self) -> u32 {
        self.rank
    }
    fn size(&self) -> u32 {
        self.mail.lock().unwrap().len() as u32
    }
    fn barrier(&self) -> Result<(), DistError> {
        *self.barriers.lock().unwrap() += 1;
        self.barrier.wait();
        Ok(())
    }
    fn gather(&self, bytes: &[u8]) -> Result<Option<Vec<Vec<u8>>>, DistError> {
        self.mail.lock().unwrap()[self.rank as usize] = Some(bytes.to_vec());
        self.barrier.wait();
        if self.rank != 0 {
            return Ok(None);
        }
        Ok(Some(self.mail.lock().unwrap().iter_mut().map(|m| m.take().unwrap()).collect()))
    }
}

fn plans(args: &[&str]) -> Vec<JobPlan> {
    let cmd = iomark_options::cmdline::parse(args.iter().map(std::ffi::OsString::from))
        .expect("command line");
    let specs = iomark_options::parse_jobs(&cmd, &NoFiles).expect("jobs");
    iomark_runner::plans(&specs).expect("plans")
}

/// Runs `plans` on `n` ranks (threads) under the fake clock; rank 0's report and how many
/// barriers the ranks passed in all.
fn run_on(n: u32, plans: &[JobPlan]) -> (RunReport, u32) {
    let options = RunOptions { fake_clock_step_ns: Some(1000), ..RunOptions::default() };
    run_on_with(n, plans, &options)
}

/// [`run_on`] with these run options.
fn run_on_with(n: u32, plans: &[JobPlan], options: &RunOptions) -> (RunReport, u32) {
    let barrier = Arc::new(Barrier::new(n as usize));
    let mail = Arc::new(Mutex::new(vec![None; n as usize]));
    let barriers = Arc::new(Mutex::new(0));
    let reports: Vec<Option<RunReport>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|rank| {
                let r = ThreadRank {
                    rank,
                    barrier: Arc::clone(&barrier),
                    mail: Arc::clone(&mail),
                    barriers: Arc::clone(&barriers),
                };
                s.spawn(move || {
                    let stop = AtomicBool::new(false);
                    run_ranks(&r, &format!("host{rank}"), plans, options, &stop, |_| {})
                        .expect("run")
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("rank")).collect()
    });
    assert!(reports[1..].iter().all(Option::is_none));
    let count = *barriers.lock().unwrap();
    (reports.into_iter().next().flatten().expect("rank 0's report"), count)
}

#[test]
fn the_merged_report_is_the_exact_sum_of_the_ranks() {
    let plans = plans(&[
        "--name=j",
        "--ioengine=null",
        "--rw=randrw",
        "--bs=4k",
        "--size=1m",
        "--randrepeat=1",
    ]);
    let (report, barriers) = run_on(3, &plans);
    assert_eq!(barriers, 3, "one wave, one barrier per rank");
    assert_eq!(report.ranks.len(), 3);
    let job = &report.jobs[0];
    assert_eq!(job.jobs, 3);
    for d in 0..2 {
        let (dir, parts) = (&job.dirs[d], report.ranks.iter().map(|r| &r.jobs[0].dirs[d]));
        let parts: Vec<_> = parts.collect();
        assert_eq!(dir.total_ios, parts.iter().map(|p| p.total_ios).sum::<u64>());
        assert_eq!(dir.io_bytes, parts.iter().map(|p| p.io_bytes).sum::<u64>());
        assert_eq!(dir.clat.max, parts.iter().map(|p| p.clat.max).max().unwrap());
        assert_eq!(dir.clat.min, parts.iter().map(|p| p.clat.min).min().unwrap());
        // The histogram is the ranks' added bin by bin.
        let mut sum = std::collections::BTreeMap::new();
        for p in &parts {
            for &(v, c) in p.clat.bins.as_ref().expect("bins") {
                *sum.entry(v).or_insert(0) += c;
            }
        }
        let merged: std::collections::BTreeMap<u64, u64> =
            dir.clat.bins.as_ref().expect("bins").iter().copied().collect();
        assert_eq!(merged, sum);
    }
    assert_eq!(job.dirs[0].total_ios + job.dirs[1].total_ios, 3 * 256);
    assert_eq!(report.ranks[2].hostname, "host2");
}

#[test]
fn each_stonewall_is_a_barrier_across_ranks() {
    let plans = plans(&[
        "--ioengine=null",
        "--rw=read",
        "--bs=4k",
        "--size=64k",
        "--name=a",
        "--name=b",
        "--stonewall",
    ]);
    let (report, barriers) = run_on(2, &plans);
    assert_eq!(barriers, 4, "two waves on two ranks");
    assert_eq!(report.jobs.iter().map(|j| j.dirs[0].total_ios).collect::<Vec<_>>(), [32, 32]);
}

/// A tracer that finds every I/O handed over, split into 1, 2, 3 and 4 ns.
#[derive(Debug)]
struct EveryIo;

struct EveryIoSink(iomark_stats::block::BlockRecorder);

impl iomark_stats::block::IoTraceSink for EveryIoSink {
    fn take(&mut self, ios: &mut Vec<iomark_stats::block::IoTrace>, _: u64) {
        for io in ios.drain(..) {
            self.0.counts.ios += 1;
            self.0.counts.matched += 1;
            self.0.record(io.dir, [1, 2, 3, 4]);
        }
    }
    fn finish(self: Box<Self>, _: u64) -> iomark_stats::block::BlockRecorder {
        self.0
    }
}

impl iomark_stats::block::BlockTracing for EveryIo {
    fn open(
        &self,
        _: iomark_stats::block::TracedJob<'_>,
    ) -> Result<Box<dyn iomark_stats::block::IoTraceSink>, String> {
        Ok(Box::new(EveryIoSink(Default::default())))
    }
}

#[test]
fn the_block_latency_split_of_every_rank_is_merged() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = format!("--filename={}", dir.path().join("f").display());
    let args = ["--name=j", &file, "--rw=write", "--bs=4k", "--size=64k", "--block_latency=1"];
    let plans = plans(&args);
    let options = RunOptions {
        fake_clock_step_ns: Some(1000),
        block_tracing: Some(Arc::new(EveryIo)),
        ..RunOptions::default()
    };
    let (report, _) = run_on_with(2, &plans, &options);
    let b = report.jobs[0].block_latency.as_ref().expect("the merged split");
    assert_eq!((b.counts.ios, b.counts.matched), (32, 32));
    let write = b.dirs[1].as_ref().expect("writes");
    assert_eq!((write.device.n, write.device.mean), (32, 3.0));
    for rank in &report.ranks {
        let b = rank.jobs[0].block_latency.as_ref().expect("the rank's split");
        assert_eq!(b.counts.matched, 16);
    }
}
