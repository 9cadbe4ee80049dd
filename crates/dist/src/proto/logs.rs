//! A job's log file over the protocol (`IOLOG`, server to client), as fio 3.33 lays it
//! out (learnt from captures): a 288-byte head, then the log's binary records, zlib
//! compressed when the client's probe said it takes zlib.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | records |
//! | 8..12 | the job's number, from 1 |
//! | 12..16 | kind: 1 latency, 4 bandwidth, 5 IOPS, 6 histogram |
//! | 16..20 | 1 when compressed |
//! | 20..24 | 1 when the records have offsets (`log_offset`; fio's server leaves it 0) |
//! | 24..28 | 0 (fio's `log_prio`; each record says) |
//! | 28..32 | `log_hist_coarseness`, applied by the client |
//! | 32..288 | the file's name, NUL-terminated |
//!
//! A record is a log row as fio's `log_store_compressed` files hold them (see the runner's
//! `fz`): 32 bytes, or 40 with an offset. A histogram record is such a record (its value
//! unused), 16 unused bytes and fio's 1856 bins, each a u64; the client coarsens them.
//! The client writes the text of the log to `NAME.HOST`.

use super::messages::{c_str, u32_at, Le};
use iomark_stats::log::fio_hist::{coarse_bins, coarsen, FIO_HIST_BINS};
use std::io::{Read, Write};

/// The head of an `IOLOG`.
const HEAD: usize = 288;
/// A histogram record: a row's 32 bytes, 16 unused, the bins.
const HIST_RECORD: usize = 48 + 8 * FIO_HIST_BINS;
/// The largest log iomark's client takes (after decompression).
pub const MAX_LOG: u64 = 1 << 30;

/// Flag of the direction word: the record carries an offset.
const FLAG_OFFSET: u32 = 1 << 31;
/// Flag of the direction word: the priority is printed in hex.
const FLAG_PRIO_HEX: u32 = 1 << 30;

/// The kinds of log, by fio's numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Kind {
    /// slat, clat or lat.
    Lat = 1,
    /// Bandwidth.
    Bw = 4,
    /// IOPS.
    Iops = 5,
    /// The completion latency histogram.
    Hist = 6,
}

/// The records of a log's text rows (as the runner writes them): `time, value, direction,
/// block size, [offset, ]priority`, or for a histogram `time, direction, block size,
/// bins…`.
pub fn records_of_text(text: &str, kind: Kind) -> Vec<u8> {
    let mut out = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let num = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        if kind == Kind::Hist {
            let mut rec = Le::zeros(HIST_RECORD);
            rec.u64(0, num(0));
            rec.u32(16, num(1) as u32);
            rec.u64(24, num(2));
            for b in 0..FIO_HIST_BINS.min(f.len().saturating_sub(3)) {
                rec.u64(48 + 8 * b, num(3 + b));
            }
            out.extend_from_slice(&rec.0);
            continue;
        }
        if f.len() < 5 {
            continue;
        }
        let offset = f.len() > 5;
        let prio = f[f.len() - 1];
        let (prio, hex) = match prio.strip_prefix("0x") {
            Some(h) => (u32::from_str_radix(h, 16).unwrap_or(0), true),
            // fio prints 1 for the real-time class: class 1 in the top 3 bits.
            None => (if prio == "1" { 1 << 13 } else { 0 }, false),
        };
        let mut word = num(2) as u32;
        if offset {
            word |= FLAG_OFFSET;
        }
        if hex {
            word |= FLAG_PRIO_HEX;
        }
        let mut rec = Le::zeros(if offset { 40 } else { 32 });
        rec.u64(0, num(0));
        rec.u64(8, num(1));
        rec.u32(16, word);
        rec.u32(20, prio);
        rec.u64(24, num(3));
        if offset {
            rec.u64(32, num(4));
        }
        out.extend_from_slice(&rec.0);
    }
    out
}

/// How many records `raw` holds.
fn count(raw: &[u8], kind: Kind) -> u64 {
    if kind == Kind::Hist {
        return (raw.len() / HIST_RECORD) as u64;
    }
    let (mut n, mut at) = (0, 0);
    while let Some(word) = u32_at(raw, at + 16) {
        at += if word & FLAG_OFFSET != 0 { 40 } else { 32 };
        n += 1;
    }
    n
}

/// The `IOLOG` payload of job `job`'s log `name` holding `records`.
pub fn iolog(
    job: u32,
    name: &str,
    kind: Kind,
    coarseness: u32,
    records: &[u8],
    zlib: bool,
) -> Vec<u8> {
    let mut head = Le::zeros(HEAD);
    // fio's client takes the records as `count × 32` bytes whatever their size: rows with
    // offsets (40 bytes) are counted so that it reads them all.
    let n = match kind {
        Kind::Hist => count(records, kind),
        _ => (records.len() / 32) as u64,
    };
    head.u64(0, n);
    head.u32(8, job);
    head.u32(12, kind as u32);
    head.u32(16, u32::from(zlib));
    // fio's client sizes the records by this word alone (fio's server leaves it 0, and
    // its client then loses the last fifth of a log with offsets).
    let offsets = kind != Kind::Hist && u32_at(records, 16).is_some_and(|w| w & FLAG_OFFSET != 0);
    head.u32(20, u32::from(offsets));
    head.u32(28, coarseness);
    head.str(32, HEAD - 32, name);
    let mut p = head.0;
    if zlib {
        let mut z = flate2::write::ZlibEncoder::new(p, flate2::Compression::default());
        // Writing into a Vec cannot fail.
        let _ = z.write_all(records);
        p = z.finish().unwrap_or_default();
    } else {
        p.extend_from_slice(records);
    }
    p
}

