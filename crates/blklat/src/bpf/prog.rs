//! The BPF programs of the block tracepoints, written with [`Asm`]: they keep each
//! request's times in the kernel and write one record per completed request.
//!
//! Every program first drops the records of other disks (the job's disks are compared as
//! constants), then finds its state by (disk, sector), as the reader's matcher does, in
//! two BPF arrays used as tables of two entries per hash of the sector (each entry holds
//! its disk and sector, and is taken only if they are the record's):
//!
//! - `block_bio_queue` (Q): the bio's time and size into `bios`.
//! - `block_rq_insert` (I), `block_rq_issue` (D): the request's entry in `reqs` (its first
//!   bio's Q, taken out of `bios`, and the I and D times).
//! - `block_rq_complete` (C): a [`Record`] of the request (its disk, sector, size, `rwbs`,
//!   Q, I, D and C) into the ring buffer, and its entry gone.
//! - `block_bio_backmerge`, `block_bio_frontmerge` (a bio merged into a request already
//!   made) and `block_rq_merge` (a request merged into another): a record of the bio's
//!   (or the request's first bio's) Q alone, since the request it joined keeps its own.
//!
//! Why arrays and not BPF hash maps: an array's lookup is a few instructions the kernel
//! writes into the program, where a hash map's update (allocation, bucket lock, copy) was
//! most of the programs' cost (`perf`: `htab_lru_map_update_elem` and its helpers, some 7%
//! of the job thread's time on the disk). An entry still in use that a third record of its
//! set overwrites (three requests in flight in one set of 1024), and a record the ring
//! buffer has no room for, are counted in `lost`.

use super::asm::{
    Asm, Cond, Helper, Insn, Label, Reg, Size, FP, R0, R1, R2, R3, R4, R6, R7, R8, R9,
};
use crate::tracefs::Layout;

/// The bytes of a record in the ring buffer (see [`Record`]).
pub const RECORD_LEN: usize = 64;
/// A record of a completed request.
pub const KIND_REQUEST: u32 = 0;
/// A record of a bio's Q alone (merged into a request made before).
pub const KIND_BIO: u32 = 1;

/// A record as the programs write it (native-endian), decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Record {
    /// The disk (kernel `dev_t`).
    pub dev: u32,
    /// Sectors of the request (of the bio, for [`KIND_BIO`]).
    pub nr: u32,
    /// First sector.
    pub sector: u64,
    /// The operation's letters (`rwbs`, NUL-padded).
    pub rwbs: [u8; 8],
    /// The first bio's Q (0: not seen), `CLOCK_MONOTONIC` ns.
    pub q: u64,
    /// The first bio's sectors.
    pub qnr: u32,
    /// [`KIND_REQUEST`] or [`KIND_BIO`].
    pub kind: u32,
    /// I (0: not inserted).
    pub i: u64,
    /// D (0: not seen).
    pub d: u64,
    /// C.
    pub c: u64,
}

impl Record {
    /// Decodes a record's bytes.
    pub fn decode(b: &[u8]) -> Option<Record> {
        let u32_at = |at: usize| Some(u32::from_ne_bytes(b.get(at..at + 4)?.try_into().ok()?));
        let u64_at = |at: usize| Some(u64::from_ne_bytes(b.get(at..at + 8)?.try_into().ok()?));
        Some(Record {
            dev: u32_at(0)?,
            nr: u32_at(4)?,
            sector: u64_at(8)?,
            rwbs: b.get(16..24)?.try_into().ok()?,
            q: u64_at(24)?,
            qnr: u32_at(32)?,
            kind: u32_at(36)?,
            i: u64_at(40)?,
            d: u64_at(48)?,
            c: u64_at(56)?,
        })
    }
}

/// The maps the programs use (file descriptors).
#[derive(Debug, Clone, Copy)]
pub struct Maps {
    /// Bios queued: an array of [`SLOTS`] entries (disk, sector, Q, sectors), two per
    /// hash of the sector.
    pub bios: i32,
    /// Requests: an array of [`SLOTS`] entries (disk, sector, first bio's Q and sectors,
    /// I, D, in use).
    pub reqs: i32,
    /// The ring buffer of records.
    pub ring: i32,
    /// One `u64`: records lost (no room in the ring buffer, an entry overwritten).
    pub lost: i32,
}

