//! One typed key per supported option, generated from the option table by `cargo test`; do
//! not edit. After changing the table, rewrite it with
//! `IOMARK_BLESS=1 cargo test -p iomark-options keys_names_rs_is_fresh`.

use super::{Choice, ChoiceSet, Key};
use crate::value::distribution::Distribution;
use crate::value::{SizeOrPercent, SplitEntry};
use std::time::Duration;

/// `description`: Text job description
pub const DESCRIPTION: Key<String> = Key::new("description");

/// `name`: Name of this job
pub const NAME: Key<String> = Key::new("name");

/// `wait_for`: Name of the job this one wants to wait for before starting
pub const WAIT_FOR: Key<String> = Key::new("wait_for");

/// `filename`: File(s) to use for the workload
pub const FILENAME: Key<Vec<String>> = Key::new("filename");

/// `lockfile`: Lock file when doing IO to it
pub const LOCKFILE: Key<Choice> = Key::new("lockfile");

/// `directory`: Directory to store files in
pub const DIRECTORY: Key<Vec<String>> = Key::new("directory");

/// `filename_format`: Override default $jobname.$jobnum.$filenum naming
pub const FILENAME_FORMAT: Key<String> = Key::new("filename_format");

/// `unique_filename`: For network clients, prefix file with source IP
pub const UNIQUE_FILENAME: Key<bool> = Key::new("unique_filename");

/// `opendir`: Recursively add files from this directory and down
pub const OPENDIR: Key<String> = Key::new("opendir");

/// `rw`: IO direction
pub const RW: Key<Choice> = Key::new("rw");

/// `bs`: Block size unit
pub const BS: Key<[Option<u64>; 3]> = Key::new("bs");

/// `ba`: IO block offset alignment
pub const BA: Key<[Option<u64>; 3]> = Key::new("ba");

/// `bsrange`: Set block size range (in more detail than bs)
pub const BSRANGE: Key<[Option<(u64, u64)>; 3]> = Key::new("bsrange");

/// `bssplit`: Set a specific mix of block sizes
pub const BSSPLIT: Key<[Option<Vec<SplitEntry>>; 3]> = Key::new("bssplit");

/// `bs_unaligned`: Don't sector align IO buffer sizes
pub const BS_UNALIGNED: Key<bool> = Key::new("bs_unaligned");

/// `randrepeat`: Use repeatable random IO pattern
pub const RANDREPEAT: Key<bool> = Key::new("randrepeat");

/// `randseed`: Set the random generator seed value
pub const RANDSEED: Key<u64> = Key::new("randseed");

/// `norandommap`: Accept potential duplicate random blocks
pub const NORANDOMMAP: Key<bool> = Key::new("norandommap");

/// `ignore_error`: Set a specific list of errors to ignore
pub const IGNORE_ERROR: Key<String> = Key::new("ignore_error");

/// `rw_sequencer`: IO offset generator modifier
pub const RW_SEQUENCER: Key<Choice> = Key::new("rw_sequencer");

/// `ioengine`: IO engine to use
pub const IOENGINE: Key<Choice> = Key::new("ioengine");

/// `iodepth`: Number of IO buffers to keep in flight
pub const IODEPTH: Key<u64> = Key::new("iodepth");

/// `iodepth_batch`: Number of IO buffers to submit in one go
pub const IODEPTH_BATCH: Key<u64> = Key::new("iodepth_batch");

/// `iodepth_batch_complete_min`: Min number of IO buffers to retrieve in one go
pub const IODEPTH_BATCH_COMPLETE_MIN: Key<u64> = Key::new("iodepth_batch_complete_min");

/// `iodepth_batch_complete_max`: Max number of IO buffers to retrieve in one go
pub const IODEPTH_BATCH_COMPLETE_MAX: Key<u64> = Key::new("iodepth_batch_complete_max");

/// `iodepth_low`: Low water mark for queuing depth
pub const IODEPTH_LOW: Key<u64> = Key::new("iodepth_low");

/// `serialize_overlap`: Wait for in-flight IOs that collide to complete
pub const SERIALIZE_OVERLAP: Key<bool> = Key::new("serialize_overlap");

/// `io_submit_mode`: How IO submissions and completions are done
pub const IO_SUBMIT_MODE: Key<Choice> = Key::new("io_submit_mode");

/// `size`: Total size of device or files
pub const SIZE: Key<SizeOrPercent> = Key::new("size");

/// `io_size`: Total size of I/O to be performed
pub const IO_SIZE: Key<SizeOrPercent> = Key::new("io_size");

/// `fill_device`: Write until an ENOSPC error occurs
pub const FILL_DEVICE: Key<bool> = Key::new("fill_device");

/// `filesize`: Size of individual files
pub const FILESIZE: Key<[Option<(u64, u64)>; 3]> = Key::new("filesize");

