//! Fault and latency injection: which data requests fail (and with which errno), which are
//! delayed (and by how long), and which reads come back corrupted, deterministically for a
//! given seed.
//!
//! Each rule counts the requests it applies to (its kinds, inside `--fail-range`, once
//! `--fail-after` bytes have gone through the volume) and decides the n-th of them from a
//! hash of (seed, rule, n): the same sequence of requests meets the same faults on every
//! run, whatever the transport or the number of queues. With several requests in flight
//! the order in which they reach the exporter may vary, and with it which of them meets a
//! fault; the number of faults does not (for a rule at 100% it is exact). The counters are
//! shared atomics, touched only when injection is configured.

use crate::volume::{DataOp, Kind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Which kinds of data request a rule applies to, as a bit set of [`Kind`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kinds(u8);

impl Kinds {
    /// Every kind.
    pub const ALL: Kinds = Kinds(0b1111);

    /// One kind.
    pub fn only(kind: Kind) -> Kinds {
        Kinds(1 << kind as u8)
    }

    /// Whether it holds `kind`.
    pub fn has(self, kind: Kind) -> bool {
        self.0 & (1 << kind as u8) != 0
    }

    /// Parses `read`, `write`, `fsync`, `trim` or `all`.
    pub fn parse(text: &str) -> Option<Kinds> {
        if text == "all" {
            return Some(Kinds::ALL);
        }
        Kind::ALL.into_iter().find(|k| k.name() == text).map(Kinds::only)
    }
}

/// `--fail=ERRNO:PERCENT[:KINDS]`: fail that share of the requests of those kinds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FailRule {
    /// The errno the request fails with (1 to 511: larger values are not errors to FUSE).
    pub errno: i32,
    /// The share of requests that fail, 0 to 1.
    pub share: f64,
    /// The kinds it applies to.
    pub kinds: Kinds,
}

impl FailRule {
    /// Parses `EIO:0.1%:read`, `ENOSPC:100%:write`, `5:50%` (all kinds by default).
    pub fn parse(text: &str) -> Result<FailRule, String> {
        let mut parts = text.split(':');
        let name = parts.next().unwrap_or_default();
        let errno = errno_value(name).ok_or_else(|| format!("unknown errno '{name}'"))?;
        let share = parts
            .next()
            .ok_or_else(|| "missing PERCENT (write ERRNO:PERCENT[:KIND])".to_string())
            .and_then(parse_share)?;
        let kinds = match parts.next() {
            None => Kinds::ALL,
            Some(k) => Kinds::parse(k)
                .ok_or_else(|| format!("unknown kind '{k}' (read, write, fsync, trim or all)"))?,
        };
        if let Some(extra) = parts.next() {
            return Err(format!("unexpected ':{extra}'"));
        }
        Ok(FailRule { errno, share, kinds })
    }
}

/// Parses a share of requests: `0.1%`, `100%` or a bare number of percent.
pub fn parse_share(text: &str) -> Result<f64, String> {
    let number = text.strip_suffix('%').unwrap_or(text);
    match number.parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p / 100.0),
        _ => Err(format!("'{text}' is not a percentage from 0% to 100%")),
    }
}

/// The errnos `--fail` knows by name, with their Linux values.
const ERRNOS: &[(&str, i32)] = &[
    ("EPERM", libc::EPERM),
    ("ENOENT", libc::ENOENT),
    ("EINTR", libc::EINTR),
    ("EIO", libc::EIO),
    ("ENXIO", libc::ENXIO),
    ("EBADF", libc::EBADF),
    ("EAGAIN", libc::EAGAIN),
    ("ENOMEM", libc::ENOMEM),
    ("EACCES", libc::EACCES),
    ("EFAULT", libc::EFAULT),
    ("EBUSY", libc::EBUSY),
    ("ENODEV", libc::ENODEV),
    ("EINVAL", libc::EINVAL),
    ("EFBIG", libc::EFBIG),
    ("ENOSPC", libc::ENOSPC),
    ("EROFS", libc::EROFS),
    ("ENODATA", libc::ENODATA),
    ("ETIMEDOUT", libc::ETIMEDOUT),
    ("EOVERFLOW", libc::EOVERFLOW),
    ("EILSEQ", libc::EILSEQ),
    ("EOPNOTSUPP", libc::EOPNOTSUPP),
    ("ECONNRESET", libc::ECONNRESET),
    ("ENOTCONN", libc::ENOTCONN),
    ("ESTALE", libc::ESTALE),
    ("EREMOTEIO", libc::EREMOTEIO),
    ("EDQUOT", libc::EDQUOT),
    ("ECANCELED", libc::ECANCELED),
];

/// The value of an errno written by name (`EIO`, any case) or number (`5`).
pub fn errno_value(text: &str) -> Option<i32> {
    let value = match text.parse::<i32>() {
        Ok(n) => n,
        Err(_) => ERRNOS.iter().find(|(n, _)| n.eq_ignore_ascii_case(text))?.1,
    };
    (1..512).contains(&value).then_some(value)
}

