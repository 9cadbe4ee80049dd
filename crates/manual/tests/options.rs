//! What the option table prints: `--cmdhelp=all` lists fio 3.33's options in fio's order,
//! `--cmdhelp=NAME` and `--enghelp` print fio's blocks, and the generated `docs/options.md`
//! and `docs/compatibility.md` are fresh.
//!
//! Where fio is installed, the texts are also checked against `fio --cmdhelp=all` and
//! `fio --enghelp`; without fio those tests say so and pass.

use iomark_manual::{cmdhelp, docs};
use iomark_options::table;
use std::process::Command;

mod common;

/// Every option that fio 3.33's `fio --cmdhelp=all` lists, in its order.
const FIO_3_33_OPTIONS: [&str; 217] = [
    "description",
    "name",
    "wait_for",
    "filename",
    "lockfile",
    "directory",
    "filename_format",
    "unique_filename",
    "opendir",
    "rw",
    "bs",
    "ba",
    "bsrange",
    "bssplit",
    "bs_unaligned",
    "randrepeat",
    "randseed",
    "norandommap",
    "ignore_error",
    "rw_sequencer",
    "ioengine",
    "iodepth",
    "iodepth_batch",
    "iodepth_batch_complete_min",
    "iodepth_batch_complete_max",
    "iodepth_low",
    "serialize_overlap",
    "io_submit_mode",
    "size",
    "io_size",
    "fill_device",
    "filesize",
    "file_append",
    "offset",
    "offset_increment",
    "offset_align",
    "number_ios",
    "random_generator",
    "random_distribution",
    "percentage_random",
    "allrandrepeat",
    "nrfiles",
    "file_service_type",
    "openfiles",
    "fallocate",
    "fadvise_hint",
    "fsync",
    "fdatasync",
    "write_barrier",
    "sync_file_range",
    "direct",
    "atomic",
    "buffered",
    "overwrite",
    "loops",
    "numjobs",
    "startdelay",
    "runtime",
    "time_based",
    "verify_only",
    "ramp_time",
    "clocksource",
    "mem",
    "verify",
    "do_verify",
    "verify_interval",
    "verify_offset",
    "verify_pattern",
    "verify_fatal",
    "verify_dump",
    "verify_async",
    "verify_backlog",
    "verify_backlog_batch",
    "experimental_verify",
    "verify_state_load",
    "verify_state_save",
    "trim_percentage",
    "trim_verify_zero",
    "trim_backlog",
    "trim_backlog_batch",
    "write_iolog",
    "read_iolog",
    "read_iolog_chunked",
    "replay_no_stall",
    "replay_redirect",
    "replay_scale",
    "replay_align",
    "replay_time_scale",
    "replay_skip",
    "merge_blktrace_file",
    "merge_blktrace_scalars",
    "merge_blktrace_iters",
    "exec_prerun",
    "exec_postrun",
    "ioscheduler",
    "zonemode",
    "zonesize",
    "zonecapacity",
    "zonerange",
    "zoneskip",
    "read_beyond_wp",
    "max_open_zones",
    "job_max_open_zones",
    "ignore_zone_limits",
    "zone_reset_threshold",
    "zone_reset_frequency",
    "lockmem",
    "rwmixread",
    "rwmixwrite",
    "nice",
    "prio",
    "prioclass",
    "thinktime",
    "thinktime_spin",
    "thinktime_blocks",
    "thinktime_blocks_type",
    "thinktime_iotime",
    "rate",
    "rate_min",
    "rate_process",
    "rate_cycle",
    "rate_ignore_thinktime",
    "rate_iops",
    "rate_iops_min",
    "max_latency",
    "latency_target",
    "latency_window",
    "latency_percentile",
    "latency_run",
    "invalidate",
    "sync",
    "write_hint",
    "create_serialize",
    "create_fsync",
    "create_on_open",
    "create_only",
    "allow_file_create",
    "allow_mounted_write",
    "pre_read",
    "cpumask",
    "cpus_allowed",
    "cpus_allowed_policy",
    "numa_cpu_nodes",
    "numa_mem_policy",
    "end_fsync",
    "fsync_on_close",
    "unlink",
    "unlink_each_loop",
    "exitall",
    "exit_what",
    "exitall_on_error",
    "stonewall",
    "new_group",
    "thread",
    "per_job_logs",
    "write_bw_log",
    "bwavgtime",
    "write_lat_log",
    "write_iops_log",
    "iopsavgtime",
    "log_entries",
    "log_avg_msec",
    "log_hist_msec",
    "log_hist_coarseness",
    "write_hist_log",
    "log_max_value",
    "log_offset",
    "log_prio",
    "log_compression",
    "log_compression_cpus",
    "log_store_compressed",
    "log_unix_epoch",
    "log_alternate_epoch",
    "log_alternate_epoch_clock_id",
    "block_error_percentiles",
    "group_reporting",
    "stats",
    "zero_buffers",
    "refill_buffers",
    "scramble_buffers",
    "buffer_pattern",
    "buffer_compress_percentage",
    "buffer_compress_chunk",
    "dedupe_percentage",
    "dedupe_mode",
    "dedupe_working_set_percentage",
    "dedupe_global",
    "clat_percentiles",
    "lat_percentiles",
    "slat_percentiles",
    "percentile_list",
    "significant_figures",
    "disk_util",
    "gtod_reduce",
    "disable_lat",
    "disable_clat",
    "disable_slat",
    "disable_bw_measurement",
    "gtod_cpu",
    "unified_rw_reporting",
    "continue_on_error",
    "error_dump",
    "profile",
    "cgroup",
    "cgroup_nodelete",
    "cgroup_weight",
    "uid",
    "gid",
    "kb_base",
    "unit_base",
    "hugepage-size",
    "flow_id",
    "flow",
    "flow_sleep",
    "steadystate",
    "steadystate_duration",
    "steadystate_ramp_time",
];