/// `file_append`: IO will start at the end of the file(s)
pub const FILE_APPEND: Key<bool> = Key::new("file_append");

/// `offset`: Start IO from this offset
pub const OFFSET: Key<SizeOrPercent> = Key::new("offset");

/// `offset_increment`: What is the increment from one offset to the next
pub const OFFSET_INCREMENT: Key<SizeOrPercent> = Key::new("offset_increment");

/// `offset_align`: Start IO from this offset alignment
pub const OFFSET_ALIGN: Key<u64> = Key::new("offset_align");

/// `number_ios`: Force job completion after this number of IOs
pub const NUMBER_IOS: Key<u64> = Key::new("number_ios");

/// `random_generator`: Type of random number generator to use
pub const RANDOM_GENERATOR: Key<Choice> = Key::new("random_generator");

/// `random_distribution`: Random offset distribution generator
pub const RANDOM_DISTRIBUTION: Key<[Option<Distribution>; 3]> = Key::new("random_distribution");

/// `percentage_random`: Percentage of seq/random mix that should be random
pub const PERCENTAGE_RANDOM: Key<[Option<i64>; 3]> = Key::new("percentage_random");

/// `allrandrepeat`: Use repeatable random numbers for everything
pub const ALLRANDREPEAT: Key<bool> = Key::new("allrandrepeat");

/// `nrfiles`: Split job workload between this number of files
pub const NRFILES: Key<u64> = Key::new("nrfiles");

/// `file_service_type`: How to select which file to service next
pub const FILE_SERVICE_TYPE: Key<Choice> = Key::new("file_service_type");

/// `openfiles`: Number of files to keep open at the same time
pub const OPENFILES: Key<u64> = Key::new("openfiles");

/// `fallocate`: Whether pre-allocation is performed when laying out files
pub const FALLOCATE: Key<Choice> = Key::new("fallocate");

/// `fadvise_hint`: Use fadvise() to advise the kernel on IO pattern
pub const FADVISE_HINT: Key<Choice> = Key::new("fadvise_hint");

/// `fsync`: Issue fsync for writes every given number of blocks
pub const FSYNC: Key<u64> = Key::new("fsync");

/// `fdatasync`: Issue fdatasync for writes every given number of blocks
pub const FDATASYNC: Key<u64> = Key::new("fdatasync");

/// `write_barrier`: Make every Nth write a barrier write
pub const WRITE_BARRIER: Key<u64> = Key::new("write_barrier");

/// `sync_file_range`: Use sync_file_range()
pub const SYNC_FILE_RANGE: Key<ChoiceSet> = Key::new("sync_file_range");

/// `direct`: Use O_DIRECT IO (negates buffered)
pub const DIRECT: Key<bool> = Key::new("direct");

/// `atomic`: Use Atomic IO with O_DIRECT (implies O_DIRECT)
pub const ATOMIC: Key<bool> = Key::new("atomic");

/// `buffered`: Use buffered IO (negates direct)
pub const BUFFERED: Key<bool> = Key::new("buffered");

/// `overwrite`: When writing, set whether to overwrite current data
pub const OVERWRITE: Key<bool> = Key::new("overwrite");

/// `loops`: Number of times to run the job
pub const LOOPS: Key<u64> = Key::new("loops");

/// `numjobs`: Duplicate this job this many times
pub const NUMJOBS: Key<u64> = Key::new("numjobs");

/// `startdelay`: Only start job when this period has passed
pub const STARTDELAY: Key<(Duration, Duration)> = Key::new("startdelay");

/// `runtime`: Stop workload when this amount of time has passed
pub const RUNTIME: Key<Duration> = Key::new("runtime");

/// `time_based`: Keep running until runtime/timeout is met
pub const TIME_BASED: Key<bool> = Key::new("time_based");

/// `verify_only`: Verifies previously written data is still valid
pub const VERIFY_ONLY: Key<bool> = Key::new("verify_only");

/// `ramp_time`: Ramp up time before measuring performance
pub const RAMP_TIME: Key<Duration> = Key::new("ramp_time");

/// `clocksource`: What type of timing source to use
pub const CLOCKSOURCE: Key<Choice> = Key::new("clocksource");

/// `mem`: Backing type for IO buffers
pub const MEM: Key<Choice> = Key::new("mem");

/// `verify`: Verify data written
pub const VERIFY: Key<Choice> = Key::new("verify");

/// `do_verify`: Run verification stage after write
pub const DO_VERIFY: Key<bool> = Key::new("do_verify");

/// `verify_interval`: Store verify buffer header every N bytes
pub const VERIFY_INTERVAL: Key<u64> = Key::new("verify_interval");

/// `verify_offset`: Offset verify header location by N bytes
pub const VERIFY_OFFSET: Key<u64> = Key::new("verify_offset");