/// The name of errno `value`, or its number.
pub fn errno_name(value: i32) -> String {
    ERRNOS
        .iter()
        .find(|(_, v)| *v == value)
        .map_or_else(|| value.to_string(), |(n, _)| n.to_string())
}

/// How injected delays are drawn around `--delay`'s TIME.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DelayDist {
    /// Exactly TIME.
    Fixed,
    /// Uniform from 0 to twice TIME (mean TIME).
    Uniform,
    /// Exponential with mean TIME.
    Exponential,
}

impl DelayDist {
    /// Parses `fixed`, `uniform` or `exponential`.
    pub fn parse(text: &str) -> Option<DelayDist> {
        match text {
            "fixed" => Some(DelayDist::Fixed),
            "uniform" => Some(DelayDist::Uniform),
            "exponential" => Some(DelayDist::Exponential),
            _ => None,
        }
    }
}

/// `--delay=TIME[:PERCENT]` with `--delay-dist`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DelayRule {
    /// TIME: the delay, or its mean.
    pub mean: Duration,
    /// The share of data requests delayed, 0 to 1.
    pub share: f64,
    /// How the delay is drawn.
    pub dist: DelayDist,
}

/// Everything injected, as configured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FaultConfig {
    /// `--fail` rules, tried in order; the first that fires decides.
    pub fail: Vec<FailRule>,
    /// `--fail-after`: no fault until this many bytes have been read or written.
    pub after: u64,
    /// `--fail-range`: faults only for requests touching `[start, end)` (fsyncs, which
    /// touch no range, are not held back by it).
    pub range: Option<(u64, u64)>,
    /// `--delay`.
    pub delay: Option<DelayRule>,
    /// `--corrupt`: the share of reads returned with one byte flipped.
    pub corrupt: f64,
    /// `--seed`.
    pub seed: u64,
}

impl FaultConfig {
    /// Whether anything is injected at all.
    pub fn any(&self) -> bool {
        !self.fail.is_empty() || self.delay.is_some() || self.corrupt > 0.0
    }
}

/// What happens to one data request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Decision {
    /// Fail it with this errno instead of doing it.
    pub fail: Option<i32>,
    /// Answer it this much later.
    pub delay: Option<Duration>,
    /// Flip the byte at this index of what a read returns.
    pub corrupt: Option<u32>,
}

/// The injection in force: the configuration and the counters that make it deterministic.
#[derive(Debug, Default)]
pub struct Faults {
    config: FaultConfig,
    moved: AtomicU64,
    seen: Vec<AtomicU64>,
    delays: AtomicU64,
    reads: AtomicU64,
}

/// Streams of draws, apart for each purpose.
const STREAM_DELAY: u64 = 1 << 40;
const STREAM_CORRUPT: u64 = 2 << 40;

impl Faults {
    /// The injection of `config`.
    pub fn new(config: FaultConfig) -> Faults {
        let seen = config.fail.iter().map(|_| AtomicU64::new(0)).collect();
        Faults { config, seen, ..Faults::default() }
    }

    /// Whether anything is injected.
    pub fn active(&self) -> bool {
        self.config.any()
    }

    /// What happens to `op`.
    pub fn decide(&self, op: &DataOp) -> Decision {
        let mut d = Decision::default();
        if !self.active() {
            return d;
        }
        let c = &self.config;
        let kind = op.kind();
        let moved = match *op {
            DataOp::Read { len, .. } | DataOp::Write { len, .. } => {
                self.moved.fetch_add(u64::from(len), Ordering::Relaxed)
            }
            _ => self.moved.load(Ordering::Relaxed),
        };
        let in_range = match (c.range, op.range()) {
            (Some((start, end)), Some((a, b))) => a < end && b > start,
            _ => true,
        };
        if moved >= c.after && in_range {
            for (i, rule) in c.fail.iter().enumerate().filter(|(_, r)| r.kinds.has(kind)) {
                let n = self.seen[i].fetch_add(1, Ordering::Relaxed);
                if draw(c.seed, i as u64, n) < rule.share {
                    d.fail = Some(rule.errno);
                    break;
                }
            }
        }
        if let Some(rule) = &c.delay {
            let n = self.delays.fetch_add(1, Ordering::Relaxed);
            if draw(c.seed, STREAM_DELAY, 2 * n) < rule.share {
                let u = draw(c.seed, STREAM_DELAY, 2 * n + 1);
                let mean = rule.mean.as_secs_f64();
                let secs = match rule.dist {
                    DelayDist::Fixed => mean,
                    DelayDist::Uniform => 2.0 * mean * u,
                    DelayDist::Exponential => -mean * (1.0 - u).ln(),
                };
                d.delay = Some(Duration::from_secs_f64(secs));
            }
        }
        if let (DataOp::Read { len, .. }, None) = (op, d.fail) {
            if c.corrupt > 0.0 {
                let n = self.reads.fetch_add(1, Ordering::Relaxed);
                if draw(c.seed, STREAM_CORRUPT, 2 * n) < c.corrupt {
                    let at = (draw(c.seed, STREAM_CORRUPT, 2 * n + 1) * f64::from(*len)) as u32;
                    d.corrupt = Some(at.min(len.saturating_sub(1)));
                }
            }
        }
        d
    }
}