/// Each table is a set of two entries (ways) per hash of the sector: this many sets (a
/// power of two). Small, so that the tables stay in the cache (with 65536 single entries
/// the programs' misses cost more than the hash maps they replaced).
pub const SET_BITS: i32 = 10;
/// The entries of each table.
pub const SLOTS: u32 = 2 << SET_BITS;
/// The bytes of an entry of `bios` and of `reqs`.
pub const BIO_LEN: u32 = 32;
/// See [`BIO_LEN`].
pub const REQ_LEN: u32 = 64;

// An entry of either table: the disk and the sector (both as u64).
const DEV: i16 = 0;
const SECTOR: i16 = 8;
// `bios`: Q (0: the entry is free) and sectors.
const T: i16 = 16;
const NR: i16 = 24;
// `reqs`: the first bio's Q and sectors, I, D, in use (1; 0: free).
const Q: i16 = 16;
const QNR: i16 = 24;
/// Where I is in an entry of `reqs`.
pub const AT_I: i16 = 32;
/// Where D is in an entry of `reqs`.
pub const AT_D: i16 = 40;
const LIVE: i16 = 48;

/// The keys (`u32`) of the set's two entries, on the stack.
const WAYS: [i16; 2] = [-8, -4];
/// The key 0 of `lost`.
const ZERO: i16 = -16;
/// The record being written (see [`Record`]).
const REC: i16 = -80;

/// `r6` = the context, `r7` = its disk, `r8` = its sector, the keys of its set's entries
/// on the stack; returns (0) at once for a disk not in `devs`.
fn prologue(a: &mut Asm, l: &Layout, devs: &[u32]) {
    let mine = a.label();
    a.mov(R6, R1).load(Size::W, R7, R6, l.dev as i16);
    for &dev in devs {
        a.jump_if32(Cond::Eq, R7, dev, mine);
    }
    a.mov_imm(R0, 0).exit().place(mine);
    a.load(Size::Dw, R8, R6, l.sector as i16);
    // Fibonacci hashing: the top bits of the sector times an odd constant.
    a.mov(R1, R8).mov_imm64(R2, 0x9e37_79b9_7f4a_7c15).mul(R1, R2);
    a.rsh_imm(R1, 64 - SET_BITS).lsh_imm(R1, 1).store(Size::W, FP, WAYS[0], R1);
    a.add_imm(R1, 1).store(Size::W, FP, WAYS[1], R1);
}

/// `r0` = the entry of the table `fd` whose key is on the stack at `key`; jumps to `out`
/// if there is none (never: the key is in range, but the verifier wants the test).
fn lookup(a: &mut Asm, fd: i32, key: i16, out: Label) {
    a.load_map(R1, fd).mov(R2, FP).add_imm(R2, i32::from(key)).call(Helper::MapLookup);
    a.jump_if(Cond::Eq, R0, 0, out);
}

/// Jumps to `other` unless the entry at `at` is the record's (its disk and sector).
fn unless_mine(a: &mut Asm, at: Reg, other: Label) {
    a.load(Size::Dw, R1, at, DEV).jump_if_reg(Cond::Ne, R1, R7, other);
    a.load(Size::Dw, R1, at, SECTOR).jump_if_reg(Cond::Ne, R1, R8, other);
}

/// `r9` = the record's entry in the table `fd` (in use: `valid` is not 0) and a jump to
/// `found`; falls through if neither entry of the set is the record's.
fn find(a: &mut Asm, fd: i32, valid: i16, found: Label, out: Label) {
    for way in WAYS {
        let next = a.label();
        lookup(a, fd, way, out);
        a.mov(R9, R0).load(Size::Dw, R1, R9, valid).jump_if(Cond::Eq, R1, 0, next);
        unless_mine(a, R9, next);
        a.jump(found).place(next);
    }
}

/// `r9` = an entry of the set for a new one in the table `fd`: a free one, else the
/// first, whose state is lost (counted); then a jump to `got`.
fn make_room(a: &mut Asm, m: &Maps, fd: i32, valid: i16, got: Label, out: Label) {
    for way in WAYS {
        lookup(a, fd, way, out);
        a.mov(R9, R0).load(Size::Dw, R1, R9, valid).jump_if(Cond::Eq, R1, 0, got);
    }
    lookup(a, fd, WAYS[0], out);
    a.mov(R9, R0);
    count_lost(a, m);
    a.jump(got);
}

/// Adds one to `lost` (keeps `r6`–`r9`).
fn count_lost(a: &mut Asm, m: &Maps) {
    let done = a.label();
    a.store_imm(Size::W, FP, ZERO, 0).load_map(R1, m.lost).mov(R2, FP);
    a.add_imm(R2, i32::from(ZERO)).call(Helper::MapLookup).jump_if(Cond::Eq, R0, 0, done);
    a.mov_imm(R1, 1).atomic_add(R0, 0, R1).place(done);
}

