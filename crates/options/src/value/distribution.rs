//! `random_distribution`: how random offsets are spread over a file.
//!
//! A value is `name[:args]`, and up to three of them separated by `,` set reads, writes and
//! trims apart, with the per-direction rule of [`super::lists`] (`zipf:1.2,pareto:0.3` gives
//! trims the write distribution). For `zoned` and `zoned_abs` a part after the first may be
//! a bare zone list, which keeps the previous part's kind, as the HOWTO writes it
//! (`zoned:60/10:40/90,50/50:50/50`).
//!
//! - `random`: uniform (fio accepts and ignores anything after `random:`; so does iomark).
//! - `zipf[:theta[:center]]`: theta not 1, default 1.1.
//! - `pareto[:power[:center]]`: 0 < power < 1, default 0.2.
//! - `normal[:dev[:center]]` (alias `gauss`, which fio 3.33 refuses here): 0 <= dev < 100,
//!   default 0; `center` is in 0..=1.
//! - `zoned:A/S:A/S…`: A whole access percentages that add up to exactly 100 (fio truncates
//!   a fraction, `60.5` counts as 60), S zone sizes in percent of the region, that add up to
//!   at most 100; a blank size takes an equal part of what the others leave (fio 3.33 runs
//!   `zoned:60/10:40/` as `60/10:40/90`). At most 256 zones.
//! - `zoned_abs:A/SIZE:…`: the same with absolute zone sizes (`60/20g:40/100g`); a size
//!   may not be blank. Whether they fit the file is checked when the job is planned.
//!
//! fio 3.33 refuses every per-direction form (its parser fails on the `,`), although its
//! HOWTO documents them; iomark accepts them as documented. Where fio reads a prefix and
//! ignores the rest (`zipf:1.2:0.25:3`, `normal:5%`), iomark refuses the value.

use super::{Ctx, ValueError};
use std::cell::Cell;
use std::fmt;

/// The most zones of a `zoned` or `zoned_abs` list (fio's documented limit).
pub const MAX_ZONES: usize = 256;

/// fio's default Zipf theta.
pub const DEFAULT_ZIPF_THETA: f64 = 1.1;

/// fio's default Pareto power.
pub const DEFAULT_PARETO_POWER: f64 = 0.2;

/// One direction's random offset distribution.
#[derive(Debug, Clone, PartialEq)]
pub enum Distribution {
    /// Uniform.
    Random,
    /// Zipf with exponent `theta`.
    Zipf {
        /// The exponent (> 0, not 1).
        theta: f64,
        /// Where the most popular block sits, as a fraction of the range (0..=1); `None`
        /// places it at random.
        center: Option<f64>,
    },
    /// Pareto with power `power`.
    Pareto {
        /// The power (0 < power < 1).
        power: f64,
        /// As for [`Distribution::Zipf`].
        center: Option<f64>,
    },
    /// A bell curve with deviation `deviation` percent.
    Normal {
        /// The deviation in percent (0 <= dev < 100).
        deviation: f64,
        /// As for [`Distribution::Zipf`]; `None` means 0.5.
        center: Option<f64>,
    },
    /// Zones sized in percent of the region.
    Zoned(Vec<Zone>),
    /// Zones sized in bytes from the region start.
    ZonedAbs(Vec<AbsZone>),
}

/// One zone of a `zoned` list.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Zone {
    /// The share of random I/Os that land in the zone, in percent.
    pub access: u32,
    /// The zone's size in percent of the region (a blank size already resolved).
    pub percent: f64,
}

/// One zone of a `zoned_abs` list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbsZone {
    /// The share of random I/Os that land in the zone, in percent.
    pub access: u32,
    /// The zone's size in bytes.
    pub bytes: u64,
}

impl fmt::Display for Distribution {
    /// The canonical form (`zipf:1.2`, `zoned:60/10:40/90`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let center = |c: &Option<f64>| c.map_or(String::new(), |c| format!(":{c}"));
        match self {
            Distribution::Random => write!(f, "random"),
            Distribution::Zipf { theta, center: c } => write!(f, "zipf:{theta}{}", center(c)),
            Distribution::Pareto { power, center: c } => write!(f, "pareto:{power}{}", center(c)),
            Distribution::Normal { deviation, center: c } => {
                write!(f, "normal:{deviation}{}", center(c))
            }
            Distribution::Zoned(zones) => {
                let parts: Vec<String> =
                    zones.iter().map(|z| format!("{}/{}", z.access, z.percent)).collect();
                write!(f, "zoned:{}", parts.join(":"))
            }
            Distribution::ZonedAbs(zones) => {
                let parts: Vec<String> =
                    zones.iter().map(|z| format!("{}/{}", z.access, z.bytes)).collect();
                write!(f, "zoned_abs:{}", parts.join(":"))
            }
        }
    }
}

