//! The self-tests that run no job: `--crctest` (the checksums' throughput, fio 3.33's
//! table) and `--cpuclock-test` (the clock read on every CPU never goes back).

use iomark_verify::hashes::CRCTEST;
use std::io::Write;
use std::time::{Duration, Instant};

/// How long each checksum is measured.
const CRC_TIME: Duration = Duration::from_millis(250);

/// `--crctest[=LIST]`: for each checksum named (all when `list` is empty), in fio's
/// order, its throughput over a 1 MiB buffer of random bytes, as fio prints it
/// (`md5:\t\t  108.67 MiB/sec`). An unknown name is bad usage.
pub fn crctest(list: &str, out: &mut impl Write) -> Result<(), String> {
    let names: Vec<&str> = list.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
    if let Some(bad) = names.iter().find(|n| !CRCTEST.iter().any(|(name, _)| name == *n)) {
        return Err(format!("--crctest: no checksum '{bad}'"));
    }
    let mut buf = vec![0u8; 1 << 20];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for b in buf.chunks_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        b.copy_from_slice(&x.to_le_bytes()[..b.len()]);
    }
    for (name, hash) in CRCTEST.iter().filter(|(n, _)| names.is_empty() || names.contains(n)) {
        let start = Instant::now();
        let (mut bytes, mut sink) = (0u64, 0u64);
        while start.elapsed() < CRC_TIME {
            sink = sink.wrapping_add(hash.run(&buf));
            bytes += buf.len() as u64;
        }
        std::hint::black_box(sink);
        let mib_s = bytes as f64 / (1 << 20) as f64 / start.elapsed().as_secs_f64();
        let label = format!("{name}:");
        let tabs = if label.len() < 8 { "\t\t" } else { "\t" };
        writeln!(out, "{label}{tabs}{mib_s:8.2} MiB/sec").map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `--cpuclock-test`: moves to each CPU the process may use in turn, reads the clock there
/// (the TSC where the kernel trusts it, as the runner's clock does, else the monotonic
/// clock) many times, and checks that no reading is below one taken before it, on that CPU
/// or an earlier one. Returns whether it passed.
pub fn cpuclock_test(out: &mut impl Write) -> std::io::Result<bool> {
    const READS: u32 = 100_000;
    let tsc = iomark_engine::system::tsc_is_stable();
    writeln!(out, "cs: reliable_tsc: {}", if tsc { "yes" } else { "no" })?;
    let origin = Instant::now();
    let read = || match iomark_engine::system::tsc().filter(|_| tsc) {
        Some(t) => t,
        None => origin.elapsed().as_nanos() as u64,
    };
    let cpus = iomark_engine::thread::affinity()?;
    writeln!(out, "cs: Testing {} CPUs", cpus.len())?;
    let (mut last, mut ok) = (0u64, true);
    for &cpu in &cpus {
        iomark_engine::thread::set_affinity(&[cpu])?;
        let first = read();
        let mut seen = 0;
        for _ in 0..READS {
            let now = read();
            if now < last {
                writeln!(out, "cs: cpu {cpu:2}: clock went back by {} ticks", last - now)?;
                ok = false;
            }
            last = last.max(now);
            seen += 1;
        }
        writeln!(out, "cs: cpu {cpu:2}: {seen} clocks seen, first {first}")?;
    }
    iomark_engine::thread::set_affinity(&cpus)?;
    writeln!(out, "cs: {}", if ok { "Pass!" } else { "Failed!" })?;
    Ok(ok)
}
