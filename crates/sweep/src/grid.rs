//! The grid of a sweep: axes (an option and its values) and the points they span.
//!
//! An axis's values are a comma-separated list whose items are values (`libaio`, `4k`) or
//! doubling ranges `A..B`: A, 2A, 4A, … up to B (B itself when a doubling reaches it), so
//! `--iodepth=1,2,4..256` is 1, 2, 4, 8, …, 256 and `--bs=4k..64k` is 4k, 8k, 16k, 32k, 64k.
//! A range's ends are whole numbers with an optional binary suffix (k, m, g, t; `ki`, `kib`
//! and `kb` alike); the values are plain numbers when the start is, else written with the
//! largest suffix that divides them (`512k..2m` is 512k, 1m, 2m).
//!
//! The points are every combination of the axes' values, in the order of the axes given,
//! the last axis changing fastest; [`Grid::new`] puts `numjobs` and then `iodepth` last, so
//! that a series over depth (or over jobs) comes out as consecutive rows.

use serde::{Deserialize, Serialize};

/// Why an axis cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// An empty list or item.
    #[error("option '{option}': empty value in '{list}'")]
    Empty {
        /// The option.
        option: String,
        /// The list as written.
        list: String,
    },
    /// A range whose ends are not whole sizes, or that runs backwards.
    #[error("option '{option}': invalid range '{item}' (write A..B with whole numbers, A <= B, such as 1..256 or 4k..1m)")]
    Range {
        /// The option.
        option: String,
        /// The range as written.
        item: String,
    },
    /// The same option given twice.
    #[error("option '{option}' is swept twice")]
    Twice {
        /// The option.
        option: String,
    },
}

/// One axis: an option and the values it takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Axis {
    /// The option's name (`iodepth`).
    pub option: String,
    /// Its values, as the job will be given them.
    pub values: Vec<String>,
}

impl Axis {
    /// The axis of `option` over the list `list` (see the module doc).
    pub fn parse(option: &str, list: &str) -> Result<Axis, GridError> {
        let empty = || GridError::Empty { option: option.into(), list: list.into() };
        let mut values = Vec::new();
        for item in list.split(',').map(str::trim) {
            if item.is_empty() {
                return Err(empty());
            }
            match item.split_once("..") {
                Some((a, b)) => values.extend(range(option, item, a, b)?),
                None => values.push(item.to_string()),
            }
        }
        Ok(Axis { option: option.to_string(), values })
    }
}

/// The doubling range from `a` to `b`.
fn range(option: &str, item: &str, a: &str, b: &str) -> Result<Vec<String>, GridError> {
    let bad = || GridError::Range { option: option.into(), item: item.into() };
    let (lo, unit) = size(a).ok_or_else(bad)?;
    let (hi, _) = size(b).ok_or_else(bad)?;
    if lo == 0 || lo > hi {
        return Err(bad());
    }
    let mut out = Vec::new();
    let mut v = lo;
    while v <= hi {
        out.push(show(v, unit));
        match v.checked_mul(2) {
            Some(next) => v = next,
            None => break,
        }
    }
    Ok(out)
}

/// A whole number with an optional binary suffix: its value and the suffix's power of 1024.
fn size(text: &str) -> Option<(u64, u32)> {
    let text = text.trim().to_ascii_lowercase();
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let n: u64 = text[..digits].parse().ok()?;
    let power = match text[digits..].trim_end_matches(['b', 'i']) {
        "" => 0,
        "k" => 1,
        "m" => 2,
        "g" => 3,
        "t" => 4,
        _ => return None,
    };
    Some((n.checked_mul(1u64.checked_shl(10 * power)?)?, power))
}

/// `v` as a plain number when the range's start had no suffix (`unit` 0), else with the
/// largest suffix that divides it evenly.
fn show(v: u64, unit: u32) -> String {
    let top = if unit == 0 { 0 } else { 4 };
    for power in (1..=top).rev() {
        let scale = 1u64 << (10 * power);
        if v % scale == 0 {
            return format!("{}{}", v / scale, ["", "k", "m", "g", "t"][power as usize]);
        }
    }
    v.to_string()
}

/// The axes of a sweep.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Grid {
    /// The axes, the last changing fastest.
    pub axes: Vec<Axis>,
}

/// One point of the grid: a value for each axis, in the axes' order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    /// `(option, value)` per axis.
    pub values: Vec<(String, String)>,
}

impl Point {
    /// The value of `option` at this point.
    pub fn get(&self, option: &str) -> Option<&str> {
        self.values.iter().find(|(o, _)| o == option).map(|(_, v)| v.as_str())
    }