/// `verify_pattern`: Fill pattern for IO buffers
pub const VERIFY_PATTERN: Key<String> = Key::new("verify_pattern");

/// `verify_fatal`: Exit on a single verify failure, don't continue
pub const VERIFY_FATAL: Key<bool> = Key::new("verify_fatal");

/// `verify_dump`: Dump contents of good and bad blocks on failure
pub const VERIFY_DUMP: Key<bool> = Key::new("verify_dump");

/// `verify_async`: Number of async verifier threads to use
pub const VERIFY_ASYNC: Key<u64> = Key::new("verify_async");

/// `verify_backlog`: Verify after this number of blocks are written
pub const VERIFY_BACKLOG: Key<u64> = Key::new("verify_backlog");

/// `verify_backlog_batch`: Verify this number of IO blocks
pub const VERIFY_BACKLOG_BATCH: Key<u64> = Key::new("verify_backlog_batch");

/// `experimental_verify`: Enable experimental verification
pub const EXPERIMENTAL_VERIFY: Key<bool> = Key::new("experimental_verify");

/// `verify_state_load`: Load verify termination state
pub const VERIFY_STATE_LOAD: Key<bool> = Key::new("verify_state_load");

/// `verify_state_save`: Save verify state on termination
pub const VERIFY_STATE_SAVE: Key<bool> = Key::new("verify_state_save");

/// `verify_write_sequence`: Verify header write sequence number
pub const VERIFY_WRITE_SEQUENCE: Key<bool> = Key::new("verify_write_sequence");

/// `trim_percentage`: Number of verify blocks to trim (i.e., discard)
pub const TRIM_PERCENTAGE: Key<u64> = Key::new("trim_percentage");

/// `trim_verify_zero`: Verify that trimmed (i.e., discarded) blocks are returned as zeroes
pub const TRIM_VERIFY_ZERO: Key<bool> = Key::new("trim_verify_zero");

/// `trim_backlog`: Trim after this number of blocks are written
pub const TRIM_BACKLOG: Key<u64> = Key::new("trim_backlog");

/// `trim_backlog_batch`: Trim this number of IO blocks
pub const TRIM_BACKLOG_BATCH: Key<u64> = Key::new("trim_backlog_batch");

/// `write_iolog`: Store IO pattern to file
pub const WRITE_IOLOG: Key<String> = Key::new("write_iolog");

/// `read_iolog`: Playback IO pattern from file
pub const READ_IOLOG: Key<String> = Key::new("read_iolog");

/// `read_iolog_chunked`: Parse IO pattern in chunks
pub const READ_IOLOG_CHUNKED: Key<bool> = Key::new("read_iolog_chunked");

/// `replay_no_stall`: Playback IO pattern file as fast as possible without stalls
pub const REPLAY_NO_STALL: Key<bool> = Key::new("replay_no_stall");

/// `replay_redirect`: Replay all I/O onto this device, regardless of trace device
pub const REPLAY_REDIRECT: Key<String> = Key::new("replay_redirect");

/// `replay_scale`: Align offsets to this blocksize
pub const REPLAY_SCALE: Key<u64> = Key::new("replay_scale");

/// `replay_align`: Scale offset down by this factor
pub const REPLAY_ALIGN: Key<u64> = Key::new("replay_align");

/// `replay_time_scale`: Scale time for replay events
pub const REPLAY_TIME_SCALE: Key<u64> = Key::new("replay_time_scale");

/// `replay_skip`: Skip certain IO types (read,write,trim,flush)
pub const REPLAY_SKIP: Key<String> = Key::new("replay_skip");

/// `merge_blktrace_file`: Merged blktrace output filename
pub const MERGE_BLKTRACE_FILE: Key<String> = Key::new("merge_blktrace_file");

/// `merge_blktrace_scalars`: Percentage to scale each trace
pub const MERGE_BLKTRACE_SCALARS: Key<Vec<f64>> = Key::new("merge_blktrace_scalars");

/// `merge_blktrace_iters`: Number of iterations to run per trace
pub const MERGE_BLKTRACE_ITERS: Key<Vec<f64>> = Key::new("merge_blktrace_iters");

/// `exec_prerun`: Execute this file prior to running job
pub const EXEC_PRERUN: Key<String> = Key::new("exec_prerun");

/// `exec_postrun`: Execute this file after running job
pub const EXEC_POSTRUN: Key<String> = Key::new("exec_postrun");

/// `ioscheduler`: Use this IO scheduler on the backing device
pub const IOSCHEDULER: Key<String> = Key::new("ioscheduler");

/// `zonemode`: Mode for the zonesize, zonerange and zoneskip parameters
pub const ZONEMODE: Key<Choice> = Key::new("zonemode");

