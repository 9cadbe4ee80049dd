use super::*;

fn data(len: usize, seed: u8) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) ^ (i >> 8) as u8).collect()
}

fn format(method: Method) -> VerifyFormat {
    let pattern = matches!(method, Method::Pattern | Method::PatternHdr)
        .then(|| VerifyPattern::parse("0xaa%o\"xy\"", |_| Ok(vec![])).unwrap());
    VerifyFormat { method, interval: 0, header_offset: 0, pattern }
}

const STAMP: Stamp = Stamp { seed: 77, thread: 1, numberio: 3 };
const EXPECT: Expect = Expect { seed: Some(77), numberio: Some(3) };

#[test]
fn every_method_round_trips() {
    for m in method::ALL {
        for (interval, header_offset) in [(0, 0), (1024, 0), (0, 100), (512, 40), (0, 40)] {
            let f = VerifyFormat { interval, header_offset, ..format(m) };
            let mut buf = data(4096, 5);
            f.stamp(&mut buf, 8192, &STAMP);
            assert_eq!(
                f.check(&mut buf, 8192, &EXPECT),
                Ok(()),
                "{m:?} {interval} {header_offset}"
            );
        }
    }
}

#[test]
fn every_bit_flip_in_a_block_is_found() {
    for m in method::ALL {
        if matches!(m, Method::Null | Method::Meta) {
            continue;
        }
        let f = format(m);
        let mut good = data(512, 9);
        f.stamp(&mut good, 4096, &STAMP);
        // crc7 is 7 bits wide: single-bit flips are still always caught by a CRC.
        for bit in (0..512 * 8).step_by(7) {
            let mut bad = good.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            let r = f.check(&mut bad, 4096, &EXPECT);
            assert!(r.is_err(), "{m:?} missed bit {bit}");
            assert_eq!(r.unwrap_err().offset, 4096);
        }
    }
}

#[test]
fn a_block_from_elsewhere_is_a_bad_offset() {
    for m in method::ALL {
        if m == Method::Null {
            continue;
        }
        let f = VerifyFormat { interval: 1024, ..format(m) };
        let mut buf = data(4096, 1);
        f.stamp(&mut buf, 0, &STAMP);
        let e = f.check(&mut buf, 4096, &EXPECT).unwrap_err();
        assert_eq!(e.offset, 4096);
        if m.has_header() {
            assert_eq!(e.kind, MismatchKind::Offset, "{m:?}");
            assert_eq!((e.found.offset, e.expected.offset), (0, 4096));
        }
    }
}

#[test]
fn a_stale_write_is_a_bad_numberio() {
    let f = format(Method::Crc32c);
    let mut buf = data(4096, 1);
    f.stamp(&mut buf, 0, &Stamp { numberio: 2, ..STAMP });
    let e = f.check(&mut buf, 0, &EXPECT).unwrap_err();
    assert_eq!(e.kind, MismatchKind::Numberio);
    assert!(e.to_string().contains("bad header numberio 2, wanted 3"), "{e}");
}

#[test]
fn intervals_report_the_damaged_chunk() {
    let f = VerifyFormat { interval: 512, ..format(Method::Md5) };
    let mut buf = data(4096, 3);
    f.stamp(&mut buf, 1 << 20, &STAMP);
    buf[512 * 5 + 300] ^= 0x10;
    let e = f.check(&mut buf, 1 << 20, &EXPECT).unwrap_err();
    assert_eq!((e.offset, e.len, e.chunk_start), ((1 << 20) + 2560, 512, 2560));
    assert!(matches!(e.kind, MismatchKind::Checksum { len: 16, .. }));
}

#[test]
fn header_layout_matches_fio() {
    // The first block fio 3.33 wrote with verify=crc32c bs=4k (bytes 0..40).
    let h = Header {
        magic: MAGIC,
        method: 5,
        len: 4096,
        seed: 0x00a4_cc01_c509_543c,
        offset: 0,
        time_sec: 0x2541,
        time_nsec: 0x2037_d4c2,
        thread: 1,
        numberio: 0,
        crc: 0,
    };
    let mut out = [0u8; 40];
    h.write(&mut out);
    let fio: [u8; 40] = [
        0xca, 0xac, 0x05, 0x00, 0x00, 0x10, 0x00, 0x00, 0x3c, 0x54, 0x09, 0xc5, 0x01, 0xcc, 0xa4,
        0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x41, 0x25, 0x00, 0x00, 0xc2, 0xd4, 0x37, 0x20, 0x01, 0x00,
        0x00, 0x00, 0x6c, 0x33, 0x0c, 0xc7,
    ];
    assert_eq!(out, fio);
    assert_eq!(Header::read(&fio).crc, 0xc70c_336c);
}

#[test]
fn header_moves_to_verify_offset_as_fio_does() {
    let f = VerifyFormat { header_offset: 100, ..format(Method::Crc32c) };
    let orig = data(4096, 7);
    let mut buf = orig.clone();
    f.stamp(&mut buf, 0, &STAMP);
    assert_eq!(&buf[..44], &orig[100..144]);
    assert_eq!(&buf[100..102], &[0xca, 0xac]);
}

#[test]
fn verify_pattern_substitutes_the_offset() {
    // fio 3.33: verify_pattern=0xaa%o"xy" at offset 4096.
    let p = VerifyPattern::parse("0xaa%o\"xy\"", |_| Ok(vec![])).unwrap();
    let mut buf = [0u8; 16];
    p.fill(&mut buf, 4096, 0);
    assert_eq!(buf, [0xaa, 0, 0x10, 0, 0, 0, 0, 0, 0, 0x78, 0x79, 0xaa, 0, 0x10, 0, 0]);
    assert!(VerifyPattern::parse("%o", |_| Ok(vec![])).unwrap().has_offset());
    assert!(VerifyPattern::parse("", |_| Ok(vec![])).is_err());
    assert!(VerifyPattern::parse("zz", |_| Ok(vec![])).is_err());
}

#[test]
fn checksums_match_fio_variants() {
    let mut out = [0u8; MAX_DIGEST];
    // Check values of each variant over "123456789".
    let d = b"123456789";
    Method::Crc32c.checksum(d, &mut out);
    assert_eq!(u32::from_le_bytes(out[..4].try_into().unwrap()), !0xe306_9283);
    Method::Crc16.checksum(d, &mut out);
    assert_eq!(u16::from_le_bytes(out[..2].try_into().unwrap()), 0xbb3d);
    Method::Crc64.checksum(d, &mut out);
    assert_eq!(u64::from_le_bytes(out[..8].try_into().unwrap()), 0xe9c6_d914_c4b8_d9ca);
    Method::Crc7.checksum(d, &mut out);
    assert_eq!(out[0], 0x75);
}
