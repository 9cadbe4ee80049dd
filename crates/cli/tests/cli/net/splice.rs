//! The `netsplice` engine on loopback: TCP blocks through a pipe (`vmsplice` then `splice`
//! to send, `splice` then `vmsplice` to receive), UDP and Unix sockets as `net`; iomark
//! against fio 3.33, both ways, with the same bytes on both sides, and the sender's system
//! calls under strace against fio's. iomark against iomark, and the Unix socket against
//! fio, are with the `net` engine's tests, which run both engines.

use super::{counts, free_port, receive, transfer};
use crate::support::run::{tempdir, IOMARK};
use crate::support::tools::{fio_installed, programs, strace_works, traced};

#[test]
fn iomark_and_fio_exchange_over_netsplice_both_ways() {
    if !fio_installed() {
        return;
    }
    let none: &[&str] = &[];
    let cases =
        [("tcp", "1m", 256, none), ("tcp", "64k", 16, &["--pingpong"]), ("udp", "64k", 16, none)];
    // Over a Unix socket: with the net engine's tests.
    for (proto, size, ios, extra) in cases {
        let bytes = ios * 4096;
        let (r, w) = transfer(IOMARK, "fio", "netsplice", proto, size, extra);
        assert_eq!(counts(&w, "write"), (ios, bytes, 0), "{proto} {extra:?}: fio sender");
        assert_eq!(counts(&r, "read"), (ios, bytes, 0), "{proto} {extra:?}: iomark receiver");
        let (r, w) = transfer("fio", IOMARK, "netsplice", proto, size, extra);
        assert_eq!(counts(&w, "write"), (ios, bytes, 0), "{proto} {extra:?}: iomark sender");
        assert_eq!(counts(&r, "read"), (ios, bytes, 0), "{proto} {extra:?}: fio receiver");
    }
}

#[test]
fn a_tcp_sender_maps_then_splices_each_block_and_closes_with_send_as_fio_does() {
    if !strace_works() {
        return;
    }
    for sender in programs() {
        let dir = tempdir();
        let port = format!("--port={}", free_port(false));
        // fio takes an engine's options only after `ioengine`.
        let r = ["--name=r", "--ioengine=netsplice", "--rw=read", "--bs=4k", "--size=8m"];
        let rx = receive(dir.path(), IOMARK, &[&r[..], &[&port, "--listen"]].concat(), None);
        let w = ["--name=w", "--ioengine=netsplice", "--rw=write", "--bs=4k", "--size=64k"];
        let args = [&w[..], &[&port, "--hostname=127.0.0.1"]].concat();
        let lines = traced(dir.path(), sender, &args, "splice,vmsplice,sendto").expect("strace");
        let calls = |name: &str| lines.iter().filter(|l| l.contains(&format!(" {name}("))).count();
        let closes = lines.iter().filter(|l| l.contains("sendto(") && l.contains("knil")).count();
        let sent = (calls("vmsplice"), calls("splice"), calls("sendto"), closes);
        assert_eq!(sent, (16, 16, 1, 1), "{sender}: vmsplice, splice, sendto, closing");
        assert_eq!(counts(&rx.report(), "read"), (16, 65536, 0), "{sender}");
    }
}
