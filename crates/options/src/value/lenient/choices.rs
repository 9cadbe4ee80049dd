//! fio 3.33's readings of malformed choices, learned from its `--debug=parse` output (see
//! `crates/options/tests/fio_compat/leniency.rs`):
//!
//! - the number after a choice's `:` is the number at its front (`rw=read:8kx` is
//!   `read:8192`); a count (after a random `rw` mode, or a `file_service_type`) is read as
//!   C's `atoi` reads it, without a unit, no number being 0 (`randread:4k` is `randread:4`,
//!   `random:x` is `random:0`);
//! - `random_distribution`: the numbers at the front of the first two fields after the name
//!   (`zipf:1.2x` is `zipf:1.2`); further fields are ignored (`zipf:1.2:0.25:3`); a zone's
//!   size of `zoned` or `zoned_abs` is the number at its front (`50/90x` is `50/90`,
//!   `50/32kx` is `50/32768`; the same iolog as fio's);
//! - `sync_file_range`: names after the first that fio does not know are dropped, empty
//!   ones skipped, and the count after `:` is the number at its front, read as C's `atoi`
//!   reads it (`write:4k` is 4);
//!   no number at all is 0, which turns the option off.

use super::number::{self, read_float};
use super::Found;
use crate::kind::{Choice, ChoiceArg};
use crate::value::distribution::{self, Distribution};
use crate::value::{Ctx, Value};

/// A choice with a malformed number after its `:`.
pub(super) fn choice(
    raw: &str,
    choices: &'static [Choice],
    ctx: &Ctx,
    found: &mut Found,
) -> Option<Value> {
    let (name, arg) = raw.trim().split_once(':')?;
    let choice = choices.iter().find(|c| c.name == name)?;
    let arg = match choice.arg {
        ChoiceArg::OptionalSize => {
            let reading = number::read(arg, ctx.kb_base)?;
            if reading.zones || reading.percent || reading.value < 0 {
                return None;
            }
            found.ignore(reading.rest);
            reading.value.to_string()
        }
        ChoiceArg::OptionalCount => {
            // C's `atoi`: no digit is 0, a negative count means none either.
            let (n, rest) = number::read_decimal(arg).unwrap_or((0, arg));
            found.ignore(rest);
            if rest == arg {
                found.because("no number, which fio 3.33 reads as 0");
            }
            n.max(0).to_string()
        }
        ChoiceArg::OptionalFloat | ChoiceArg::Float => {
            let (x, rest) = read_float(arg)?;
            found.ignore(rest);
            x.to_string()
        }
        _ => return None,
    };
    Some(Value::Choice { name: choice.name, arg: Some(arg) })
}

/// `random_distribution` with malformed numbers, or more of them than fio reads.
pub(super) fn distribution(
    raw: &str,
    ctx: &Ctx,
    found: &mut Found,
) -> Option<[Option<Distribution>; 3]> {
    let mut cleaned = Vec::new();
    for part in raw.split(',') {
        let Some((name, args)) = part.split_once(':') else {
            cleaned.push(part.to_string());
            continue;
        };
        if let zoned @ ("zoned" | "zoned_abs") = name.trim() {
            cleaned
                .push(format!("{zoned}:{}", zone_sizes(args, zoned == "zoned_abs", ctx, found)?));
            continue;
        }
        if !matches!(name.trim(), "zipf" | "pareto" | "normal" | "gauss") {
            cleaned.push(part.to_string());
            continue;
        }
        let mut numbers = Vec::new();
        let mut fields = args.split(':');
        for field in fields.by_ref().take(2) {
            if field.trim().is_empty() {
                numbers.push(String::new());
                continue;
            }
            let (x, rest) = read_float(field)?;
            found.ignore(rest);
            numbers.push(x.to_string());
        }
        let extra: Vec<&str> = fields.collect();
        if !extra.is_empty() {
            found.ignored.push(format!(":{}", extra.join(":")));
            found.because("no more than two numbers follow the name");
        }
        cleaned.push(format!("{}:{}", name.trim(), numbers.join(":")));
    }
    distribution::parse_distribution(&cleaned.join(","), ctx).ok()
}