/// `zonesize`: Amount of data to read per zone
pub const ZONESIZE: Key<u64> = Key::new("zonesize");

/// `zonerange`: Give size of an IO zone
pub const ZONERANGE: Key<u64> = Key::new("zonerange");

/// `zoneskip`: Space between IO zones
pub const ZONESKIP: Key<u64> = Key::new("zoneskip");

/// `lockmem`: Lock down this amount of memory (per worker)
pub const LOCKMEM: Key<u64> = Key::new("lockmem");

/// `rwmixread`: Percentage of mixed workload that is reads
pub const RWMIXREAD: Key<u64> = Key::new("rwmixread");

/// `rwmixwrite`: Percentage of mixed workload that is writes
pub const RWMIXWRITE: Key<u64> = Key::new("rwmixwrite");

/// `nice`: Set job CPU nice value
pub const NICE: Key<i64> = Key::new("nice");

/// `prio`: Set job IO priority value
pub const PRIO: Key<u64> = Key::new("prio");

/// `prioclass`: Set job IO priority class
pub const PRIOCLASS: Key<u64> = Key::new("prioclass");

/// `thinktime`: Idle time between IO buffers (usec)
pub const THINKTIME: Key<Duration> = Key::new("thinktime");

/// `thinktime_spin`: Start think time by spinning this amount (usec)
pub const THINKTIME_SPIN: Key<Duration> = Key::new("thinktime_spin");

/// `thinktime_blocks`: IO buffer period between 'thinktime'
pub const THINKTIME_BLOCKS: Key<u64> = Key::new("thinktime_blocks");

/// `thinktime_blocks_type`: How thinktime_blocks takes effect
pub const THINKTIME_BLOCKS_TYPE: Key<Choice> = Key::new("thinktime_blocks_type");

/// `thinktime_iotime`: IO time interval between 'thinktime'
pub const THINKTIME_IOTIME: Key<Duration> = Key::new("thinktime_iotime");

/// `rate`: Set bandwidth rate
pub const RATE: Key<[Option<u64>; 3]> = Key::new("rate");

/// `rate_min`: Job must meet this rate or it will be shutdown
pub const RATE_MIN: Key<[Option<u64>; 3]> = Key::new("rate_min");

/// `rate_process`: What process controls how rated IO is managed
pub const RATE_PROCESS: Key<Choice> = Key::new("rate_process");

/// `rate_cycle`: Window average for rate limits (msec)
pub const RATE_CYCLE: Key<u64> = Key::new("rate_cycle");

/// `rate_ignore_thinktime`: Rated IO ignores thinktime settings
pub const RATE_IGNORE_THINKTIME: Key<bool> = Key::new("rate_ignore_thinktime");

/// `rate_iops`: Limit IO used to this number of IO operations/sec
pub const RATE_IOPS: Key<[Option<i64>; 3]> = Key::new("rate_iops");

/// `rate_iops_min`: Job must meet this rate or it will be shut down
pub const RATE_IOPS_MIN: Key<[Option<i64>; 3]> = Key::new("rate_iops_min");

/// `max_latency`: Maximum tolerated IO latency (usec)
pub const MAX_LATENCY: Key<String> = Key::new("max_latency");

/// `latency_target`: Ramp to max queue depth supporting this latency
pub const LATENCY_TARGET: Key<Duration> = Key::new("latency_target");

/// `latency_window`: Time to sustain latency_target
pub const LATENCY_WINDOW: Key<Duration> = Key::new("latency_window");

/// `latency_percentile`: Percentile of IOs must be below latency_target
pub const LATENCY_PERCENTILE: Key<f64> = Key::new("latency_percentile");

/// `latency_run`: Keep adjusting queue depth to match latency_target
pub const LATENCY_RUN: Key<bool> = Key::new("latency_run");

/// `invalidate`: Invalidate buffer/page cache prior to running job
pub const INVALIDATE: Key<bool> = Key::new("invalidate");

/// `sync`: Use synchronous write IO
pub const SYNC: Key<Choice> = Key::new("sync");

/// `write_hint`: Set expected write life time
pub const WRITE_HINT: Key<Choice> = Key::new("write_hint");

/// `create_serialize`: Serialize creation of job files
pub const CREATE_SERIALIZE: Key<bool> = Key::new("create_serialize");

/// `create_fsync`: fsync file after creation
pub const CREATE_FSYNC: Key<bool> = Key::new("create_fsync");

/// `create_on_open`: Create files when they are opened for IO
pub const CREATE_ON_OPEN: Key<bool> = Key::new("create_on_open");

/// `create_only`: Only perform file creation phase
pub const CREATE_ONLY: Key<bool> = Key::new("create_only");

/// `allow_file_create`: Permit fio to create files, if they don't exist
pub const ALLOW_FILE_CREATE: Key<bool> = Key::new("allow_file_create");

