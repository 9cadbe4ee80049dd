//! The page decoder on pages written by hand in the kernel's layout.

use super::*;

/// An entry header: `type_len` in the low 5 bits, the time delta above.
fn word(kind: u32, delta: u32) -> [u8; 4] {
    ((delta << 5) | kind).to_le_bytes()
}

/// A page: time stamp, commit (with `flags`), the entries, and `tail` after them.
fn page(ts: u64, flags: u64, entries: &[u8], tail: &[u8]) -> Vec<u8> {
    let mut p = ts.to_le_bytes().to_vec();
    p.extend_from_slice(&(entries.len() as u64 | flags).to_le_bytes());
    p.extend_from_slice(entries);
    p.extend_from_slice(tail);
    p.resize(4096, 0);
    p
}

fn all(h: &Header, p: &[u8]) -> (Vec<(u64, Vec<u8>)>, Got) {
    let mut out = Vec::new();
    let got = decode(h, p, &mut |r: Raw<'_>| out.push((r.time, r.data.to_vec())));
    (out, got)
}

#[test]
fn short_and_long_records_time_extends_stamps_and_padding() {
    let mut e = Vec::new();
    // A record of 8 bytes, 5 ns after the page's stamp.
    e.extend_from_slice(&word(2, 5));
    e.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]);
    // A time extend of (1 << 27) + 3, then a record of 4 bytes 2 ns later.
    e.extend_from_slice(&word(TIME_EXTEND, 3));
    e.extend_from_slice(&1u32.to_le_bytes());
    e.extend_from_slice(&word(1, 2));
    e.extend_from_slice(&[2, 0, 0, 0]);
    // A discarded record (padding with its delta; its length counts from the length
    // word: 4 + 8 bytes), then a long record.
    e.extend_from_slice(&word(PADDING, 10));
    e.extend_from_slice(&12u32.to_le_bytes());
    e.extend_from_slice(&[0; 8]);
    e.extend_from_slice(&word(0, 1));
    e.extend_from_slice(&(4 + 6u32).to_le_bytes());
    e.extend_from_slice(&[3, 0, 9, 9, 9, 9, 0, 0]);
    // An absolute stamp, then a record at it.
    e.extend_from_slice(&word(TIME_STAMP, 7));
    e.extend_from_slice(&2u32.to_le_bytes());
    e.extend_from_slice(&word(1, 0));
    e.extend_from_slice(&[4, 0, 0, 0]);
    // Padding without a delta: the rest of the page is empty.
    e.extend_from_slice(&word(PADDING, 0));
    let (recs, got) = all(&Header::default(), &page(1000, 0, &e, &word(1, 1)));
    let t2 = 1005 + (1 << 27) + 3 + 2;
    let times: Vec<u64> = recs.iter().map(|r| r.0).collect();
    assert_eq!(times, vec![1005, t2, t2 + 10 + 1, (2 << 27) | 7]);
    assert_eq!(recs[2].1, vec![3, 0, 9, 9, 9, 9, 0, 0]);
    assert_eq!(got, Got { records: 4, missed: 0 });
}

#[test]
fn dropped_records_are_counted_from_the_page_and_the_stats() {
    let e = [word(1, 1).as_slice(), &[5, 0, 0, 0]].concat();
    let stored = page(0, MISSED_EVENTS | MISSED_STORED, &e, &42u64.to_le_bytes());
    assert_eq!(all(&Header::default(), &stored).1, Got { records: 1, missed: 42 });
    let unknown = page(0, MISSED_EVENTS, &e, &[]);
    assert_eq!(all(&Header::default(), &unknown).1, Got { records: 1, missed: 1 });
    let stats = "entries: 3\noverrun: 2\ncommit overrun: 0\ndropped events: 5\nread events: 9\n";
    assert_eq!(dropped(stats), 7);
}

#[test]
fn the_header_layout_is_read_from_header_page() {
    let text = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n\
        \tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n\
        \tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n\
        \tfield: char data;\toffset:12;\tsize:4084;\tsigned:0;\n";
    assert_eq!(header(text), Header { commit: 8, commit_size: 4, data: 12 });
    assert_eq!(header(""), Header::default());
}
