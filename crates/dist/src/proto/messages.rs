//! The small payloads, laid out as fio 3.33 lays them out (offsets from captures of its
//! server): the answer to a probe, output text, the start and stop of a run, one option
//! of a job (for the JSON report), a job's options (`ADD_JOB`, for gfio) and the
//! progress figures (`ETA`). [`Le`] writes little-endian fields at fixed offsets.

use iomark_stats::report::JobHeader;

/// A payload being laid out: zeros, with fields written at their offsets.
pub struct Le(pub Vec<u8>);

impl Le {
    /// `len` zero bytes.
    pub fn zeros(len: usize) -> Le {
        Le(vec![0; len])
    }
    /// Writes `v` at `at`.
    pub fn u32(&mut self, at: usize, v: u32) {
        self.0[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    /// Writes `v` at `at`.
    pub fn u64(&mut self, at: usize, v: u64) {
        self.0[at..at + 8].copy_from_slice(&v.to_le_bytes());
    }
    /// Writes `v` at `at` (fio's `fio_fp64_t` is a double in 16 bytes).
    pub fn f64(&mut self, at: usize, v: f64) {
        self.0[at..at + 8].copy_from_slice(&v.to_le_bytes());
    }
    /// Writes `s`, cut to leave a NUL within `room` bytes, at `at`.
    pub fn str(&mut self, at: usize, room: usize, s: &str) {
        let n = s.len().min(room.saturating_sub(1));
        self.0[at..at + n].copy_from_slice(&s.as_bytes()[..n]);
    }
}

/// Reads a little-endian `u32` at `at`, if there.
pub fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The text of a NUL-terminated field.
pub fn c_str(b: &[u8]) -> String {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..end]).into_owned()
}

/// The answer to a probe: who this server is (`hostname=vm, be=0, 64-bit, os=Linux,
/// arch=x86-64, fio=fio-3.33, flags=0` in fio's client). iomark offers no zlib (flags 0).
pub fn probe_reply(hostname: &str, version: &str, cpus: u32) -> Vec<u8> {
    let mut p = Le::zeros(112);
    p.str(0, 64, hostname);
    // Byte 64: big-endian (0).
    p.str(65, 32, version);
    p.0[97] = 1; // Linux
    p.0[98] = 1; // x86-64
    p.0[99] = 8; // bytes per pointer
    p.u32(100, cpus);
    p.0
}

/// Text for the client to print, at fio's "info" level, stamped `now` (s, µs).
pub fn text(s: &str, now: (u64, u64)) -> Vec<u8> {
    let mut p = Le::zeros(24 + s.len());
    p.u32(0, 2);
    p.u32(4, s.len() as u32);
    p.u64(8, now.0);
    p.u64(16, now.1);
    p.0[24..].copy_from_slice(s.as_bytes());
    p.0
}

/// The text of a text message.
pub fn text_of(payload: &[u8]) -> Option<String> {
    let len = u32_at(payload, 4)? as usize;
    Some(String::from_utf8_lossy(payload.get(24..24 + len)?).into_owned())
}

/// How many jobs a run starts, and how many reports each prints.
pub fn start(jobs: u32) -> Vec<u8> {
    let mut p = Le::zeros(8);
    p.u32(0, jobs);
    p.u32(4, 1);
    p.0
}

/// The end of a run: its error (an errno) and the signal that stopped it, if any.
pub fn stop(error: i32, signal: u32) -> Vec<u8> {
    let mut p = Le::zeros(8);
    p.u32(0, error as u32);
    p.u32(4, signal);
    p.0
}

/// One option of a job (`name=value`), for the client's JSON `job options`.
pub fn job_opt(name: &str, value: &str) -> Vec<u8> {
    let mut p = Le::zeros(200);
    p.str(8, 64, name);
    p.str(72, 128, value);
    p.0
}

/// The job file of a `JOB` message: its length, then the text.
pub fn job_text(payload: &[u8]) -> Option<String> {
    let len = u32_at(payload, 0)? as usize;
    let text = payload.get(8..(8 + len).min(payload.len()))?;
    Some(c_str(text))
}

/// A `JOBLINE` message: command-line arguments for the server, as fio 3.33's client
/// sends them (a u16 count, a u16 kind, 1, then each argument as a u16 length and its
/// bytes with their NUL); the first is the program's name, `fio`.
pub fn job_line(args: &[String]) -> Vec<u8> {
    let mut p = (args.len() as u16).to_le_bytes().to_vec();
    p.extend_from_slice(&1u16.to_le_bytes());
    for a in args {
        p.extend_from_slice(&(a.len() as u16 + 1).to_le_bytes());
        p.extend_from_slice(a.as_bytes());
        p.push(0);
    }
    p
}

/// The arguments of a `JOBLINE` message, if it is whole.
pub fn job_line_args(payload: &[u8]) -> Option<Vec<String>> {
    let u16_at = |at: usize| Some(u16::from_le_bytes(payload.get(at..at + 2)?.try_into().ok()?));
    let count = u16_at(0)?;
    let mut at = 4;
    let mut args = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        let len = usize::from(u16_at(at)?);
        args.push(c_str(payload.get(at + 2..at + 2 + len)?));
        at += 2 + len;
    }
    Some(args)
}

/// The path of a `LOAD_FILE` message (`--remote-config`): its length (u16), the client's
/// kind (u16), then the path.
pub fn load_file_path(payload: &[u8]) -> Option<String> {
    let len = u16::from_le_bytes(payload.get(0..2)?.try_into().ok()?) as usize;
    Some(c_str(payload.get(4..(4 + len).min(payload.len()))?))
}

