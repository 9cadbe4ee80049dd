//! The matcher on records written by hand: plain, merged, split, cached, unmatched.

use super::*;

const DEV: u32 = 7 << 20;

fn ev(kind: Kind, sector: u64, nr: u32, time: u64) -> Event {
    Event { kind, dev: DEV, sector, nr, time, op: Some(Ddir::Read) }
}

fn io(sector: u64, nr: u64, issue: u64, done: u64) -> MappedIo {
    MappedIo {
        dir: Ddir::Read,
        ranges: vec![Range { dev: DEV, sector, nr }],
        issue,
        done,
        direct: true,
    }
}

/// The request life of one bio: Q, D, C at these times.
fn life(m: &mut Matcher, sector: u64, nr: u32, [q, d, c]: [u64; 3]) {
    m.add(ev(Kind::Queue, sector, nr, q));
    m.add(ev(Kind::Issue, sector, nr, d));
    m.add(ev(Kind::Complete, sector, nr, c));
}

fn read_segments(m: &Matcher) -> [(u64, f64); 4] {
    let r = m.rec.report(&Default::default());
    let read = r.dirs[0].clone().expect("a read was matched");
    read.segments().map(|(_, s)| (s.n, s.mean))
}

#[test]
fn a_plain_io_splits_into_four_segments_that_add_up_to_clat() {
    let mut m = Matcher::default();
    life(&mut m, 800, 8, [11_000, 13_000, 40_000]);
    m.io(&io(800, 8, 10_000, 41_500));
    assert_eq!(read_segments(&m), [(1, 1_000.0), (1, 2_000.0), (1, 27_000.0), (1, 1_500.0)]);
    let c = m.rec.counts;
    assert_eq!((c.ios, c.matched, c.merged, c.split, c.unmatched), (1, 1, 0, 0, 0));
}

#[test]
fn an_insert_before_the_issue_is_counted() {
    let mut m = Matcher::default();
    m.add(ev(Kind::Queue, 8, 8, 100));
    m.add(ev(Kind::Insert, 8, 8, 200));
    m.add(ev(Kind::Issue, 8, 8, 900));
    m.add(ev(Kind::Complete, 8, 8, 5_000));
    m.io(&io(8, 8, 50, 6_000));
    assert_eq!(m.rec.counts.inserted, 1);
    assert_eq!(read_segments(&m)[1], (1, 800.0));
}

#[test]
fn two_ios_merged_into_one_request_both_match_and_count_as_merged() {
    let mut m = Matcher::default();
    m.add(ev(Kind::Queue, 0, 8, 1_000));
    m.add(ev(Kind::Queue, 8, 8, 1_100));
    m.add(ev(Kind::Issue, 0, 16, 2_000));
    m.add(ev(Kind::Complete, 0, 16, 9_000));
    m.io(&io(0, 8, 500, 9_500));
    m.io(&io(8, 8, 600, 9_600));
    let c = m.rec.counts;
    assert_eq!((c.matched, c.merged, c.split), (2, 2, 0));
    assert_eq!(read_segments(&m)[2], (2, 7_000.0));
}

#[test]
fn an_io_split_over_two_requests_spans_from_the_first_issue_to_the_last_completion() {
    let mut m = Matcher::default();
    m.add(ev(Kind::Queue, 0, 16, 1_000));
    m.add(ev(Kind::Issue, 0, 8, 2_000));
    m.add(ev(Kind::Issue, 8, 8, 2_100));
    m.add(ev(Kind::Complete, 8, 8, 8_000));
    m.add(ev(Kind::Complete, 0, 8, 9_000));
    m.io(&io(0, 16, 500, 9_400));
    let c = m.rec.counts;
    assert_eq!((c.matched, c.merged, c.split), (1, 0, 1));
    assert_eq!(read_segments(&m), [(1, 500.0), (1, 1_000.0), (1, 7_000.0), (1, 400.0)]);
}

#[test]
fn a_buffered_io_without_records_is_a_cache_hit_a_direct_one_is_unmatched() {
    let mut m = Matcher::default();
    m.io(&MappedIo { direct: false, ..io(64, 8, 0, 1_000) });
    m.io(&io(64, 8, 0, 1_000));
    let c = m.rec.counts;
    assert_eq!((c.ios, c.cache_hits, c.unmatched, c.matched), (2, 1, 1, 0));
}