/// Which kind a bare zone list continues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ZoneKind {
    Percent,
    Absolute,
}

/// Parses a whole `random_distribution` value into one distribution per direction.
pub fn parse_distribution(raw: &str, ctx: &Ctx) -> Result<[Option<Distribution>; 3], ValueError> {
    let last_zones = Cell::new(None);
    super::lists::per_dir(raw, b",", |part| {
        let starts_with_name = part.bytes().next().is_some_and(|b| b.is_ascii_alphabetic());
        if starts_with_name {
            let dist = parse_one(part, ctx)?;
            last_zones.set(match dist {
                Distribution::Zoned(_) => Some(ZoneKind::Percent),
                Distribution::ZonedAbs(_) => Some(ZoneKind::Absolute),
                _ => None,
            });
            return Ok(dist);
        }
        match last_zones.get() {
            Some(ZoneKind::Percent) => Ok(Distribution::Zoned(zones(part, part)?)),
            Some(ZoneKind::Absolute) => Ok(Distribution::ZonedAbs(abs_zones(part, part, ctx)?)),
            None => Err(explained(
                part,
                "a bare zone list must follow a 'zoned:' or 'zoned_abs:' value".into(),
            )),
        }
    })
}

/// A refusal of `value` with the reason.
fn explained(value: &str, why: String) -> ValueError {
    ValueError::Explained { what: "random_distribution", value: value.to_string(), why }
}

/// Parses one direction's value: `name[:args]`.
fn parse_one(text: &str, ctx: &Ctx) -> Result<Distribution, ValueError> {
    let (name, args) = match text.split_once(':') {
        Some((name, args)) => (name.trim(), Some(args)),
        None => (text.trim(), None),
    };
    match name {
        "random" => Ok(Distribution::Random),
        "zipf" => {
            let (theta, center) = number_and_center(text, args, DEFAULT_ZIPF_THETA)?;
            // fio 3.33 runs any theta but 1 (0 draws uniformly, a negative one favours the
            // end of the range); its draws are iomark's (`crates/cli/tests/cli/random`).
            if theta == 1.0 {
                return Err(explained(text, "zipf theta must not be 1".into()));
            }
            Ok(Distribution::Zipf { theta, center })
        }
        "pareto" => {
            let (power, center) = number_and_center(text, args, DEFAULT_PARETO_POWER)?;
            if !(power > 0.0 && power < 1.0) {
                return Err(explained(text, "pareto power must be between 0 and 1".into()));
            }
            Ok(Distribution::Pareto { power, center })
        }
        "normal" | "gauss" => {
            let (deviation, center) = number_and_center(text, args, 0.0)?;
            if !(0.0..100.0).contains(&deviation) {
                return Err(explained(text, "normal deviation must be in 0 <= dev < 100".into()));
            }
            Ok(Distribution::Normal { deviation, center })
        }
        "zoned" => match args {
            Some(list) => Ok(Distribution::Zoned(zones(list, text)?)),
            None => Err(explained(text, "zoned needs zones: zoned:60/10:40/90".into())),
        },
        "zoned_abs" => match args {
            Some(list) => Ok(Distribution::ZonedAbs(abs_zones(list, text, ctx)?)),
            None => Err(explained(text, "zoned_abs needs zones: zoned_abs:60/1g:40/9g".into())),
        },
        _ => Err(ValueError::Choice {
            value: text.to_string(),
            valid: "random, zipf, pareto, normal, zoned, zoned_abs".to_string(),
        }),
    }
}

