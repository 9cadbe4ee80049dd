//! The blktrace reader against what fio 3.33 does with the same synthesized traces (its
//! `--debug=blktrace` lines and its `iodepth`, recorded by hand from fio 3.33).

use super::*;

const DEV: u32 = 7 << 20 | 1;
const READ: u32 = 1 << 16;
const WRITE: u32 = TC_WRITE;
const QUEUED: u32 = 1 << (16 + 4);
const COMPLETED: u32 = 1 << (16 + 7);
const FS: u32 = 1 << (16 + 8);

/// A record of `device`.
pub(crate) fn rec(time: u64, sector: u64, bytes: u32, action: u32, device: u32) -> Record {
    let magic = MAGIC | VERSION;
    Record { magic, time, sector, bytes, action, pid: 100, device, ..Record::default() }
}

/// The bytes of a trace of `records`, numbered in order.
pub(crate) fn trace_bytes(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    for (n, r) in records.iter().enumerate() {
        Record { sequence: n as u32, ..r.clone() }.write_to(&mut out);
    }
    out
}

/// Loads `records` redirected to `/t` with `adjust` and `skip`.
fn load_redirected(records: &[Record], adjust: Adjust, skip: [bool; 4]) -> Trace {
    let how = Replay { adjust, skip, redirect: Some(PathBuf::from("/t")) };
    load(&trace_bytes(records)[..], &how, &mut |_, _| None).unwrap()
}

fn io(time_us: u64, ddir: Ddir, offset: u64, len: u64) -> ReplayIo {
    ReplayIo { time_us, file: 0, ddir, offset, len }
}

/// The trace of fio's check: every kind of queue, a notify with a payload, other events.
fn kinds() -> Vec<Record> {
    let q = |t, sector, bytes, cats| rec(t, sector, bytes, QUEUE | cats, DEV);
    let notify = Record { pdu: b"proc\0".to_vec(), ..rec(6000, 0, 0, 1 | TC_NOTIFY, DEV) };
    vec![
        q(1000, 0, 4096, QUEUED | READ | (1 << (16 + 9))), // passthrough: a read
        q(2000, 8, 0, QUEUED | READ | FS),                 // 0 bytes: left out
        q(3000, 16, 4096, QUEUED | WRITE | TC_FLUSH | FS), // a flush
        q(4000, 24, 4096, QUEUED | WRITE | FS | (1 << (16 + 3))),
        q(5000, 33, 1000, QUEUED | READ | FS),
        notify,
        q(7000, 40, 512, QUEUED | TC_DISCARD | WRITE),
        q(8000, 48, 512, QUEUED | READ | (1 << (16 + 11)) | FS), // readahead
        q(9000, 56, 512, (1 << (16 + 5)) | READ | FS),           // code 1 without QUEUE
        q(10000, 64, 512, READ | FS),
    ]
}

#[test]
fn queues_become_ios_as_in_fio() {
    let t = load_redirected(&kinds(), Adjust { scale: 1, align: 0, redirect: true }, [false; 4]);
    assert_eq!(t.zero_bytes, 1);
    assert_eq!(
        t.ios,
        vec![
            io(0, Ddir::Read, 0, 4096),
            io(2, Ddir::Sync, 0, 0),
            io(3, Ddir::Write, 12288, 4096),
            io(4, Ddir::Read, 16896, 1000),
            io(6, Ddir::Trim, 20480, 512),
            io(7, Ddir::Read, 24576, 512),
            io(8, Ddir::Read, 28672, 512),
            io(9, Ddir::Read, 32768, 512),
        ]
    );
}

#[test]
fn scale_align_and_skip_as_in_fio() {
    let adjust = Adjust { scale: 2, align: 4096, redirect: true };
    let t = load_redirected(&kinds(), adjust, [false, true, false, true]);
    let offsets: Vec<(Ddir, u64, u64)> = t.ios.iter().map(|i| (i.ddir, i.offset, i.len)).collect();
    assert_eq!(
        offsets,
        [
            (Ddir::Read, 0, 4096),
            (Ddir::Read, 8192, 4096),
            (Ddir::Trim, 8192, 4096),
            (Ddir::Read, 12288, 4096),
            (Ddir::Read, 12288, 4096),
            (Ddir::Read, 16384, 4096),
        ]
    );
}