/// The zones of `zoned` (`absolute`: `zoned_abs`) with each zone's size read as fio
/// reads it: its leading number (a size for `zoned_abs`), the rest ignored (`90x` is 90).
fn zone_sizes(list: &str, absolute: bool, ctx: &Ctx, found: &mut Found) -> Option<String> {
    let mut zones = Vec::new();
    for zone in list.split(':') {
        let Some((access, size)) = zone.split_once('/') else {
            zones.push(zone.to_string());
            continue;
        };
        let size = if absolute {
            super::scalar(size, ctx.kb_base, found)?.to_string()
        } else {
            let (n, rest) = number::read_decimal(size)?;
            found.ignore(rest);
            n.to_string()
        };
        zones.push(format!("{access}/{size}"));
    }
    Some(zones.join(":"))
}

/// `sync_file_range` with names fio drops or a malformed count.
pub(super) fn choice_set(
    raw: &str,
    choices: &'static [Choice],
    found: &mut Found,
) -> Option<Value> {
    let (set, count) = raw.trim().split_once(':').map_or((raw.trim(), None), |(s, c)| (s, Some(c)));
    let mut names: Vec<&'static str> = Vec::new();
    for (i, item) in set.split(',').enumerate() {
        match choices.iter().find(|c| c.name == item) {
            Some(c) if !names.contains(&c.name) => names.push(c.name),
            Some(_) => {}
            None if i == 0 => return None,
            None if item.is_empty() => found.because("an empty name is skipped"),
            None => {
                found.ignored.push(item.to_string());
                found.because("names after the first that fio 3.33 does not know are dropped");
            }
        }
    }
    let count = match count {
        None => None,
        Some(text) => match number::read_decimal(text) {
            Some((value, rest)) if value >= 0 => {
                found.ignore(rest);
                Some(u64::try_from(value).ok()?)
            }
            Some((value, rest)) => {
                // fio keeps the count in 32 unsigned bits: -1 is every 4294967295 writes.
                found.ignore(rest);
                found.because("a negative count wraps to 32 unsigned bits, as in fio 3.33");
                Some(u64::from(value as u32))
            }
            None => {
                if !text.is_empty() {
                    found.ignored.push(text.to_string());
                }
                found.because("no number counts as 0, which turns sync_file_range off");
                Some(0)
            }
        },
    };
    Some(Value::ChoiceSet { names, count })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SET: &[Choice] = &[
        Choice { name: "wait_before", help: "", arg: ChoiceArg::None },
        Choice { name: "write", help: "", arg: ChoiceArg::None },
    ];

    #[test]
    fn choice_sets() {
        let set = |raw| choice_set(raw, SET, &mut Found::default());
        let value =
            |names: &[&'static str], count| Some(Value::ChoiceSet { names: names.to_vec(), count });
        assert_eq!(set("write:4k"), value(&["write"], Some(4)));
        assert_eq!(set("write:abc"), value(&["write"], Some(0)));
        assert_eq!(set("write,foo:2"), value(&["write"], Some(2)));
        assert_eq!(set("write,,wait_before"), value(&["write", "wait_before"], None));
        assert_eq!(set("foo,write"), None);
        assert_eq!(set("write:-1"), value(&["write"], Some(4_294_967_295)));
    }

    #[test]
    fn zone_sizes_with_text() {
        let mut found = Found::default();
        let got = distribution("zoned:50/10:50/90x", &Ctx::default(), &mut found);
        assert!(got.is_some() && found.noteworthy());
        let mut found = Found::default();
        let got = distribution("zoned_abs:50/32kx:50/32k", &Ctx::default(), &mut found);
        assert!(got.is_some() && found.noteworthy());
    }

    #[test]
    fn distributions() {
        let d = |raw| distribution(raw, &Ctx::default(), &mut Found::default());
        let zipf = |theta, center| Some(Distribution::Zipf { theta, center });
        assert_eq!(d("zipf:1.2x").map(|v| v[0].clone()), Some(zipf(1.2, None)));
        assert_eq!(d("zipf:1.2:0.25:3").map(|v| v[0].clone()), Some(zipf(1.2, Some(0.25))));
        assert_eq!(d("zipf:x"), None);
    }
}