/// A `LOAD_FILE` message for `path`.
pub fn load_file(path: &str) -> Vec<u8> {
    let mut p = (path.len() as u16).to_le_bytes().to_vec();
    p.extend_from_slice(&1u16.to_le_bytes());
    p.extend_from_slice(path.as_bytes());
    p.push(0);
    p
}

/// The number fio gives a `rw` pattern in a job's options.
fn rw_number(rw: &str) -> u32 {
    match rw {
        "read" => 1,
        "write" => 2,
        "rw" | "readwrite" => 3,
        "randread" => 5,
        "randwrite" => 6,
        "randrw" => 7,
        "trim" => 8,
        "randtrim" => 12,
        "trimwrite" => 18,
        _ => 0,
    }
}

/// A job's options (`ADD_JOB`), which gfio shows: fio 3.33's defaults with the job's
/// number, group, name, engine, pattern, size, depth and block sizes.
pub fn add_job(number: u32, group: u32, name: &str, size: u64, header: &JobHeader) -> Vec<u8> {
    let mut p = Le::zeros(25_824);
    for &(at, v) in ADD_JOB_DEFAULTS {
        p.u64(at, v);
    }
    p.u32(0, number);
    p.u32(4, group);
    p.str(328, 256, name);
    p.str(1864, 64, &header.ioengine);
    p.u32(2376, rw_number(&header.rw));
    p.u32(2404, header.iodepth);
    p.u32(2408, header.iodepth);
    p.u64(2432, size);
    for (d, &(min, max)) in header.bs.iter().enumerate() {
        // bs, ba, min, max per direction.
        p.u64(2520 + 8 * d, max);
        p.u64(2544 + 8 * d, min);
        p.u64(2568 + 8 * d, min);
        p.u64(2592 + 8 * d, max);
    }
    p.0
}

/// The progress figures (`ETA`): jobs running, the rates now (KiB/s, IOPS per direction),
/// seconds elapsed, and fio's run string (`W(1)`).
pub fn eta(running: u32, rate_kib: [u64; 3], iops: [u32; 3], elapsed_s: u64, run: &str) -> Vec<u8> {
    let mut p = Le::zeros(168 + run.len() + 1);
    p.u32(0, running);
    for d in 0..3 {
        p.u64(64 + 8 * d, rate_kib[d]);
        p.u32(112 + 4 * d, iops[d]);
    }
    p.u64(128, elapsed_s);
    p.u32(144, 1);
    p.u32(148, 4);
    p.u32(152, 4);
    p.u32(156, running);
    p.u32(160, running);
    p.0[168..168 + run.len()].copy_from_slice(run.as_bytes());
    p.0
}

/// The words of fio 3.33's `ADD_JOB` payload for a job with its defaults that are not
/// zero (offset, little-endian value), from a capture; [`add_job`] writes the job's own
/// fields over them.
const ADD_JOB_DEFAULTS: &[(usize, u64)] = &[
    (1352, 0x656d616e626f6a24),
    (1360, 0x6d756e626f6a242e),
    (1368, 0x756e656c6966242e),
    (1376, 0x6d),
    (2384, 0x400000400),
    (2392, 0x1),
    (2400, 0x100000000),
    (2408, 0x100000001),
    (2416, 0x100000001),
    (2472, 0x1),
    (7248, 0x100000000),
    (7256, 0x1),
    (7272, 0x100000001),
    (7280, 0x1),
    (7312, 0x1),
    (7888, 0x1),
    (7896, 0x1),
    (7904, 0x8900000000),
    (20352, 0x6400000000),
    (20360, 0x6400000064),
    (20368, 0x100000200000),
    (20440, 0x47ae147b00000000),
    (20448, 0x3f847ae1),
    (20456, 0x100000000),
    (20464, 0x1f4000001f4),
    (20472, 0x1),
    (20528, 0x1),
    (20536, 0x100000000),
    (20560, 0x3200000000),
    (20568, 0x32),
    (20584, 0x200000000),
    (20592, 0x100000000),
    (20600, 0x400000001),
    (20616, 0x1),
    (21136, 0x20000000000),
    (21152, 0x5),
    (21208, 0x1),
    (21216, 0x100000000),
    (21232, 0x2),
    (21240, 0x3ff0000000000000),
    (21256, 0x4014000000000000),
    (21272, 0x4024000000000000),
    (21288, 0x4034000000000000),
    (21304, 0x403e000000000000),
    (21320, 0x4044000000000000),
    (21336, 0x4049000000000000),
    (21352, 0x404e000000000000),
    (21368, 0x4051800000000000),
    (21384, 0x4054000000000000),
    (21400, 0x4056800000000000),
    (21416, 0x4057c00000000000),
    (21432, 0x4058c00000000000),
    (21448, 0x4058e00000000000),
    (21464, 0x4058f9999999999a),
    (21480, 0x4058fccccccccccd),
    (21496, 0x4058ff5c28f5c28f),
    (24784, 0x1),
    (24840, 0x3e800000000),
    (25664, 0xffffffffffffffff),
    (25736, 0x4059000000000000),
    (25768, 0x4),
    (25776, 0x100000000),
    (25784, 0x64),
    (25792, 0x100000001),
    (25800, 0x100000000),
    (25816, 0x400),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_line_is_laid_out_as_fios() {
        // fio 3.33's client, `--client=h --output-format=terse job.fio` (captured).
        let fio = b"\x02\x00\x01\x00\x04\x00fio\x00\x16\x00--output-format=terse\x00";
        let args = vec!["fio".to_string(), "--output-format=terse".to_string()];
        assert_eq!(job_line(&args), fio);
        assert_eq!(job_line_args(fio), Some(args));
        assert_eq!(job_line_args(&fio[..20]), None);
    }
}