/// Why a log sent could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// Shorter than its head.
    #[error("a log of {0} bytes is too short")]
    Short(usize),
    /// Its compressed records would not inflate.
    #[error("log '{name}': {source}")]
    Inflate {
        /// The log's name.
        name: String,
        /// What zlib said.
        source: std::io::Error,
    },
    /// Larger than iomark's client takes.
    #[error("log '{0}' is larger than {MAX_LOG} bytes")]
    TooLarge(String),
}

/// A log's name and its text, from an `IOLOG` payload.
pub fn read_iolog(payload: &[u8]) -> Result<(String, String), LogError> {
    if payload.len() < HEAD {
        return Err(LogError::Short(payload.len()));
    }
    let name = c_str(&payload[32..HEAD]);
    let kind = u32_at(payload, 12).unwrap_or(0);
    let compressed = u32_at(payload, 16).unwrap_or(0) != 0;
    let coarseness = u32_at(payload, 28).unwrap_or(0);
    let body = &payload[HEAD..];
    let mut raw = Vec::new();
    let records =
        payload.get(..8).map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
    if records == 0 {
        // fio's server sends an empty log as an unfinished empty stream.
    } else if compressed {
        // fio's server may leave its stream unfinished: what inflates is taken.
        let mut z = flate2::read::ZlibDecoder::new(body).take(MAX_LOG + 1);
        if let Err(source) = z.read_to_end(&mut raw) {
            if raw.is_empty() {
                return Err(LogError::Inflate { name, source });
            }
        }
        if raw.len() as u64 > MAX_LOG {
            return Err(LogError::TooLarge(name));
        }
    } else {
        raw.extend_from_slice(body);
    }
    if kind != Kind::Hist as u32 {
        return Ok((name, iomark_runner::records_text(&raw)));
    }
    let mut text = String::new();
    let mut bins = [0u64; FIO_HIST_BINS];
    let mut coarse = vec![0u64; coarse_bins(coarseness)];
    for rec in raw.chunks_exact(HIST_RECORD) {
        let u64_at = |at: usize| u64::from_le_bytes(rec[at..at + 8].try_into().unwrap_or([0; 8]));
        for (b, slot) in bins.iter_mut().enumerate() {
            *slot = u64_at(48 + 8 * b);
        }
        coarsen(&bins, coarseness, &mut coarse);
        let dir = u32_at(rec, 16).unwrap_or(0) as u8;
        iomark_runner::hist_text(&mut text, u64_at(0), dir, u64_at(24), &coarse);
    }
    Ok((name, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_go_over_and_come_back_as_they_were() {
        let text = "0, 604129, 0, 4096, 0\n12, 20, 1, 4096, 1\n";
        let with_offset = "14, 95, 0, 0, 8192, 0x2003\n";
        for (rows, zlib) in [(text, false), (text, true), (with_offset, true)] {
            let recs = records_of_text(rows, Kind::Lat);
            let p = iolog(2, "lat_clat.2.log", Kind::Lat, 0, &recs, zlib);
            assert_eq!(u64::from_le_bytes(p[..8].try_into().unwrap()), rows.lines().count() as u64);
            assert_eq!(read_iolog(&p).unwrap(), ("lat_clat.2.log".to_string(), rows.to_string()));
        }
    }

    #[test]
    fn histograms_are_coarsened_by_the_reader() {
        let mut row = String::from("6, 1, 4096");
        for b in 0..FIO_HIST_BINS {
            row.push_str(if b == 50 || b == 51 { ", 3" } else { ", 0" });
        }
        row.push('\n');
        let recs = records_of_text(&row, Kind::Hist);
        assert_eq!(recs.len(), HIST_RECORD);
        let full = read_iolog(&iolog(1, "h_clat_hist.1.log", Kind::Hist, 0, &recs, true)).unwrap();
        assert_eq!(full.1, row);
        let (_, coarse) = read_iolog(&iolog(1, "h", Kind::Hist, 2, &recs, false)).unwrap();
        let fields: Vec<&str> = coarse.trim_end().split(", ").collect();
        assert_eq!(fields.len(), 3 + FIO_HIST_BINS / 4);
        assert_eq!(fields[3 + 12], "6");
    }

    #[test]
    fn a_bad_log_is_an_error() {
        assert!(matches!(read_iolog(&[0; 10]), Err(LogError::Short(10))));
        let mut p = iolog(1, "x", Kind::Lat, 0, &[], false);
        // One record, compressed, that is no zlib stream.
        p[0] = 1;
        p[16] = 1;
        p.extend_from_slice(b"not zlib");
        assert!(matches!(read_iolog(&p), Err(LogError::Inflate { .. })));
    }
}