/// The depth fio 3.33 sets for a trace of queues (Q reads, W writes, M merges) and
/// completions (C reads, c writes), one event a microsecond.
fn depth_of(pattern: &str) -> u32 {
    let mut records = Vec::new();
    for (i, ch) in pattern.chars().enumerate() {
        let (code, cats) = match ch {
            'Q' => (QUEUE, QUEUED | READ | FS),
            'W' => (QUEUE, QUEUED | WRITE | FS),
            'M' => (BACKMERGE, QUEUED | READ | FS),
            'C' => (COMPLETE, COMPLETED | READ | FS),
            'c' => (COMPLETE, COMPLETED | WRITE | FS),
            'D' => (QUEUE, QUEUED | TC_DISCARD | WRITE),
            _ => unreachable!(),
        };
        records.push(rec(1000 * i as u64, 8 * i as u64, 4096, code | cats, DEV));
    }
    load_redirected(&records, Adjust { scale: 1, align: 0, redirect: true }, [false; 4]).depth
}

#[test]
fn the_depth_is_fios() {
    for (pattern, depth) in [
        ("QQQCCC", 3),
        ("QQQ", 1),
        ("QCQCQC", 1),
        ("QQCQQCCC", 2),
        ("QQQQMCC", 3),
        ("QQWWWccCC", 3),
        ("QQQWWccCC", 3),
        ("WWWC", 1),
        ("DDc", 2),
    ] {
        assert_eq!(depth_of(pattern), depth, "{pattern}");
    }
    assert_eq!(depth_of(&format!("{}C", "Q".repeat(1100))), 1024);
}

#[test]
fn devices_map_to_files_as_in_fio() {
    let read = QUEUE | QUEUED | READ | FS;
    let records = [
        rec(1000, 0, 4096, read, 7 << 20 | 2),
        rec(2000, 8, 4096, read, 1 << 20 | 3), // not a block device: the last one found
        rec(3000, 16, 4096, read, 7 << 20 | 1),
        rec(4000, 24, 4096, read, 7 << 20 | 2),
    ];
    let mut asked = Vec::new();
    let mut find = |major, minor| {
        asked.push((major, minor));
        (major == 7).then(|| PathBuf::from(format!("/dev/loop{minor}")))
    };
    let how = Replay::default();
    let t = load(&trace_bytes(&records)[..], &how, &mut find).unwrap();
    assert_eq!(t.files, [PathBuf::from("/dev/loop2"), PathBuf::from("/dev/loop1")]);
    assert_eq!(t.ios.iter().map(|i| i.file).collect::<Vec<_>>(), [0, 0, 1, 0]);
    assert_eq!(asked, [(7, 2), (1, 3), (7, 1)], "each device looked up once");
    let e = load(&trace_bytes(&records[1..2])[..], &how, &mut |_, _| None).unwrap_err();
    assert!(e.contains("no block device 1:3"), "{e}");
}

#[test]
fn either_byte_order_reads_the_same() {
    let records = kinds();
    let native = trace_bytes(&records);
    // Every field of the other byte order: swap each one in place.
    let mut other = Vec::new();
    let mut at = 0;
    while at < native.len() {
        let head = &native[at..at + RECORD_LEN];
        for (start, width) in [(0, 4), (4, 4), (8, 8), (16, 8), (24, 4), (28, 4), (32, 4)]
            .into_iter()
            .chain([(36, 4), (40, 4), (44, 2), (46, 2)])
        {
            other.extend(head[start..start + width].iter().rev());
        }
        let pdu = u16::from_ne_bytes([head[46], head[47]]) as usize;
        other.extend_from_slice(&native[at + RECORD_LEN..at + RECORD_LEN + pdu]);
        at += RECORD_LEN + pdu;
    }
    assert!(is_trace(&native) && is_trace(&other) && !is_trace(b"fio version 3 iolog"));
    let read = |bytes: &[u8]| {
        let mut r = Records::new(bytes);
        std::iter::from_fn(|| r.next_record().unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(read(&native), read(&other));
    let numbered: Vec<Record> = records
        .iter()
        .enumerate()
        .map(|(n, r)| Record { sequence: n as u32, ..r.clone() })
        .collect();
    assert_eq!(read(&native), numbered);
}

#[test]
fn bad_traces_say_where() {
    let mut bytes = trace_bytes(&kinds());
    bytes.truncate(bytes.len() - 5);
    let mut r = Records::new(&bytes[..]);
    let e = std::iter::from_fn(|| r.next_record().transpose()).find_map(Result::err).unwrap();
    assert!(e.contains("truncated record at byte"), "{e}");
    let mut v6 = trace_bytes(&kinds()[..1]);
    v6[0] = 6;
    assert!(Records::new(&v6[..]).next_record().unwrap_err().contains("version 6"));
    let completes = [rec(0, 0, 4096, COMPLETE | COMPLETED | READ | FS, DEV)];
    let how = Replay { redirect: Some("/t".into()), ..Replay::default() };
    let e = load(&trace_bytes(&completes)[..], &how, &mut |_, _| None).unwrap_err();
    assert!(e.contains("no I/O"), "{e}");
}