/// A uniform draw in [0, 1) from (seed, stream, n): splitmix64's finaliser over their mix.
fn draw(seed: u64, stream: u64, n: u64) -> f64 {
    let mut z =
        seed ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ n.wrapping_mul(0xd1b5_4a32_d192_ed03);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(offset: u64) -> DataOp {
        DataOp::Read { offset, len: 4096 }
    }

    #[test]
    fn rules_parse_with_names_numbers_and_kinds() {
        let r = FailRule::parse("EIO:0.1%:read").unwrap();
        assert_eq!((r.errno, r.kinds), (libc::EIO, Kinds::only(Kind::Read)));
        assert!((r.share - 0.001).abs() < 1e-12);
        let r = FailRule::parse("28:100").unwrap();
        assert_eq!((r.errno, r.share, r.kinds), (libc::ENOSPC, 1.0, Kinds::ALL));
        assert!(FailRule::parse("EWHAT:1%").unwrap_err().contains("EWHAT"));
        assert!(FailRule::parse("EIO:101%").is_err());
        assert!(FailRule::parse("EIO:1%:reads").unwrap_err().contains("reads"));
        assert!(FailRule::parse("EIO").is_err());
        assert_eq!(errno_name(libc::ENOSPC), "ENOSPC");
    }

    #[test]
    fn a_full_rule_fails_exactly_the_requests_in_its_range_after_its_threshold() {
        let config = FaultConfig {
            fail: vec![FailRule { errno: libc::EIO, share: 1.0, kinds: Kinds::only(Kind::Read) }],
            after: 8192,
            range: Some((0, 1 << 20)),
            ..Default::default()
        };
        let f = Faults::new(config);
        let fails: Vec<bool> = [0, 4096, 8192, 1 << 20, 4096]
            .iter()
            .map(|&o| f.decide(&read(o)).fail.is_some())
            .collect();
        assert_eq!(fails, [false, false, true, false, true]);
        assert_eq!(f.decide(&DataOp::Write { offset: 0, len: 512 }).fail, None);
    }

    #[test]
    fn the_same_seed_fails_the_same_requests_and_shares_come_out_near_their_value() {
        let config = |seed| FaultConfig {
            fail: vec![FailRule::parse("EIO:10%").unwrap()],
            seed,
            ..Default::default()
        };
        let run = |seed| {
            let f = Faults::new(config(seed));
            (0..10_000).map(|i| f.decide(&read(i * 4096)).fail.is_some()).collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
        let n = run(7).iter().filter(|&&f| f).count();
        assert!((800..1200).contains(&n), "{n}");
    }

    #[test]
    fn delays_follow_their_distribution_and_corruption_picks_a_byte_of_the_read() {
        let config = FaultConfig {
            delay: Some(DelayRule {
                mean: Duration::from_millis(2),
                share: 1.0,
                dist: DelayDist::Fixed,
            }),
            corrupt: 1.0,
            ..Default::default()
        };
        let f = Faults::new(config);
        let d = f.decide(&read(0));
        assert_eq!(d.delay, Some(Duration::from_millis(2)));
        assert!(d.corrupt.is_some_and(|at| at < 4096));
        assert_eq!(f.decide(&DataOp::Fsync).corrupt, None);
    }

    #[test]
    fn uniform_and_exponential_delays_have_their_mean_and_a_share_delays_that_share() {
        let run = |dist, share| {
            let mean = Duration::from_millis(1);
            let delay = Some(DelayRule { mean, share, dist });
            let f = Faults::new(FaultConfig { delay, seed: 3, ..Default::default() });
            (0..10_000).filter_map(|i| f.decide(&read(i * 4096)).delay).collect::<Vec<_>>()
        };
        let mean_ms =
            |d: &[Duration]| 1e3 * d.iter().sum::<Duration>().as_secs_f64() / d.len() as f64;
        let uniform = run(DelayDist::Uniform, 1.0);
        assert_eq!(uniform.len(), 10_000);
        assert!(uniform.iter().all(|&d| d <= Duration::from_millis(2)));
        assert!((mean_ms(&uniform) - 1.0).abs() < 0.05, "{}", mean_ms(&uniform));
        let exponential = run(DelayDist::Exponential, 1.0);
        assert!((mean_ms(&exponential) - 1.0).abs() < 0.05, "{}", mean_ms(&exponential));
        // A tail: P(delay > 4 x mean) = e^-4, about 1.8%.
        let tail = exponential.iter().filter(|&&d| d > Duration::from_millis(4)).count();
        assert!((100..300).contains(&tail), "{tail}");
        let some = run(DelayDist::Fixed, 0.25);
        assert!((2300..2700).contains(&some.len()), "{}", some.len());
    }
}