#[test]
fn the_same_sector_again_matches_the_records_inside_its_own_window() {
    let mut m = Matcher::default();
    life(&mut m, 8, 8, [1_000, 1_100, 5_000]);
    life(&mut m, 8, 8, [20_000, 20_100, 30_000]);
    m.io(&io(8, 8, 19_000, 31_000));
    assert_eq!(read_segments(&m), [(1, 1_000.0), (1, 100.0), (1, 9_900.0), (1, 1_000.0)]);
}

#[test]
fn a_request_completed_after_the_io_was_seen_is_not_its_own() {
    let mut m = Matcher::default();
    life(&mut m, 8, 8, [1_000, 1_100, 50_000]);
    m.io(&io(8, 8, 500, 10_000));
    assert_eq!(m.rec.counts.unmatched, 1);
}

#[test]
fn pruning_forgets_old_records_only() {
    let mut m = Matcher::default();
    life(&mut m, 8, 8, [1_000, 1_100, 5_000]);
    life(&mut m, 16, 8, [20_000, 20_100, 30_000]);
    assert_eq!(m.held(), 4);
    m.prune(10_000);
    assert_eq!(m.held(), 2);
    m.io(&io(8, 8, 500, 6_000));
    m.io(&io(16, 8, 19_000, 31_000));
    assert_eq!((m.rec.counts.unmatched, m.rec.counts.matched), (1, 1));
}

#[test]
fn a_request_of_another_direction_is_not_the_ios() {
    let mut m = Matcher::default();
    let write = |kind, time| Event { op: Some(Ddir::Write), ..ev(kind, 8, 8, time) };
    m.add(write(Kind::Queue, 1_000));
    m.add(write(Kind::Issue, 1_100));
    m.add(write(Kind::Complete, 5_000));
    m.io(&MappedIo { direct: false, ..io(8, 8, 500, 6_000) });
    assert_eq!((m.rec.counts.cache_hits, m.rec.counts.matched), (1, 0));
}

#[test]
fn rwbs_letters_give_the_operation() {
    assert_eq!(op_of(b"R\0\0"), Some(Ddir::Read));
    assert_eq!(op_of(b"RA"), Some(Ddir::Read));
    assert_eq!(op_of(b"WS"), Some(Ddir::Write));
    assert_eq!(op_of(b"FWS"), Some(Ddir::Write));
    assert_eq!(op_of(b"DS"), Some(Ddir::Trim));
    assert_eq!(op_of(b"FF"), None);
    assert_eq!(op_of(b"N"), None);
}

#[test]
fn seeking_from_any_hint_finds_the_partition_point() {
    let q: VecDeque<u64> = (0..300u64).map(|i| i / 3 * 10).collect();
    for t in [0, 5, 10, 11, 500, 990, 1000, 5000] {
        let want = q.partition_point(|&x| x < t);
        for hint in [0, 1, 2, 7, 64, 150, 299, 300, 1000] {
            assert_eq!(seek(&q, hint, |&x| x < t), want, "t {t} hint {hint}");
        }
    }
    assert_eq!(seek(&VecDeque::<u64>::new(), 5, |&x| x < 1), 0);
}

#[test]
fn a_request_issued_late_still_gets_its_completion() {
    let mut m = Matcher::default();
    m.add(ev(Kind::Queue, 0, 8, 1_000));
    m.add(ev(Kind::Queue, 8, 8, 1_100));
    m.add(ev(Kind::Issue, 8, 8, 2_100));
    // Handed over after a later one: it goes before it in the queue.
    m.add(ev(Kind::Issue, 0, 8, 2_000));
    m.add(ev(Kind::Complete, 8, 8, 8_000));
    m.add(ev(Kind::Complete, 0, 8, 9_000));
    m.io(&io(0, 8, 500, 9_500));
    m.io(&io(8, 8, 600, 9_600));
    assert_eq!(m.rec.counts.matched, 2);
    assert_eq!(read_segments(&m)[2], (2, 6_450.0));
}

#[test]
fn aligned_sectors_spread_over_the_low_bits_of_the_hash() {
    use std::hash::BuildHasher;
    // 4096 sectors of 4 KiB I/Os: their hashes' low 12 bits (a table's place) differ
    // for most of them, not for an eighth.
    let mut low = std::collections::HashSet::new();
    for i in 0..4096u64 {
        low.insert(SectorHash.hash_one((DEV, i * 8)) & 4095);
    }
    assert!(low.len() > 2048, "{} places of 4096", low.len());
}
