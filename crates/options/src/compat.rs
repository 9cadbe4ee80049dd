//! What iomark refuses of fio 3.33, and why: the engines it does not run and the options it
//! does not act on.
//!
//! Every refusal is deliberate and has its reason here; the refusal message carries it, and
//! `docs/compatibility.md` is generated from these lists (by `iomark-manual`), so the page
//! cannot drift from what iomark does. A test checks the lists against the option table:
//! every option the table marks unsupported has a reason, here or through its engines, and
//! no reason names an option that is supported.

use crate::table;

/// One refused engine or option, with the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    /// The engine's or the option's name.
    pub name: &'static str,
    /// Why iomark refuses it, as one sentence without a final full stop.
    pub reason: &'static str,
}

const fn refuse(name: &'static str, reason: &'static str) -> Refusal {
    Refusal { name, reason }
}

/// fio 3.33's engines that iomark does not run.
pub const ENGINES: &[Refusal] = &[
    refuse("gfapi", "needs GlusterFS's libgfapi and a Gluster volume"),
    refuse("gfapi_async", "needs GlusterFS's libgfapi and a Gluster volume"),
    refuse("mtd", "needs raw flash (MTD) hardware"),
    refuse("sg", "needs SCSI generic devices (/dev/sg*), which this project cannot test"),
    refuse(
        "io_uring_cmd",
        "NVMe passthrough needs NVMe character devices (/dev/ng*), which this project cannot test",
    ),
    refuse("rdma", "needs RDMA hardware"),
    refuse("rados", "needs Ceph's librados and a Ceph cluster"),
    refuse("rbd", "needs Ceph's librbd and a Ceph cluster"),
    refuse(
        "pmemblk",
        "persistent memory through PMDK's libpmemblk, which upstream PMDK has dropped",
    ),
    refuse("dev-dax", "needs persistent memory (device DAX) hardware"),
    refuse("libpmem", "needs persistent memory hardware and PMDK's libpmem"),
];

/// Options that iomark refuses although no engine explains it.
pub const OPTIONS: &[Refusal] = &[
    refuse("zonecapacity", "a `zonemode=zbd` option: zoned block devices (ZNS, SMR) are refused, as this project has none to test on"),
    refuse("read_beyond_wp", "a `zonemode=zbd` option: zoned block devices (ZNS, SMR) are refused, as this project has none to test on"),
    refuse("max_open_zones", "a `zonemode=zbd` option: zoned block devices (ZNS, SMR) are refused, as this project has none to test on"),
    refuse("job_max_open_zones", "a `zonemode=zbd` option: zoned block devices (ZNS, SMR) are refused, as this project has none to test on"),
    refuse("ignore_zone_limits", "a `zonemode=zbd` option: zoned block devices (ZNS, SMR) are refused, as this project has none to test on"),
    refuse("zone_reset_threshold", "a `zonemode=zbd` option: zoned block devices (ZNS, SMR) are refused, as this project has none to test on"),
    refuse("zone_reset_frequency", "a `zonemode=zbd` option: zoned block devices (ZNS, SMR) are refused, as this project has none to test on"),
];

/// An option iomark runs whose random draws are not all fio 3.33's, and what differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Difference {
    /// The option (or options) concerned.
    pub name: &'static str,
    /// What differs from fio 3.33, as one sentence without a final full stop.
    pub what: &'static str,
}

const fn differ(name: &'static str, what: &'static str) -> Difference {
    Difference { name, what }
}

/// Where iomark's draws differ from fio 3.33's (every other random choice is fio's own
/// sequence; see `docs/random.md`).
pub const DRAWS: &[Difference] = &[
    differ("scramble_buffers", "fio stamps the time of day into each 512-byte sector at places that move with the time, so two fio runs write different files; iomark stamps the sector's offset and a draw of its own over the sector's first 16 bytes, and the rest of the data is fio's"),
    differ("dedupe_percentage=100", "with dedupe_mode=repeat fio repeats one 512-byte chunk over the whole file, iomark the first block"),
    differ("dedupe_global", "the jobs share their working set as in fio, but it starts from a state of iomark's own"),
    differ("trim_percentage", "fio 3.33 aborts on an assertion when the job's `rw` is not `trimwrite` or `randtrimwrite`; iomark trims in any job that writes, choosing the writes with fio's draws"),
    differ("filesize=lo-hi", "the sizes are fio's draws, but on the null engine fio 3.33 then draws random offsets over size/nrfiles rather than over the drawn size"),
];

/// Why `option` is refused, if it is: its own reason, or else the reason of its engines
/// when all of them are refused.
pub fn option_reason(option: &str) -> Option<&'static str> {
    if let Some(r) = OPTIONS.iter().find(|r| r.name == option) {
        return Some(r.reason);
    }
    let def = table::find(option)?;
    let bound = !def.engines.is_empty() && def.engines.iter().all(|e| engine_reason(e).is_some());
    bound.then_some("an option of an engine iomark does not run")
}

/// Why `engine` is refused, if it is one of fio's that iomark does not run.
pub fn engine_reason(engine: &str) -> Option<&'static str> {
    ENGINES.iter().find(|r| r.name == engine).map(|r| r.reason)
}