/// Copies `from` (`src + off`) to the stack at `to`, as `size`.
fn copy(a: &mut Asm, src: Reg, off: i16, size: Size, to: i16) {
    a.load(size, R1, src, off).store(size, FP, to, R1);
}

/// The record's disk, sectors (the context's), sector and `rwbs`.
fn record_head(a: &mut Asm, l: &Layout) {
    a.store(Size::W, FP, REC, R7);
    copy(a, R6, l.nr_sector as i16, Size::W, REC + 4);
    a.store(Size::Dw, FP, REC + 8, R8);
    for k in 0..8 {
        copy(a, R6, (l.rwbs + k) as i16, Size::B, REC + 16 + k as i16);
    }
}

/// Writes the record into the ring buffer (counting it in `lost` if there is no room)
/// and returns.
fn emit(a: &mut Asm, m: &Maps) {
    let written = a.label();
    a.load_map(R1, m.ring).mov(R2, FP).add_imm(R2, i32::from(REC));
    // BPF_RB_NO_WAKEUP: the reader polls; a wakeup per record would cost more.
    a.mov_imm(R3, RECORD_LEN as i32).mov_imm(R4, 1).call(Helper::RingbufOutput);
    a.jump_if(Cond::Eq, R0, 0, written);
    count_lost(a, m);
    a.place(written).mov_imm(R0, 0).exit();
}

/// Ends a program: the label `out` returns 0.
fn finish(mut a: Asm, out: Label) -> Option<Vec<Insn>> {
    a.place(out).mov_imm(R0, 0).exit();
    a.finish()
}

/// The program of Q: the bio's time and sectors into its entry of `bios`.
pub fn queue(l: &Layout, devs: &[u32], m: &Maps) -> Option<Vec<Insn>> {
    let mut a = Asm::default();
    let (out, store) = (a.label(), a.label());
    prologue(&mut a, l, devs);
    find(&mut a, m.bios, T, store, out);
    make_room(&mut a, m, m.bios, T, store, out);
    a.place(store).store(Size::Dw, R9, DEV, R7).store(Size::Dw, R9, SECTOR, R8);
    a.load(Size::W, R1, R6, l.nr_sector as i16).store(Size::Dw, R9, NR, R1);
    a.call(Helper::KtimeGetNs).store(Size::Dw, R9, T, R0);
    finish(a, out)
}

/// Moves the record's bio from `bios` into the request's entry `r9` (Q, sectors; zeros
/// if it is not there).
fn take_q(a: &mut Asm, m: &Maps, out: Label) {
    let (no_q, done) = (a.label(), a.label());
    for way in WAYS {
        let next = a.label();
        lookup(a, m.bios, way, out);
        a.load(Size::Dw, R3, R0, T).jump_if(Cond::Eq, R3, 0, next);
        unless_mine(a, R0, next);
        a.store(Size::Dw, R9, Q, R3).load(Size::Dw, R1, R0, NR).store(Size::Dw, R9, QNR, R1);
        a.store_imm(Size::Dw, R0, T, 0).jump(done).place(next);
    }
    a.place(no_q).store_imm(Size::Dw, R9, Q, 0).store_imm(Size::Dw, R9, QNR, 0);
    a.place(done);
}

/// The program of I (`at` = [`AT_I`]) or D ([`AT_D`]): the time into the request's entry,
/// made (with its first bio's Q) if there is none.
pub fn request(l: &Layout, devs: &[u32], m: &Maps, at: i16) -> Option<Vec<Insn>> {
    let mut a = Asm::default();
    let (out, make, stamp) = (a.label(), a.label(), a.label());
    prologue(&mut a, l, devs);
    find(&mut a, m.reqs, LIVE, stamp, out);
    make_room(&mut a, m, m.reqs, LIVE, make, out);
    a.place(make).store(Size::Dw, R9, DEV, R7).store(Size::Dw, R9, SECTOR, R8);
    a.store_imm(Size::Dw, R9, AT_I, 0).store_imm(Size::Dw, R9, AT_D, 0);
    take_q(&mut a, m, out);
    a.store_imm(Size::Dw, R9, LIVE, 1);
    a.place(stamp).call(Helper::KtimeGetNs).store(Size::Dw, R9, at, R0);
    finish(a, out)
}