/// `allow_mounted_write`: Allow writes to a mounted partition
pub const ALLOW_MOUNTED_WRITE: Key<bool> = Key::new("allow_mounted_write");

/// `pre_read`: Pre-read files before starting official testing
pub const PRE_READ: Key<bool> = Key::new("pre_read");

/// `cpumask`: CPU affinity mask
pub const CPUMASK: Key<u64> = Key::new("cpumask");

/// `cpus_allowed`: Set CPUs allowed
pub const CPUS_ALLOWED: Key<Vec<u32>> = Key::new("cpus_allowed");

/// `cpus_allowed_policy`: Distribution policy for cpus_allowed
pub const CPUS_ALLOWED_POLICY: Key<Choice> = Key::new("cpus_allowed_policy");

/// `numa_cpu_nodes`: NUMA CPU nodes bind
pub const NUMA_CPU_NODES: Key<String> = Key::new("numa_cpu_nodes");

/// `numa_mem_policy`: NUMA memory policy setup
pub const NUMA_MEM_POLICY: Key<String> = Key::new("numa_mem_policy");

/// `end_fsync`: Include fsync at the end of job
pub const END_FSYNC: Key<bool> = Key::new("end_fsync");

/// `fsync_on_close`: fsync files on close
pub const FSYNC_ON_CLOSE: Key<bool> = Key::new("fsync_on_close");

/// `unlink`: Unlink created files after job has completed
pub const UNLINK: Key<bool> = Key::new("unlink");

/// `unlink_each_loop`: Unlink created files after each loop in a job has completed
pub const UNLINK_EACH_LOOP: Key<bool> = Key::new("unlink_each_loop");

/// `exitall`: Terminate all jobs when one exits
pub const EXITALL: Key<bool> = Key::new("exitall");

/// `exit_what`: Fine-grained control for exitall
pub const EXIT_WHAT: Key<Choice> = Key::new("exit_what");

/// `exitall_on_error`: Terminate all jobs when one exits in error
pub const EXITALL_ON_ERROR: Key<bool> = Key::new("exitall_on_error");

/// `stonewall`: Insert a hard barrier between this job and previous
pub const STONEWALL: Key<bool> = Key::new("stonewall");

/// `new_group`: Mark the start of a new group (for reporting)
pub const NEW_GROUP: Key<bool> = Key::new("new_group");

/// `thread`: Use threads instead of processes
pub const THREAD: Key<bool> = Key::new("thread");

/// `per_job_logs`: Include job number in generated log files or not
pub const PER_JOB_LOGS: Key<bool> = Key::new("per_job_logs");

/// `write_bw_log`: Write log of bandwidth during run
pub const WRITE_BW_LOG: Key<String> = Key::new("write_bw_log");

/// `bwavgtime`: Time window over which to calculate bandwidth (msec)
pub const BWAVGTIME: Key<u64> = Key::new("bwavgtime");

/// `write_lat_log`: Write log of latency during run
pub const WRITE_LAT_LOG: Key<String> = Key::new("write_lat_log");

/// `write_iops_log`: Write log of IOPS during run
pub const WRITE_IOPS_LOG: Key<String> = Key::new("write_iops_log");

/// `iopsavgtime`: Time window over which to calculate IOPS (msec)
pub const IOPSAVGTIME: Key<u64> = Key::new("iopsavgtime");

/// `log_entries`: Initial number of entries in a job IO log
pub const LOG_ENTRIES: Key<u64> = Key::new("log_entries");

/// `log_avg_msec`: Average bw/iops/lat logs over this period of time
pub const LOG_AVG_MSEC: Key<u64> = Key::new("log_avg_msec");

/// `log_hist_msec`: Dump completion latency histograms at frequency of this time value
pub const LOG_HIST_MSEC: Key<u64> = Key::new("log_hist_msec");

/// `log_hist_coarseness`: Integer in range \[0,6\]. Higher coarseness outputs fewer histogram bins per sample. The number of bins for these are \[1216, 608, 304, 152, 76, 38, 19\] respectively.
pub const LOG_HIST_COARSENESS: Key<u64> = Key::new("log_hist_coarseness");

/// `write_hist_log`: Write log of latency histograms during run
pub const WRITE_HIST_LOG: Key<String> = Key::new("write_hist_log");

/// `log_max_value`: Log max sample in a window instead of average
pub const LOG_MAX_VALUE: Key<bool> = Key::new("log_max_value");

/// `log_offset`: Include offset of IO for each log entry
pub const LOG_OFFSET: Key<bool> = Key::new("log_offset");

/// `log_prio`: Include priority value of IO for each log entry
pub const LOG_PRIO: Key<bool> = Key::new("log_prio");

