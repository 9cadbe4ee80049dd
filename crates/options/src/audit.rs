//! The refusals of iomark's code audited against fio 3.33 (issue 14): each case that some
//! check of the options, the plan, the runner, the engines or verification refused, what
//! fio 3.33 does with it, and what iomark does now. Where fio runs a case sensibly iomark
//! runs it too; where fio's run is broken (it crashes, hangs, fails the job or writes
//! nonsense) iomark refuses it and its message says what fio does.
//!
//! `docs/compatibility.md` renders this table (by `iomark-manual`); the cases that now run
//! are run against fio by `crates/cli/tests/cli/refusals.rs`, `verify/interval.rs`,
//! `engines.rs` (offload) and `debug_parse.rs` (steadystate).

/// One audited case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Audited {
    /// The job, or the class of jobs, that was refused.
    pub case: &'static str,
    /// What fio 3.33 does with it.
    pub fio: &'static str,
    /// What iomark does now.
    pub iomark: &'static str,
}

const fn row(case: &'static str, fio: &'static str, iomark: &'static str) -> Audited {
    Audited { case, fio, iomark }
}

/// The audited refusals, the ones that now run first.
pub const AUDITED: &[Audited] = &[
    row("`verify_interval` larger than the block size (`bs=4k verify_interval=8k`)", "runs: one header per smallest write size", "runs, with fio's header layout ([verify.md](verify.md))"),
    row("`verify_interval` that does not divide the blocks (`bs=4k verify_interval=1536`, `bsrange=6k-8k`)", "runs: one header per block, or per the gcd of the write sizes", "runs, with fio's header layout"),
    row("`io_submit_mode=offload` with `libaio`, `posixaio` or `null`", "hands each I/O to a worker thread, reports every I/O at depth 1, and hangs from time to time", "runs with inline submission (the engine already submits without waiting), with a note"),
    row("`io_submit_mode=offload` with `io_uring`", "fails the job: \"can't be used with offloaded submit\"", "runs with inline submission, with a note"),
    row("`verify_async` above 1024", "runs (5000 threads)", "runs"),
    row("`rate_cycle=0` with `rate_min` or `rate_iops_min`", "checks at every completion after two seconds", "the same"),
    row("`time_based` without `runtime`", "warns and runs the job as not time based", "the same, with a note"),
    row("`max_latency` with four values, or trailing text (`5x`)", "reads three values; `5x` is 5 µs", "the same, with a note"),
    row("`steadystate` with a malformed or negative limit (`iops:1k`, `bw:1.5m`, `iops:-1`)", "reads the leading number (1, 1); a negative limit is never met", "the same, with a note"),
    row("a count after a random `rw` mode or a `file_service_type` (`randread:4k`, `random:x`)", "C's `atoi`: 4, 0; `randread:0` reads sequentially, `random:0` stays on a file to its end", "the same, with a note"),
    row("`unlink_each_loop=1` with `ioengine=mmap` in a job of one loop", "runs", "runs"),
    row("`random_distribution=zipf:0`, a negative zipf θ", "runs (θ = 0 draws uniformly)", "runs, with fio's draws"),
    row("`write_barrier`, `atomic`, `gtod_cpu`, `cmd_type` with `io_uring`", "accepted; no effect on Linux (`atomic` implies `direct`)", "accepted, with a note that says so"),
    row("`unlink_each_loop=1` with `ioengine=mmap` in a job that loops", "dies of SIGBUS", "refused, saying so"),
    row("a verify header larger than its chunk (`verify=sha512 verify_interval=96`)", "fails the job: \"Blocksize too small\"", "refused, saying so"),
    row("`verify_offset` that leaves the header no room", "writes the blocks, then fails to verify its own writes", "refused, saying so"),
    row("`verify=pattern` without `verify_pattern`", "aborts on an assertion", "refused, saying so"),
    row("`buffer_pattern=\"\"`", "aborts on an assertion", "refused, saying so"),
    row("`iomem_align` not a power of two (`12k`)", "runs, but its buffers are not so aligned", "refused, saying so"),
    row("`log_alternate_epoch_clock_id` that is no clock", "runs and logs meaningless times", "refused, saying so"),
    row("`opendir` on a directory without regular files", "runs the job without I/O and exits 0", "refused, saying so"),
    row("`cpumask=0`", "fails the job: it cannot set the affinity", "refused, saying so"),
    row("`read_iolog=-` (standard input)", "fails the job: \"unable to read iolog\"", "refused, saying so"),
    row("`hipri=1` without `direct=1` (io_uring)", "fails the job at the first I/O (EOPNOTSUPP)", "fails the job at its start, naming `hipri`"),
    row("`mem=mmaphuge` or `shmhuge` without huge pages", "fails the job (ENOMEM)", "fails the job, naming `mem`"),
    row("`size=20%` of a file that does not exist, `bs` larger than the region, `offset` past the end", "fails the job, or refuses it", "refused"),
    row("`zonemode=zbd`", "needs a zone size and a zoned device", "refused: no zoned device to test on"),
    row("`zonemode=strided` with a skewed `random_distribution`", "ends the job early (17 of 64 I/Os with `zipf:1.2`)", "refused, saying so"),
    row("`zonemode=strided` with `random_generator=lfsr`", "repeats blocks", "refused, saying so"),
    row("`cmdprio_bssplit` with a malformed share (`4k/x`, `4k/50x`, `4k/150`), size (`4kx`) or entry (`4k`)", "runs: the share read as C's `atoi` reads it (`x` is 0), past 100 as 100; text after the share drops the class and level", "the same, with a note"),
    row("`cmdprio_bssplit` with a class or level that is no number (`4k/50/x/0`, `4k/50/1/x`), or out of range", "fails the job, runs some as the default class, or reports another class", "refused"),
    row("`bssplit` with an entry of size 0 whose other sizes are `bs` (`0/10:4k/90`)", "takes `bs` as the smallest size and issues it alone", "the same, with a note"),
    row("`bssplit` with an entry of size 0 beside other sizes (`0/10:8k/90`)", "ends the job at the first draw of the size-0 entry (13 reads of 256), or issues no I/O when the sizes are below `bs`", "refused, saying so"),
    row("`ignore_error` with a number followed by text (`5x`, `28.5`)", "runs, the number read as C's `atoi` reads it", "the same, with a note"),
    row("`cpus_allowed` with text after a CPU (`0-1x`, `0:1`) or no number (`x`)", "runs, each CPU read as C's `atoi` reads it (`x` is CPU 0)", "the same, with a note"),
    row("`random_distribution=zoned` or `zoned_abs` with text after a zone's size (`50/90x`)", "runs, the size read up to its number", "the same, with a note"),
    row("`percentage_random` above 100 for one direction of several (`50,101`)", "prints \"max value out of range\" and runs", "refused"),
    row("`fill_device=1` in a job that only reads", "fills the file system, then reads", "refused"),
    row("`wait_for` naming no earlier job, `rate` with `rate_iops`, an unknown option, an engine's option with another engine, `cmdprio` out of range, zoned shares that do not add up to 100, `ignore_error` with four lists", "drops or fails the job", "refused"),
    row("the engines and options listed above", "run", "refused, for the reasons given"),
];