/// A program that goes on only where the record's entry is in the table `fd` (`r9`), and
/// its label that returns.
fn with_entry(l: &Layout, devs: &[u32], fd: i32, valid: i16) -> (Asm, Label) {
    let mut a = Asm::default();
    let (out, found) = (a.label(), a.label());
    prologue(&mut a, l, devs);
    find(&mut a, fd, valid, found, out);
    a.jump(out).place(found);
    (a, out)
}

/// The program of C: the request's record, its entry freed.
pub fn complete(l: &Layout, devs: &[u32], m: &Maps) -> Option<Vec<Insn>> {
    let (mut a, out) = with_entry(l, devs, m.reqs, LIVE);
    a.call(Helper::KtimeGetNs).store(Size::Dw, FP, REC + 56, R0);
    record_head(&mut a, l);
    copy(&mut a, R9, Q, Size::Dw, REC + 24);
    copy(&mut a, R9, QNR, Size::W, REC + 32);
    a.store_imm(Size::W, FP, REC + 36, KIND_REQUEST as i32);
    copy(&mut a, R9, AT_I, Size::Dw, REC + 40);
    copy(&mut a, R9, AT_D, Size::Dw, REC + 48);
    a.store_imm(Size::Dw, R9, LIVE, 0);
    emit(&mut a, m);
    finish(a, out)
}

/// The program of a bio merged into a request made before: the bio's Q as a record.
pub fn bio_merge(l: &Layout, devs: &[u32], m: &Maps) -> Option<Vec<Insn>> {
    let (mut a, out) = with_entry(l, devs, m.bios, T);
    record_head(&mut a, l);
    copy(&mut a, R9, T, Size::Dw, REC + 24);
    copy(&mut a, R9, NR, Size::W, REC + 32);
    kind_bio_tail(&mut a);
    a.store_imm(Size::Dw, R9, T, 0);
    emit(&mut a, m);
    finish(a, out)
}

/// The program of a request merged into another: its first bio's Q as a record.
pub fn rq_merge(l: &Layout, devs: &[u32], m: &Maps) -> Option<Vec<Insn>> {
    let (mut a, out) = with_entry(l, devs, m.reqs, LIVE);
    record_head(&mut a, l);
    // The bio's sectors, not the request's.
    copy(&mut a, R9, QNR, Size::W, REC + 4);
    copy(&mut a, R9, Q, Size::Dw, REC + 24);
    copy(&mut a, R9, QNR, Size::W, REC + 32);
    kind_bio_tail(&mut a);
    a.store_imm(Size::Dw, R9, LIVE, 0);
    emit(&mut a, m);
    finish(a, out)
}

/// A [`KIND_BIO`] record's kind and empty I, D, C.
fn kind_bio_tail(a: &mut Asm) {
    a.store_imm(Size::W, FP, REC + 36, KIND_BIO as i32);
    for at in [40, 48, 56] {
        a.store_imm(Size::Dw, FP, REC + at, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_decodes_field_by_field() {
        let mut b = [0u8; RECORD_LEN];
        b[0..4].copy_from_slice(&0x0070_0001u32.to_ne_bytes());
        b[4..8].copy_from_slice(&8u32.to_ne_bytes());
        b[8..16].copy_from_slice(&1234u64.to_ne_bytes());
        b[16] = b'R';
        b[24..32].copy_from_slice(&10u64.to_ne_bytes());
        b[32..36].copy_from_slice(&8u32.to_ne_bytes());
        b[48..56].copy_from_slice(&20u64.to_ne_bytes());
        b[56..64].copy_from_slice(&30u64.to_ne_bytes());
        let r = Record::decode(&b).unwrap();
        assert_eq!((r.dev, r.nr, r.sector, r.rwbs[0]), (0x0070_0001, 8, 1234, b'R'));
        assert_eq!((r.q, r.qnr, r.kind, r.i, r.d, r.c), (10, 8, KIND_REQUEST, 0, 20, 30));
        assert_eq!(Record::decode(&b[..60]), None);
    }

    #[test]
    fn every_program_assembles() {
        let l = Layout { id: 1, dev: 8, sector: 16, nr_sector: 24, rwbs: 34 };
        let m = Maps { bios: 3, reqs: 4, ring: 5, lost: 6 };
        let devs = [0x0070_0001, 0xfff0_0000];
        assert!(queue(&l, &devs, &m).is_some());
        assert!(request(&l, &devs, &m, AT_I).is_some());
        assert!(request(&l, &devs, &m, AT_D).is_some());
        assert!(complete(&l, &devs, &m).is_some());
        assert!(bio_merge(&l, &devs, &m).is_some());
        assert!(rq_merge(&l, &devs, &m).is_some());
    }
}