/// `log_compression`: Log in compressed chunks of this size
pub const LOG_COMPRESSION: Key<u64> = Key::new("log_compression");

/// `log_compression_cpus`: Limit log compression to these CPUs
pub const LOG_COMPRESSION_CPUS: Key<Vec<u32>> = Key::new("log_compression_cpus");

/// `log_store_compressed`: Store logs in a compressed format
pub const LOG_STORE_COMPRESSED: Key<bool> = Key::new("log_store_compressed");

/// `log_unix_epoch`: Use Unix time in log files
pub const LOG_UNIX_EPOCH: Key<bool> = Key::new("log_unix_epoch");

/// `log_alternate_epoch`: Use alternate epoch time in log files. Uses the same epoch as that is used by clock_gettime with specified log_alternate_epoch_clock_id.
pub const LOG_ALTERNATE_EPOCH: Key<bool> = Key::new("log_alternate_epoch");

/// `log_alternate_epoch_clock_id`: If log_alternate_epoch or log_unix_epoch is true, this option specifies the clock_id from clock_gettime whose epoch should be used. If neither of those is true, this option has no effect. Default value is 0, or CLOCK_REALTIME
pub const LOG_ALTERNATE_EPOCH_CLOCK_ID: Key<u64> = Key::new("log_alternate_epoch_clock_id");

/// `block_error_percentiles`: Record trim block errors and make a histogram
pub const BLOCK_ERROR_PERCENTILES: Key<bool> = Key::new("block_error_percentiles");

/// `group_reporting`: Do reporting on a per-group basis
pub const GROUP_REPORTING: Key<bool> = Key::new("group_reporting");

/// `stats`: Enable collection of stats
pub const STATS: Key<bool> = Key::new("stats");

/// `zero_buffers`: Init IO buffers to all zeroes
pub const ZERO_BUFFERS: Key<bool> = Key::new("zero_buffers");

/// `refill_buffers`: Refill IO buffers on every IO submit
pub const REFILL_BUFFERS: Key<bool> = Key::new("refill_buffers");

/// `scramble_buffers`: Slightly scramble buffers on every IO submit
pub const SCRAMBLE_BUFFERS: Key<bool> = Key::new("scramble_buffers");

/// `buffer_pattern`: Fill pattern for IO buffers
pub const BUFFER_PATTERN: Key<String> = Key::new("buffer_pattern");

/// `buffer_compress_percentage`: How compressible the buffer is (approximately)
pub const BUFFER_COMPRESS_PERCENTAGE: Key<u64> = Key::new("buffer_compress_percentage");

/// `buffer_compress_chunk`: Size of compressible region in buffer
pub const BUFFER_COMPRESS_CHUNK: Key<u64> = Key::new("buffer_compress_chunk");

/// `dedupe_percentage`: Percentage of buffers that are dedupable
pub const DEDUPE_PERCENTAGE: Key<u64> = Key::new("dedupe_percentage");

/// `dedupe_mode`: Mode for the deduplication buffer generation
pub const DEDUPE_MODE: Key<Choice> = Key::new("dedupe_mode");

/// `dedupe_working_set_percentage`: Dedupe working set size in percentages from file or device size used to generate dedupe patterns from
pub const DEDUPE_WORKING_SET_PERCENTAGE: Key<u64> = Key::new("dedupe_working_set_percentage");

/// `dedupe_global`: Share deduplication buffers across jobs
pub const DEDUPE_GLOBAL: Key<bool> = Key::new("dedupe_global");

/// `clat_percentiles`: Enable the reporting of completion latency percentiles
pub const CLAT_PERCENTILES: Key<bool> = Key::new("clat_percentiles");

/// `lat_percentiles`: Enable the reporting of IO latency percentiles
pub const LAT_PERCENTILES: Key<bool> = Key::new("lat_percentiles");

/// `slat_percentiles`: Enable the reporting of submission latency percentiles
pub const SLAT_PERCENTILES: Key<bool> = Key::new("slat_percentiles");

/// `percentile_list`: Specify a custom list of percentiles to report for completion latency and block errors
pub const PERCENTILE_LIST: Key<Vec<f64>> = Key::new("percentile_list");

/// `significant_figures`: Significant figures for output-format set to normal
pub const SIGNIFICANT_FIGURES: Key<u64> = Key::new("significant_figures");

/// `block_latency`: Split each I/O's latency at the block layer
pub const BLOCK_LATENCY: Key<bool> = Key::new("block_latency");

/// `disk_util`: Log disk utilization statistics
pub const DISK_UTIL: Key<bool> = Key::new("disk_util");

/// `gtod_reduce`: Greatly reduce number of gettimeofday() calls
pub const GTOD_REDUCE: Key<bool> = Key::new("gtod_reduce");

