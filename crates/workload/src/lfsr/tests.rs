//! The register gives fio 3.33's orders, visits every value once per pass, and every tap
//! set is primitive.

use super::*;

fn pass(l: &mut Lfsr) -> Vec<u64> {
    std::iter::from_fn(|| l.next_value()).collect()
}

#[test]
fn fio_3_33_orders() {
    // fio 3.33, `--rw=randread --bs=512 --random_generator=lfsr --loops=2` over 7, 4 and 17
    // blocks (job 1: seed 0xb1899bed); a second pass over 7 blocks starts where the first
    // ended.
    let seed = 0xb189_9bed;
    let mut l = Lfsr::new(7, seed).unwrap();
    assert_eq!(pass(&mut l), [1, 4, 0, 2, 3, 5, 6]);
    l.reset();
    assert_eq!(pass(&mut l), [6, 1, 4, 0, 2, 3, 5]);
    let mut l = Lfsr::new(4, seed).unwrap();
    assert_eq!(pass(&mut l), [1, 0, 2, 3]);
    l.reset();
    assert_eq!(pass(&mut l), [1, 0, 2, 3]);
    let mut l = Lfsr::new(17, seed).unwrap();
    assert_eq!(pass(&mut l), [15, 11, 9, 14, 3, 8, 0, 4, 6, 7, 10, 1, 16, 12, 2, 5, 13]);
    // 2^32 - 1 blocks, fio's own 32-bit taps.
    let mut l = Lfsr::new(u64::from(u32::MAX), seed).unwrap();
    let first: Vec<u64> = (0..3).map(|_| l.next_value().unwrap()).collect();
    assert_eq!(first, [1_013_081_850, 1_311_847_292, 1_998_100_927]);
    // Job 3 of `numjobs=3` over 7 blocks: fio 3.33 fails it ("failed initializing LFSR").
    assert!(Lfsr::new(7, seed.wrapping_mul(3)).is_none());
}

#[test]
fn every_value_once_per_pass() {
    for n in [1u64, 2, 3, 4, 7, 8, 100, 1000, 4096, 65_537] {
        for seed in [0, 1, 0x89, 0xb189_9bed] {
            let Some(mut l) = Lfsr::new(n, seed) else { continue };
            for p in 0..2 {
                let order = pass(&mut l);
                let mut seen = vec![false; n as usize];
                for &v in &order {
                    assert!(v < n && !seen[v as usize], "n {n} seed {seed}: {v} twice");
                    seen[v as usize] = true;
                }
                assert_eq!(order.len() as u64, n, "n {n} seed {seed} pass {p}");
                l.reset();
            }
        }
    }
}

#[test]
fn small_registers_have_the_full_period() {
    for width in 3..=20u32 {
        let n = (1u64 << width) - 1;
        let mut l = Lfsr::new(n, 0).unwrap();
        let start = l.state;
        let mut period = 0u64;
        loop {
            l.step();
            period += 1;
            if l.state == start {
                break;
            }
            assert!(period < 1 << width, "width {width} never returns");
        }
        assert_eq!(period, n, "width {width}");
    }
}

// --- primitivity up to 64 bits ---------------------------------------------------------

/// a·b mod m.
fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(m)) as u64
}

fn pow_mod(mut b: u64, mut e: u64, m: u64) -> u64 {
    let mut r = 1 % m;
    b %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, b, m);
        }
        b = mul_mod(b, b, m);
        e >>= 1;
    }
    r
}

/// Miller–Rabin with the bases that decide every 64-bit number.
fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    for p in BASES {
        if n % p == 0 {
            return n == p;
        }
    }
    let (mut d, mut r) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        r += 1;
    }
    'bases: for a in BASES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..r {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A non-trivial factor of the composite `n`, by Pollard's rho (Brent's cycle finding).
fn rho(n: u64) -> u64 {
    if n % 2 == 0 {
        return 2;
    }
    for c in 1.. {
        let f = |x: u64| (mul_mod(x, x, n) + c) % n;
        let (mut x, mut y, mut d) = (2u64, 2u64, 1u64);
        while d == 1 {
            x = f(x);
            y = f(f(y));
            d = gcd(x.abs_diff(y), n);
        }
        if d != n {
            return d;
        }
    }
    unreachable!()
}

/// The distinct prime factors of `n`.
fn prime_factors(n: u64, out: &mut Vec<u64>) {
    if n == 1 {
        return;
    }
    if is_prime(n) {
        if !out.contains(&n) {
            out.push(n);
        }
        return;
    }
    let d = rho(n);
    prime_factors(d, out);
    prime_factors(n / d, out);
}

/// a·b modulo the polynomial `poly` of degree `w` over GF(2) (bit i is x^i).
fn poly_mul(a: u64, b: u64, poly: u128, w: u32) -> u64 {
    let (mut a, mut b, mut r) = (u128::from(a), b, 0u128);
    while b != 0 {
        if b & 1 == 1 {
            r ^= a;
        }
        b >>= 1;
        a <<= 1;
        if a >> w & 1 == 1 {
            a ^= poly;
        }
    }
    r as u64
}

fn poly_pow(mut base: u64, mut e: u64, poly: u128, w: u32) -> u64 {
    let mut r = 1u64;
    while e > 0 {
        if e & 1 == 1 {
            r = poly_mul(r, base, poly, w);
        }
        base = poly_mul(base, base, poly, w);
        e >>= 1;
    }
    r
}

/// Whether x has order exactly 2^w - 1 modulo the register's polynomial, which makes the
/// polynomial primitive and the register maximal. For a right-shifting Galois register
/// with mask M the polynomial is x^w + the sum of x^(w-1-j) over the bits j of M.
fn maximal(width: u32) -> bool {
    let mask = tap_mask(width);
    let mut poly = 1u128 << width;
    for j in 0..width {
        if mask >> j & 1 == 1 {
            poly |= 1 << (width - 1 - j);
        }
    }
    let order = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    if poly_pow(2, order, poly, width) != 1 {
        return false;
    }
    let mut primes = Vec::new();
    prime_factors(order, &mut primes);
    primes.iter().all(|q| poly_pow(2, order / q, poly, width) != 1)
}

#[test]
fn the_order_test_agrees_with_enumeration() {
    // The algebra says yes exactly where the period is full: every table entry up to 20
    // bits, and a mask known not to be maximal (x^4 + x^2 + 1 = (x^2 + x + 1)^2).
    for width in 2..=20 {
        assert!(maximal(width), "width {width}");
    }
    let poly = (1u128 << 4) | (1 << 2) | 1;
    assert_ne!(poly_pow(2, 15, poly, 4), 1);
}

#[test]
fn every_tap_set_up_to_64_bits_is_maximal() {
    let bad: Vec<u32> = (2..=64).filter(|&w| !maximal(w)).collect();
    assert!(bad.is_empty(), "widths whose taps are not maximal: {bad:?}");
}
