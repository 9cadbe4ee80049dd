//! The block recorder records, merges and reduces exactly.

use super::*;
use crate::reduce::PercentileList;

#[test]
fn records_merge_and_report_per_direction() {
    let mut a = BlockRecorder::default();
    a.record(Ddir::Read, [1_000, 2_000, 30_000, 500]);
    a.counts.ios = 2;
    a.counts.matched = 1;
    a.counts.cache_hits = 1;
    let mut b = BlockRecorder::unavailable("no tracefs".into());
    b.record(Ddir::Read, [3_000, 2_000, 10_000, 1_500]);
    b.counts.ios = 1;
    b.counts.matched = 1;
    a.merge(&b);
    let r = a.report(&PercentileList::default());
    let read = r.dirs[0].as_ref().unwrap();
    assert_eq!((read.pre.n, read.pre.min, read.pre.max), (2, 1_000, 3_000));
    assert_eq!(read.device.mean, 20_000.0);
    assert_eq!(read.completion.max, 1_500);
    assert!(r.dirs[1].is_none() && r.dirs[2].is_none());
    assert_eq!((r.counts.ios, r.counts.matched, r.counts.cache_hits), (3, 2, 1));
    assert_eq!(r.notes, vec!["no tracefs".to_string()]);
    let names: Vec<_> = read.segments().iter().map(|(s, _)| s.name()).collect();
    assert_eq!(names, ["pre", "queue", "device", "completion"]);
}
