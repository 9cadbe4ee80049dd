//! Scales, ticks and the writing of values on an axis.

/// How values map to positions along an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Linear.
    Linear,
    /// Base-10 logarithmic (values <= 0 are not drawn).
    Log,
    /// Percentiles in `[0, 100]`, spread as `-log10(1 - p/100)` so that 90, 99, 99.9 and
    /// 99.99 are equally spaced (the usual latency-percentile plot).
    Percentile,
}

/// How tick values are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A plain number, scaled with k, M, G.
    Count,
    /// Nanoseconds, written in ns, µs, ms or s.
    Nanos,
    /// Bytes per second, written in KiB/s, MiB/s, GiB/s.
    BytesPerSec,
    /// Bytes, written in KiB, MiB, GiB.
    Bytes,
    /// Milliseconds, written in ms or s.
    Millis,
    /// Seconds.
    Seconds,
    /// A share in percent.
    Percent,
}

/// The largest percentile position: 99.99999 %.
const PERCENTILE_CAP: f64 = 7.0;

impl Scale {
    /// The position of `v` along the axis (before scaling to pixels), if drawable.
    pub(crate) fn at(self, v: f64) -> Option<f64> {
        if !v.is_finite() {
            return None;
        }
        match self {
            Scale::Linear => Some(v),
            Scale::Log => (v > 0.0).then(|| v.log10()),
            Scale::Percentile => {
                let rest = 1.0 - v.clamp(0.0, 100.0) / 100.0;
                Some(if rest <= 0.0 { PERCENTILE_CAP } else { (-rest.log10()).min(PERCENTILE_CAP) })
            }
        }
    }

    /// The value at position `t` (the inverse of [`Scale::at`]).
    fn value(self, t: f64) -> f64 {
        match self {
            Scale::Linear => t,
            Scale::Log => 10f64.powf(t),
            Scale::Percentile => 100.0 * (1.0 - 10f64.powf(-t)),
        }
    }

    /// Tick positions between the positions `lo` and `hi`.
    pub(crate) fn ticks(self, lo: f64, hi: f64) -> Vec<f64> {
        match self {
            Scale::Linear => linear_ticks(lo, hi),
            Scale::Percentile => (lo.floor() as i64..=hi.ceil() as i64).map(|t| t as f64).collect(),
            Scale::Log if hi - lo < 1.0 => {
                let mut out = Vec::new();
                for decade in lo.floor() as i64..=hi.ceil() as i64 {
                    for m in [1.0, 2.0, 5.0] {
                        out.push((m * 10f64.powi(decade as i32)).log10());
                    }
                }
                out.retain(|t| *t >= lo - 1e-9 && *t <= hi + 1e-9);
                out
            }
            Scale::Log => {
                let step = ((hi - lo) / 6.0).ceil().max(1.0);
                let first = (lo / step).ceil() * step;
                (0..).map(|k| first + k as f64 * step).take_while(|t| *t <= hi + 1e-9).collect()
            }
        }
    }

    /// The range of positions to draw for data spanning the positions `lo..=hi`.
    pub(crate) fn range(self, lo: f64, hi: f64) -> (f64, f64) {
        match self {
            Scale::Linear if lo == hi && lo > 0.0 => (0.0, hi * 1.2),
            Scale::Linear if lo == hi && lo < 0.0 => (lo * 1.2, 0.0),
            Scale::Linear if lo == hi => (0.0, 1.0),
            Scale::Linear => {
                let pad = (hi - lo) * 0.04;
                (if lo >= 0.0 && lo - pad < 0.0 { 0.0 } else { lo - pad }, hi + pad)
            }
            Scale::Log if hi - lo < 0.3 => (lo - 0.15, hi + 0.15),
            Scale::Log => (lo - 0.05, hi + 0.05),
            Scale::Percentile => (lo.min(0.0), hi.ceil().max(1.0)),
        }
    }

    /// The text of the tick at position `t`.
    pub(crate) fn label(self, t: f64, unit: Unit) -> String {
        match self {
            Scale::Percentile => {
                let p = self.value(t);
                let digits = (t.round() as usize).saturating_sub(2);
                format!("{p:.digits$}%")
            }
            _ => unit.format(self.value(t)),
        }
    }
}

impl Unit {
    /// `v` written in this unit, short.
    pub fn format(self, v: f64) -> String {
        match self {
            Unit::Count => scaled(v, 1000.0, &["", "k", "M", "G", "T"], ""),
            Unit::BytesPerSec => scaled(v, 1024.0, &["B", "KiB", "MiB", "GiB", "TiB"], "/s"),
            Unit::Bytes => scaled(v, 1024.0, &["B", "KiB", "MiB", "GiB", "TiB"], ""),
            Unit::Percent => format!("{}%", trim(v)),
            Unit::Seconds => format!("{}s", trim(v)),
            Unit::Millis if v.abs() >= 1000.0 => format!("{}s", trim(v / 1000.0)),
            Unit::Millis => format!("{}ms", trim(v)),
            Unit::Nanos => {
                let a = v.abs();
                if a >= 1e9 {
                    format!("{}s", trim(v / 1e9))
                } else if a >= 1e6 {
                    format!("{}ms", trim(v / 1e6))
                } else if a >= 1e3 {
                    format!("{}µs", trim(v / 1e3))
                } else {
                    format!("{}ns", trim(v))
                }
            }
        }
    }
}

/// `v` divided by `base` until it is below `base`, with the matching suffix.
fn scaled(v: f64, base: f64, units: &[&str], tail: &str) -> String {
    let mut v = v;
    let mut k = 0;
    while v.abs() >= base && k + 1 < units.len() {
        v /= base;
        k += 1;
    }
    format!("{}{}{tail}", trim(v), units[k])
}

/// At most three significant figures, without trailing zeros.
fn trim(v: f64) -> String {
    let a = v.abs();
    let text = if a >= 100.0 || a == 0.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    };
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// About six round ticks (steps of 1, 2 or 5 × 10^k) between `lo` and `hi`.
fn linear_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = hi - lo;
    if span <= 0.0 || !span.is_finite() {
        return vec![lo];
    }
    let raw = span / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step =
        [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(mag);
    let first = (lo / step).ceil() * step;
    (0..).map(|k| first + k as f64 * step).take_while(|t| *t <= hi + step * 1e-9).collect()
}