/// `disable_lat`: Disable latency numbers
pub const DISABLE_LAT: Key<bool> = Key::new("disable_lat");

/// `disable_clat`: Disable completion latency numbers
pub const DISABLE_CLAT: Key<bool> = Key::new("disable_clat");

/// `disable_slat`: Disable submission latency numbers
pub const DISABLE_SLAT: Key<bool> = Key::new("disable_slat");

/// `disable_bw_measurement`: Disable bandwidth logging
pub const DISABLE_BW_MEASUREMENT: Key<bool> = Key::new("disable_bw_measurement");

/// `gtod_cpu`: Set up dedicated gettimeofday() thread on this CPU
pub const GTOD_CPU: Key<u64> = Key::new("gtod_cpu");

/// `unified_rw_reporting`: Unify reporting across data direction
pub const UNIFIED_RW_REPORTING: Key<Choice> = Key::new("unified_rw_reporting");

/// `continue_on_error`: Continue on non-fatal errors during IO
pub const CONTINUE_ON_ERROR: Key<Choice> = Key::new("continue_on_error");

/// `error_dump`: Dump info on each error
pub const ERROR_DUMP: Key<bool> = Key::new("error_dump");

/// `profile`: Select a specific builtin performance test
pub const PROFILE: Key<Choice> = Key::new("profile");

/// `cgroup`: Add job to cgroup of this name
pub const CGROUP: Key<String> = Key::new("cgroup");

/// `cgroup_nodelete`: Do not delete cgroups after job completion
pub const CGROUP_NODELETE: Key<bool> = Key::new("cgroup_nodelete");

/// `cgroup_weight`: Use given weight for cgroup
pub const CGROUP_WEIGHT: Key<u64> = Key::new("cgroup_weight");

/// `uid`: Run job with this user ID
pub const UID: Key<u64> = Key::new("uid");

/// `gid`: Run job with this group ID
pub const GID: Key<u64> = Key::new("gid");

/// `kb_base`: Unit prefix interpretation for quantities of data (IEC and SI)
pub const KB_BASE: Key<Choice> = Key::new("kb_base");

/// `unit_base`: Bit multiple of result summary data (8 for byte, 1 for bit)
pub const UNIT_BASE: Key<Choice> = Key::new("unit_base");

/// `hugepage-size`: When using hugepages, specify size of each page
pub const HUGEPAGE_SIZE: Key<u64> = Key::new("hugepage-size");

/// `flow_id`: The flow index ID to use
pub const FLOW_ID: Key<u64> = Key::new("flow_id");

/// `flow`: Weight for flow control of this job
pub const FLOW: Key<u64> = Key::new("flow");

/// `flow_sleep`: How many microseconds to sleep after being held back by the flow control mechanism
pub const FLOW_SLEEP: Key<u64> = Key::new("flow_sleep");

/// `steadystate`: Define the criterion and limit to judge when a job has reached steady state
pub const STEADYSTATE: Key<String> = Key::new("steadystate");

/// `steadystate_duration`: Stop workload upon attaining steady state for specified duration
pub const STEADYSTATE_DURATION: Key<Duration> = Key::new("steadystate_duration");

/// `steadystate_ramp_time`: Delay before initiation of data collection for steady state job termination testing
pub const STEADYSTATE_RAMP_TIME: Key<Duration> = Key::new("steadystate_ramp_time");

/// `bs_is_seq_rand`: Consider any blocksize setting to be sequential,random
pub const BS_IS_SEQ_RAND: Key<bool> = Key::new("bs_is_seq_rand");

/// `softrandommap`: Set norandommap if randommap allocation fails
pub const SOFTRANDOMMAP: Key<bool> = Key::new("softrandommap");

/// `iomem_align`: IO memory buffer offset alignment
pub const IOMEM_ALIGN: Key<u64> = Key::new("iomem_align");

/// `verify_async_cpus`: Set CPUs allowed for async verify threads
pub const VERIFY_ASYNC_CPUS: Key<Vec<u32>> = Key::new("verify_async_cpus");

/// `hipri`: Set RWF_HIPRI for pwritev2/preadv2
pub const HIPRI: Key<bool> = Key::new("hipri");

/// `hipri_percentage`: Probabilistically set RWF_HIPRI for pwritev2/preadv2
pub const HIPRI_PERCENTAGE: Key<u64> = Key::new("hipri_percentage");

/// `userspace_reap`: Use alternative user-space reap implementation
pub const USERSPACE_REAP: Key<bool> = Key::new("userspace_reap");

/// `cmdprio_percentage`: Send high priority I/O this percentage of the time
pub const CMDPRIO_PERCENTAGE: Key<[Option<i64>; 3]> = Key::new("cmdprio_percentage");

/// `cmdprio_class`: Set asynchronous IO priority class
pub const CMDPRIO_CLASS: Key<[Option<i64>; 3]> = Key::new("cmdprio_class");

