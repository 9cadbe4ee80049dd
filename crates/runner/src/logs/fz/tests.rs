//! Tests of fio's compressed log layout: records as fio 3.33 writes them, streams of whole
//! records, and reading back what iomark and fio write.

use super::*;
use crate::logs::format::Columns;
use flate2::write::ZlibEncoder;

fn rows() -> Vec<LogRow> {
    (0..50u64)
        .map(|i| LogRow {
            time_ms: i / 7,
            value: 1_000 + i * 37,
            dir: (i % 3) as u8,
            bs: 4096 << (i % 2),
            offset: i * 8192,
            prio: if i % 4 == 0 { 0x2003 } else { 0x4004 },
        })
        .collect()
}

fn inflated(bytes: &[u8]) -> (String, Result<(), InflateError>) {
    let mut out = Vec::new();
    let r = inflate(&mut &bytes[..], &mut out);
    (String::from_utf8(out).expect("text"), r)
}

fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
    z.write_all(bytes).unwrap();
    z.finish().unwrap()
}

/// Compressed files written through [`FzFile`] with `chunk`, read back.
fn written(chunk: Option<usize>, columns: Columns, epoch_ms: u64) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j_clat.1.log.fz");
    let mut fz = FzFile::new(LogFile::create(path.clone(), false).unwrap(), chunk);
    for part in rows().chunks(16) {
        for row in part {
            fz.push(|out| encode(out, row, epoch_ms, columns)).unwrap();
        }
        fz.end_chunk().unwrap();
    }
    fz.finish().unwrap();
    std::fs::read(path).unwrap()
}

#[test]
fn records_read_back_as_the_text_log() {
    for offset in [false, true] {
        for prio_hex in [false, true] {
            let columns = Columns { offset, prio_hex };
            for chunk in [None, Some(100), Some(1024), Some(1 << 20)] {
                let mut expected = String::new();
                for row in rows() {
                    format::row(&mut expected, &row, 1_700_000_000_000, columns);
                }
                let (text, r) = inflated(&written(chunk, columns, 1_700_000_000_000));
                assert!(r.is_ok(), "{r:?}");
                assert_eq!(text, expected, "{columns:?}, chunk {chunk:?}");
            }
        }
    }
}

/// Every stream holds whole records, no more than `log_compression` bytes of them.
#[test]
fn streams_hold_whole_records_up_to_the_chunk_size() {
    let columns = Columns { offset: true, prio_hex: false };
    for (chunk, per_stream) in [(Some(100), 2), (Some(400), 10), (None, 16)] {
        let mut bytes = &written(chunk, columns, 0)[..];
        let mut sizes = Vec::new();
        while !bytes.is_empty() {
            let mut raw = Vec::new();
            flate2::bufread::ZlibDecoder::new(&mut bytes).read_to_end(&mut raw).unwrap();
            sizes.push(raw.len());
        }
        assert!(sizes.iter().all(|s| s % RECORD_WITH_OFFSET == 0), "{chunk:?}: {sizes:?}");
        assert_eq!(sizes[0], per_stream * RECORD_WITH_OFFSET, "{chunk:?}: {sizes:?}");
        assert_eq!(sizes.iter().sum::<usize>(), 50 * RECORD_WITH_OFFSET);
    }
}

/// Bytes of a file fio 3.33 wrote (`--write_lat_log`, `--log_offset=1`, `--log_prio=1`,
/// `--log_store_compressed=1`): its first records, as `fio --inflate-log` prints them.
#[test]
fn fios_records_read_as_fio_prints_them() {
    let hex = [
        "0000000000000000 6003020000000000 000000c0 03200000 0010000000000000 00f0000000000000",
        "0000000000000000 5523000000000000 010000c0 04400000 0010000000000000 00d00b0000000000",
    ]
    .concat()
    .replace(' ', "");
    let raw: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    // The empty stream fio writes between some chunks.
    let mut file = zlib(&raw);
    file.extend([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
    let (text, r) = inflated(&file);
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(text, "0, 131936, 0, 4096, 61440, 0x2003\n0, 9045, 1, 4096, 774144, 0x4004\n");
    // Without the flags: the direction word as it is, the class-1 priority as 1.
    let plain: Vec<u8> = [0u64.to_le_bytes(), 4707u64.to_le_bytes()]
        .concat()
        .into_iter()
        .chain(0u32.to_le_bytes())
        .chain(0x2003u32.to_le_bytes())
        .chain(4096u64.to_le_bytes())
        .chain([7; 5])
        .collect();
    let (text, _) = inflated(&zlib(&plain));
    assert_eq!(text, "0, 4707, 0, 4096, 1\n", "a cut record at the end is dropped");
}

#[test]
fn text_streams_are_copied_and_bad_input_is_an_error_after_what_was_read() {
    let lines = "10, 0, 4096, 1, 0, 2\n10, 1, 4096, 0, 3, 0\n";
    let mut file = zlib(lines.as_bytes());
    file.extend(zlib(lines.as_bytes()));
    let (text, r) = inflated(&file);
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(text, lines.repeat(2));
    file.extend(b"not zlib at all");
    let (text, r) = inflated(&file);
    assert_eq!(text, lines.repeat(2), "what was read comes first");
    let at = zlib(lines.as_bytes()).len() as u64 * 2;
    assert!(matches!(r, Err(InflateError::NotZlib { at: a, .. }) if a == at), "{r:?}");
    assert!(matches!(inflated(b"").1, Err(InflateError::Empty)));
    let (text, r) = inflated(b"hello\n");
    assert!(text.is_empty() && matches!(r, Err(InflateError::NotZlib { at: 0, .. })), "{r:?}");
}

#[test]
fn a_log_without_rows_is_one_empty_stream() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j_slat.1.log.fz");
    let mut fz = FzFile::new(LogFile::create(path.clone(), false).unwrap(), None);
    fz.end_chunk().unwrap();
    fz.finish().unwrap();
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes, zlib(b""));
    let (text, r) = inflated(&bytes);
    assert!(text.is_empty() && r.is_ok(), "{r:?}");
}