    /// `ioengine=libaio iodepth=4`; `-` for a grid without axes.
    pub fn label(&self) -> String {
        if self.values.is_empty() {
            return "-".into();
        }
        self.values.iter().map(|(o, v)| format!("{o}={v}")).collect::<Vec<_>>().join(" ")
    }

    /// The label of the point's series along `x`: every value but `x`'s.
    pub fn series_label(&self, x: &str) -> String {
        let rest: Vec<String> =
            self.values.iter().filter(|(o, _)| o != x).map(|(o, v)| format!("{o}={v}")).collect();
        if rest.is_empty() {
            "all".into()
        } else {
            rest.join(" ")
        }
    }
}

impl Grid {
    /// The grid of `axes`, `numjobs` and `iodepth` moved to the end (in that order); refuses
    /// an option given twice.
    pub fn new(mut axes: Vec<Axis>) -> Result<Grid, GridError> {
        for (i, a) in axes.iter().enumerate() {
            if axes[..i].iter().any(|b| b.option == a.option) {
                return Err(GridError::Twice { option: a.option.clone() });
            }
        }
        for last in ["numjobs", "iodepth"] {
            if let Some(i) = axes.iter().position(|a| a.option == last) {
                let axis = axes.remove(i);
                axes.push(axis);
            }
        }
        Ok(Grid { axes })
    }

    /// The axis of `option`, if it is swept over more than one value.
    pub fn varies(&self, option: &str) -> bool {
        self.axes.iter().any(|a| a.option == option && a.values.len() > 1)
    }

    /// Every point, the last axis changing fastest.
    pub fn points(&self) -> Vec<Point> {
        let mut out = vec![Point { values: Vec::new() }];
        for axis in &self.axes {
            out = out
                .into_iter()
                .flat_map(|p| {
                    axis.values.iter().map(move |v| {
                        let mut values = p.values.clone();
                        values.push((axis.option.clone(), v.clone()));
                        Point { values }
                    })
                })
                .collect();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_doubling_ranges() {
        let a = Axis::parse("iodepth", "1,2,4..256").unwrap();
        assert_eq!(a.values, ["1", "2", "4", "8", "16", "32", "64", "128", "256"]);
        assert_eq!(Axis::parse("iodepth", "1..6").unwrap().values, ["1", "2", "4"]);
        assert_eq!(Axis::parse("bs", "4k..64k").unwrap().values, ["4k", "8k", "16k", "32k", "64k"]);
        assert_eq!(Axis::parse("bs", "512..2k").unwrap().values, ["512", "1024", "2048"]);
        assert_eq!(Axis::parse("bs", "512k..2MiB").unwrap().values, ["512k", "1m", "2m"]);
        assert_eq!(
            Axis::parse("ioengine", "libaio, io_uring").unwrap().values,
            ["libaio", "io_uring"]
        );
    }

    #[test]
    fn bad_lists_are_named() {
        let e = Axis::parse("iodepth", "1,,2").unwrap_err();
        assert_eq!(e.to_string(), "option 'iodepth': empty value in '1,,2'");
        assert!(matches!(Axis::parse("iodepth", "8..2"), Err(GridError::Range { .. })));
        assert!(matches!(Axis::parse("iodepth", "x..2"), Err(GridError::Range { .. })));
        assert!(matches!(Axis::parse("iodepth", "0..2"), Err(GridError::Range { .. })));
    }

    #[test]
    fn points_span_the_grid_depth_fastest() {
        let g = Grid::new(vec![
            Axis::parse("iodepth", "1,2").unwrap(),
            Axis::parse("ioengine", "libaio,io_uring").unwrap(),
            Axis::parse("numjobs", "1,4").unwrap(),
        ])
        .unwrap();
        let labels: Vec<String> = g.points().iter().map(Point::label).collect();
        assert_eq!(labels.len(), 8);
        assert_eq!(labels[0], "ioengine=libaio numjobs=1 iodepth=1");
        assert_eq!(labels[1], "ioengine=libaio numjobs=1 iodepth=2");
        assert_eq!(labels[2], "ioengine=libaio numjobs=4 iodepth=1");
        assert_eq!(labels[7], "ioengine=io_uring numjobs=4 iodepth=2");
        assert_eq!(g.points()[3].series_label("iodepth"), "ioengine=libaio numjobs=4");
        assert!(g.varies("iodepth") && !g.varies("bs"));
        assert_eq!(Grid::default().points(), vec![Point { values: vec![] }]);
        let twice =
            Grid::new(vec![Axis::parse("bs", "4k").unwrap(), Axis::parse("bs", "8k").unwrap()]);
        assert_eq!(twice.unwrap_err(), GridError::Twice { option: "bs".into() });
    }
}