/// `cmdprio`: Set asynchronous IO priority level
pub const CMDPRIO: Key<[Option<i64>; 3]> = Key::new("cmdprio");

/// `cmdprio_bssplit`: Set priority percentages for different block sizes
pub const CMDPRIO_BSSPLIT: Key<String> = Key::new("cmdprio_bssplit");

/// `fixedbufs`: Pre map IO buffers
pub const FIXEDBUFS: Key<bool> = Key::new("fixedbufs");

/// `registerfiles`: Pre-open/register files
pub const REGISTERFILES: Key<bool> = Key::new("registerfiles");

/// `sqthread_poll`: Offload submission/completion to kernel thread
pub const SQTHREAD_POLL: Key<bool> = Key::new("sqthread_poll");

/// `sqthread_poll_cpu`: What CPU to run SQ thread polling on
pub const SQTHREAD_POLL_CPU: Key<u64> = Key::new("sqthread_poll_cpu");

/// `nonvectored`: Use non-vectored read/write commands
pub const NONVECTORED: Key<i64> = Key::new("nonvectored");

/// `uncached`: Use RWF_UNCACHED for buffered read/writes
pub const UNCACHED: Key<u64> = Key::new("uncached");

/// `nowait`: Set RWF_NOWAIT for pwritev2/preadv2
pub const NOWAIT: Key<bool> = Key::new("nowait");

/// `force_async`: Set IOSQE_ASYNC every N requests
pub const FORCE_ASYNC: Key<u64> = Key::new("force_async");

/// `cmd_type`: Specify uring-cmd type
pub const CMD_TYPE: Key<Choice> = Key::new("cmd_type");

/// `thp`: Memory Advise Huge Page
pub const THP: Key<u64> = Key::new("thp");

/// `hostname`: Hostname for net IO engine
pub const HOSTNAME: Key<String> = Key::new("hostname");

/// `port`: Port to use for TCP or UDP net connections
pub const PORT: Key<u64> = Key::new("port");

/// `protocol`: Network protocol to use
pub const PROTOCOL: Key<Choice> = Key::new("protocol");

/// `nodelay`: Use TCP_NODELAY on TCP connections
pub const NODELAY: Key<bool> = Key::new("nodelay");

/// `listen`: Listen for incoming TCP connections
pub const LISTEN: Key<bool> = Key::new("listen");

/// `pingpong`: Ping-pong IO requests
pub const PINGPONG: Key<bool> = Key::new("pingpong");

/// `interface`: Network interface to use
pub const INTERFACE: Key<String> = Key::new("interface");

/// `ttl`: Time-to-live value for outgoing UDP multicast packets
pub const TTL: Key<u64> = Key::new("ttl");

/// `window_size`: Set socket buffer window size
pub const WINDOW_SIZE: Key<u64> = Key::new("window_size");

/// `mss`: Set TCP maximum segment size
pub const MSS: Key<u64> = Key::new("mss");

/// `cpuload`: Use this percentage of CPU
pub const CPULOAD: Key<u64> = Key::new("cpuload");

/// `cpuchunks`: Length of the CPU burn cycles (usecs)
pub const CPUCHUNKS: Key<u64> = Key::new("cpuchunks");

/// `cpumode`: Stress mode
pub const CPUMODE: Key<Choice> = Key::new("cpumode");

/// `exit_on_io_done`: Exit when IO threads finish
pub const EXIT_ON_IO_DONE: Key<bool> = Key::new("exit_on_io_done");

/// `stat_type`: Specify stat system call type to measure lookup/getattr performance
pub const STAT_TYPE: Key<Choice> = Key::new("stat_type");

/// `uri`: Name of NBD URI
pub const URI: Key<String> = Key::new("uri");

/// `program`: Program to execute
pub const PROGRAM: Key<String> = Key::new("program");

/// `arguments`: Arguments to pass
pub const ARGUMENTS: Key<String> = Key::new("arguments");

/// `grace_time`: Grace time before sending a SIGKILL
pub const GRACE_TIME: Key<u64> = Key::new("grace_time");

/// `std_redirect`: Redirect stdout & stderr to files
pub const STD_REDIRECT: Key<bool> = Key::new("std_redirect");

/// `donorname`: File used as a block donor
pub const DONORNAME: Key<String> = Key::new("donorname");

/// `inplace`: Alloc and free space inside defrag event
pub const INPLACE: Key<u64> = Key::new("inplace");

/// `threadpool_min`: Worker threads started with the job
pub const THREADPOOL_MIN: Key<u64> = Key::new("threadpool_min");

/// `threadpool_max`: Most worker threads of the pool
pub const THREADPOOL_MAX: Key<u64> = Key::new("threadpool_max");