/// The `number[:center]` after `zipf:`, `pareto:` or `normal:`; `default` when absent.
fn number_and_center(
    text: &str,
    args: Option<&str>,
    default: f64,
) -> Result<(f64, Option<f64>), ValueError> {
    let Some(args) = args else { return Ok((default, None)) };
    let mut fields = args.split(':');
    let number = fields.next().unwrap_or_default().trim();
    let value = if number.is_empty() {
        default
    } else {
        super::size::float_literal(number)
            .ok_or_else(|| explained(text, format!("'{number}' is not a number")))?
    };
    let center = match fields.next().map(str::trim) {
        None => None,
        Some(c) => {
            let center = super::size::float_literal(c)
                .ok_or_else(|| explained(text, format!("center '{c}' is not a number")))?;
            if !(0.0..=1.0).contains(&center) {
                return Err(explained(text, "the center must be in 0..=1".into()));
            }
            Some(center)
        }
    };
    if fields.next().is_some() {
        return Err(explained(text, "at most two numbers follow the name".into()));
    }
    Ok((value, center))
}

/// The `access/size` entries of a zone list, empty entries skipped.
fn entries<'a>(list: &'a str, text: &str) -> Result<Vec<(u32, &'a str)>, ValueError> {
    let mut out = Vec::new();
    for item in list.split(':').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((access, size)) = item.split_once('/') else {
            return Err(explained(text, format!("zone '{item}' is not access/size")));
        };
        let access = access.trim();
        let percent = super::size::float_literal(access)
            .filter(|p| (0.0..=100.0).contains(p))
            .ok_or_else(|| explained(text, format!("access '{access}' is not a 0..100 share")))?;
        // fio 3.33 keeps the whole part of an access share.
        out.push((percent.trunc() as u32, size.trim()));
    }
    if out.is_empty() {
        return Err(explained(text, "no zone given".into()));
    }
    if out.len() > MAX_ZONES {
        return Err(explained(text, format!("more than {MAX_ZONES} zones")));
    }
    let sum: u32 = out.iter().map(|(a, _)| a).sum();
    if sum != 100 {
        return Err(explained(text, format!("access shares add up to {sum}%, not 100%")));
    }
    Ok(out)
}

/// A `zoned` list: sizes in percent, blanks resolved.
fn zones(list: &str, text: &str) -> Result<Vec<Zone>, ValueError> {
    let items = entries(list, text)?;
    let mut sizes = Vec::with_capacity(items.len());
    for (_, size) in &items {
        sizes.push(if size.is_empty() {
            None
        } else {
            let p = super::size::float_literal(size)
                .filter(|p| *p >= 0.0)
                .ok_or_else(|| explained(text, format!("zone size '{size}' is not a percent")))?;
            Some(p)
        });
    }
    let given: f64 = sizes.iter().flatten().sum();
    if given > 100.0 + 1e-9 {
        return Err(explained(text, format!("zone sizes add up to {given}%, more than 100%")));
    }
    let blanks = sizes.iter().filter(|s| s.is_none()).count();
    let blank = if blanks == 0 { 0.0 } else { (100.0 - given) / blanks as f64 };
    Ok(items
        .iter()
        .zip(sizes)
        .map(|((access, _), size)| Zone { access: *access, percent: size.unwrap_or(blank) })
        .collect())
}