/// The engines whose options the table holds, with the options `fio --enghelp` lists for them.
const ENGINES_WITH_OPTIONS: [&str; 11] = [
    "pvsync2",
    "io_uring",
    "io_uring_cmd",
    "libaio",
    "mmap",
    "net",
    "netsplice",
    "cpuio",
    "filestat",
    "exec",
    "e4defrag",
];

/// The output of `fio ARGS`, or `None` (with a message) when fio is not installed.
fn fio(args: &[&str]) -> Option<String> {
    match Command::new("fio").args(args).output() {
        Ok(out) => Some(String::from_utf8_lossy(&out.stdout).into_owned()),
        Err(_) => {
            println!("skipped: fio not installed");
            None
        }
    }
}

/// Whether the installed fio is the version the table follows.
fn fio_is_3_33() -> bool {
    fio(&["--version"]).is_some_and(|v| v.trim() == "fio-3.33")
}

#[test]
fn every_option_of_fio_3_33_is_in_the_table_in_order() {
    let mut last = 0;
    for name in FIO_3_33_OPTIONS {
        let def = table::find(name).unwrap_or_else(|| panic!("'{name}' is missing"));
        assert_eq!(def.name, name, "'{name}' is an alias of '{}'", def.name);
        assert!(def.engines.is_empty(), "'{name}' is not a general option");
        let at = table::index_of(def);
        assert!(at >= last, "'{name}' is out of fio's order");
        last = at;
    }
}

#[test]
fn cmdhelp_all_lists_every_general_row_and_enghelp_every_engine_row() {
    let all = cmdhelp::cmdhelp_all();
    let listed: Vec<&str> =
        all.lines().filter_map(|l| l.split(':').next()).map(str::trim).collect();
    for name in FIO_3_33_OPTIONS {
        assert!(listed.contains(&name), "cmdhelp_all() lacks {name}");
    }
    assert_eq!(listed.len(), FIO_3_33_OPTIONS.len());
    for def in table::all() {
        if def.engines.is_empty() {
            let shown = listed.contains(&def.name);
            assert!(shown || cmdhelp::cmdhelp_one(def.name).is_some(), "{} is not shown", def.name);
        }
        for engine in def.engines {
            let text = cmdhelp::enghelp(engine).expect("engine is known");
            assert!(
                text.lines().any(|l| l.split(':').next().map(str::trim) == Some(def.name)),
                "enghelp({engine}) lacks {}",
                def.name
            );
        }
    }
}

#[test]
fn cmdhelp_one_prints_fio_block_and_iomark_additions() {
    let bs = cmdhelp::cmdhelp_one("blocksize").expect("bs by its alias");
    assert!(
        bs.starts_with("                  bs: Block size unit\n               alias: blocksize\n")
    );
    assert!(bs.contains("             default: 4096\n"));
    assert!(!bs.contains("not supported yet"));
    let verify = cmdhelp::cmdhelp_one("verify").expect("verify");
    assert!(verify.contains("        valid values: 0          Don't do IO verification\n"));
    let refused = cmdhelp::cmdhelp_one("zonecapacity").expect("refused option");
    assert!(refused.contains("             support: not supported yet\n"));
    assert_eq!(cmdhelp::cmdhelp_one("no_such_option"), None);
}

#[test]
fn fio_cmdhelp_all_options_are_in_the_table() {
    let Some(text) = fio(&["--cmdhelp=all"]) else { return };
    let mut count = 0;
    for line in text.lines() {
        let name = line.split(':').next().map(str::trim).unwrap_or_default();
        assert!(table::find(name).is_some(), "fio lists '{name}', the table lacks it");
        count += 1;
    }
    assert!(count > 200, "fio listed only {count} options");
    if fio_is_3_33() {
        assert_eq!(cmdhelp::cmdhelp_all(), text, "cmdhelp_all() differs from fio 3.33");
    }
}

#[test]
fn fio_enghelp_matches_for_every_engine_with_options() {
    if fio(&["--version"]).is_none() || !fio_is_3_33() {
        println!("skipped: fio 3.33 not installed");
        return;
    }
    for engine in ENGINES_WITH_OPTIONS.iter().chain(&["null", "sync", "psync", "posixaio"]) {
        let theirs = fio(&[&format!("--enghelp={engine}")]).unwrap_or_default();
        assert_eq!(
            cmdhelp::enghelp(engine).as_deref(),
            Some(theirs.as_str()),
            "--enghelp={engine}"
        );
    }
}

#[test]
fn docs_options_md_is_fresh() {
    common::assert_fresh(
        "docs/options.md",
        &docs::options_markdown(),
        "IOMARK_BLESS=1 cargo test -p iomark-manual docs_options_md_is_fresh",
    );
}

#[test]
fn compatibility_md_is_fresh() {
    common::assert_fresh(
        "docs/compatibility.md",
        &docs::compatibility_markdown(),
        "IOMARK_BLESS=1 cargo test -p iomark-manual --test options compatibility_md_is_fresh",
    );
}