/// A `zoned_abs` list: sizes in bytes.
fn abs_zones(list: &str, text: &str, ctx: &Ctx) -> Result<Vec<AbsZone>, ValueError> {
    entries(list, text)?
        .into_iter()
        .map(|(access, size)| {
            if size.is_empty() {
                return Err(explained(text, "a zoned_abs zone needs a size".into()));
            }
            Ok(AbsZone { access, bytes: super::size::parse_size(size, ctx)? })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(raw: &str) -> Result<Distribution, ValueError> {
        let dirs = parse_distribution(raw, &Ctx::default())?;
        Ok(dirs[0].clone().expect("a read distribution"))
    }

    #[test]
    fn names_numbers_and_centers() {
        assert_eq!(one("random"), Ok(Distribution::Random));
        assert_eq!(one("random:3"), Ok(Distribution::Random));
        assert_eq!(one("zipf"), Ok(Distribution::Zipf { theta: 1.1, center: None }));
        assert_eq!(one("zipf:1.2"), Ok(Distribution::Zipf { theta: 1.2, center: None }));
        assert_eq!(one("zipf:1.2:0.25"), Ok(Distribution::Zipf { theta: 1.2, center: Some(0.25) }));
        assert_eq!(one("pareto"), Ok(Distribution::Pareto { power: 0.2, center: None }));
        assert_eq!(one("normal"), Ok(Distribution::Normal { deviation: 0.0, center: None }));
        assert_eq!(
            one("gauss:5:0"),
            Ok(Distribution::Normal { deviation: 5.0, center: Some(0.0) })
        );
    }

    #[test]
    fn fio_limits_are_refused_with_the_reason() {
        for (bad, why) in [
            ("zipf:1", "not be 1"),
            ("pareto:1", "between 0 and 1"),
            ("pareto:0", "between 0 and 1"),
            ("normal:100", "dev < 100"),
            ("normal:-1", "dev < 100"),
            ("zipf:1.2:1.5", "0..=1"),
            ("zipf:1.2:0.25:3", "at most two"),
            ("zipf:abc", "not a number"),
            ("normal:5%", "not a number"),
            ("zoned", "needs zones"),
            ("uniform", "valid: random"),
        ] {
            let err = one(bad).expect_err(bad).to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn zones_follow_fio_rules() {
        let z = |access, percent| Zone { access, percent };
        assert_eq!(
            one("zoned:60/10:30/20:10/70"),
            Ok(Distribution::Zoned(vec![z(60, 10.0), z(30, 20.0), z(10, 70.0)]))
        );
        // A blank size takes the rest; sizes may add up to less than 100; spaces and a
        // trailing ':' are fine.
        assert_eq!(
            one("zoned: 60/10 : 40/ :"),
            Ok(Distribution::Zoned(vec![z(60, 10.0), z(40, 90.0)]))
        );
        assert_eq!(
            one("zoned:60/50:40/40"),
            Ok(Distribution::Zoned(vec![z(60, 50.0), z(40, 40.0)]))
        );
        for (bad, why) in [
            ("zoned:60/10:30/20", "add up to 90%"),
            ("zoned:60.5/10:39.5/90", "add up to 99%"),
            ("zoned:60/50:40/60", "more than 100%"),
            ("zoned:/10:100/90", "not a 0..100"),
            ("zoned:100", "access/size"),
            ("zoned_abs:50/32m:50/", "needs a size"),
        ] {
            let err = one(bad).expect_err(bad).to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
        assert_eq!(
            one("zoned_abs:60/20g:40/1m"),
            Ok(Distribution::ZonedAbs(vec![
                AbsZone { access: 60, bytes: 20 << 30 },
                AbsZone { access: 40, bytes: 1 << 20 }
            ]))
        );
        let many = vec!["1/0"; 100].join(":");
        assert!(one(&format!("zoned:{many}")).is_ok());
        let too_many = vec!["0/0"; 257].join(":") + ":100/1";
        assert!(one(&format!("zoned:{too_many}")).unwrap_err().to_string().contains("256"));
    }

    #[test]
    fn per_direction_values() {
        let ctx = Ctx::default();
        let dirs = parse_distribution("zipf:1.2,pareto:0.3", &ctx).unwrap();
        assert_eq!(dirs[0], Some(Distribution::Zipf { theta: 1.2, center: None }));
        assert_eq!(dirs[1], Some(Distribution::Pareto { power: 0.3, center: None }));
        assert_eq!(dirs[2], dirs[1]);
        let dirs = parse_distribution("zoned:60/10:40/90,50/50:50/50,", &ctx).unwrap();
        let half = Zone { access: 50, percent: 50.0 };
        assert_eq!(dirs[1], Some(Distribution::Zoned(vec![half, half])));
        assert_eq!(dirs[2], None);
        let dirs = parse_distribution("zoned_abs:100/1m,,50/1m:50/1m", &ctx).unwrap();
        assert_eq!(dirs[1], None);
        assert!(matches!(dirs[2], Some(Distribution::ZonedAbs(ref z)) if z.len() == 2));
        // fio 3.33 runs `zipf,zipf` and `random,` (it ignores the rest); so does iomark.
        assert!(parse_distribution("zipf,zipf", &ctx).is_ok());
        assert!(parse_distribution("random,", &ctx).is_ok());
        let err = parse_distribution("zipf:1.2,50/50:50/50", &ctx).unwrap_err().to_string();
        assert!(err.contains("bare zone list"), "{err}");
        assert!(parse_distribution("random,random,random,random", &ctx).is_err());
    }

    #[test]
    fn canonical_form_parses_back() {
        for raw in ["random", "zipf:1.2:0.25", "pareto:0.3", "normal:10", "zoned:60/10:40/90"] {
            let d = one(raw).unwrap();
            assert_eq!(one(&d.to_string()), Ok(d), "{raw}");
        }
    }
}
