//! `iomark genzipf`: what a zipf, pareto or normal `random_distribution` looks like, in the
//! table fio's `fio-genzipf` prints.
//!
//! This file reads fio-genzipf's options and prints; the table itself (as many draws as the
//! data set, `-g` GiB, has blocks of `-b` bytes, the values hit sorted from the most hit and
//! split into `-o` rows, each row's share of the hits and the running sum) is computed by
//! [`iomark_workload::Hits`], which says how it follows fio-genzipf. Each row also shows the
//! size of its hits (hits × block size). The draws are iomark's (fixed seed unless `-s` is
//! given), so the numbers agree with fio-genzipf's within sampling noise, not digit for
//! digit. `-p P` prints how much of the data set (the most hit values first) serves P% of
//! the hits; fio 3.33 prints a number there that does not add up.

use iomark_options::flags;
use iomark_workload::{Distribution, Hits, DEFAULT_SEED};
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

/// The preview's settings, with fio-genzipf's defaults.
#[derive(Debug, Clone, PartialEq)]
struct Settings {
    kind: Kind,
    input: Option<f64>,
    gib: u64,
    bs: u64,
    rows: u64,
    csv: bool,
    percent: Option<f64>,
    seed: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Zipf,
    Pareto,
    Normal,
}

impl Kind {
    fn title(self) -> &'static str {
        match self {
            Kind::Zipf => "Zipf",
            Kind::Pareto => "Pareto",
            Kind::Normal => "Normal",
        }
    }

    /// fio-genzipf's default input (not random_distribution's: zipf 1.2 here, 1.1 there).
    fn default_input(self) -> f64 {
        match self {
            Kind::Zipf => 1.2,
            Kind::Pareto => 0.3,
            Kind::Normal => 0.0,
        }
    }

    fn distribution(self, input: f64) -> Distribution {
        match self {
            Kind::Zipf => Distribution::Zipf { theta: input, center: None },
            Kind::Pareto => Distribution::Pareto { power: input, center: None },
            Kind::Normal => Distribution::Normal { deviation: input, center: None },
        }
    }
}

/// Why the command line was refused, or `-h`.
enum Usage {
    Help,
    Bad(String),
}

/// Runs `iomark genzipf ARGS`; exit code 0, or 2 for a bad command line.
pub fn main(args: &[OsString]) -> ExitCode {
    let settings = match parse(args) {
        Ok(s) => s,
        Err(Usage::Help) => {
            print!("{}", iomark_manual::help::subcommand(&flags::GENZIPF));
            return ExitCode::SUCCESS;
        }
        Err(Usage::Bad(why)) => {
            eprintln!("iomark genzipf: {why} (see iomark genzipf -h)");
            return ExitCode::from(2);
        }
    };
    match preview(&settings, &mut std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("iomark genzipf: cannot write output: {e}");
            ExitCode::from(1)
        }
    }
}

/// Reads fio-genzipf's options: `-t zipf` or `-tzipf`, and so on.
fn parse(args: &[OsString]) -> Result<Settings, Usage> {
    let mut s = Settings {
        kind: Kind::Zipf,
        input: None,
        gib: 500,
        bs: 4096,
        rows: 20,
        csv: false,
        percent: None,
        seed: DEFAULT_SEED,
    };
    let mut args = args.iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = args.next() {
        let Some(flag) = arg.strip_prefix('-').and_then(|f| f.chars().next()) else {
            return Err(Usage::Bad(format!("unexpected argument '{arg}'")));
        };
        match flag {
            'h' => return Err(Usage::Help),
            'c' => {
                s.csv = true;
                continue;
            }
            _ => {}
        }
        if flags::GENZIPF.find(flag).and_then(|f| f.arg).is_none() {
            return Err(Usage::Bad(format!("unknown option '-{flag}'")));
        }
        let inline = &arg[1 + flag.len_utf8()..];
        let value = if inline.is_empty() {
            args.next().ok_or_else(|| Usage::Bad(format!("-{flag} needs a value")))?
        } else {
            inline.to_string()
        };
        let whole = || -> Option<u64> {
            let v = value.trim();
            match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16).ok(),
                None => v.parse().ok(),
            }
        };
        let number = |what: &str| -> Result<u64, Usage> {
            whole().filter(|&n| n > 0).ok_or_else(|| {
                Usage::Bad(format!("-{flag}: {what} '{value}' is not a positive whole number"))
            })
        };
        let float = || -> Result<f64, Usage> {
            value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| Usage::Bad(format!("-{flag}: '{value}' is not a number")))
        };
        match flag {
            't' => {
                s.kind = match value.as_str() {
                    "zipf" => Kind::Zipf,
                    "pareto" => Kind::Pareto,
                    "normal" => Kind::Normal,
                    _ => {
                        return Err(Usage::Bad(format!(
                            "-t: wrong distribution type '{value}' (zipf, pareto or normal)"
                        )))
                    }
                }
            }
            'i' => s.input = Some(float()?),
            'g' => s.gib = number("size")?,
            'b' => s.bs = number("block size")?,
            'o' => s.rows = number("rows")?,
            'p' => {
                let p = float()?;
                if !(p > 0.0 && p <= 100.0) {
                    return Err(Usage::Bad(format!("-p: {p} is not a percentage in (0, 100]")));
                }
                s.percent = Some(p);
            }
            's' => {
                s.seed = whole()
                    .ok_or_else(|| Usage::Bad(format!("-s: '{value}' is not a whole number")))?
            }
            _ => return Err(Usage::Bad(format!("unknown option '-{flag}'"))),
        }
    }
    let input = s.input.unwrap_or(s.kind.default_input());
    s.kind.distribution(input).validate().map_err(Usage::Bad)?;
    let values = s.gib.checked_mul(1 << 30).map(|b| b / s.bs).unwrap_or(u64::MAX);
    if values == 0 || values > Hits::MAX_VALUES {
        return Err(Usage::Bad(format!(
            "{} GiB of {}-byte blocks is {values} values; iomark counts 1 to {} \
             (use a larger -b or a smaller -g)",
            s.gib,
            s.bs,
            Hits::MAX_VALUES
        )));
    }
    Ok(s)
}

/// `bytes` as fio-genzipf prints a size: two decimals and a binary unit letter.
fn size(bytes: f64) -> String {
    let mut v = bytes;
    let mut unit = 0;
    while v >= 1024.0 && unit < 5 {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:6.2}{}", ['B', 'K', 'M', 'G', 'T', 'P'][unit])
}

/// Writes the preview of `s`.
fn preview(s: &Settings, out: &mut impl Write) -> std::io::Result<()> {
    let input = s.input.unwrap_or(s.kind.default_input());
    let values = s.gib * (1 << 30) / s.bs;
    let hits = Hits::draw(&s.kind.distribution(input), values, s.seed)
        .expect("parse checked the law and the number of values");
    if s.csv {
        writeln!(out, "rank, count")?;
        for (i, h) in hits.counts().iter().enumerate() {
            writeln!(out, "{i}, {h}")?;
        }
        return Ok(());
    }
    writeln!(
        out,
        "Generating {} distribution with {input:.6} input and {} GiB size and {} block_size.",
        s.kind.title(),
        s.gib,
        s.bs
    )?;
    if let Some(p) = s.percent {
        let mb = hits.values_serving(p) as f64 * s.bs as f64 / (1 << 20) as f64;
        writeln!(out, "{p:.2}% of hits satisfied in {mb:.3}MB of cache")?;
    }
    writeln!(out)?;
    writeln!(out, "   Rows           Hits %         Sum %           # Hits          Size")?;
    let rule = "-----------------------------------------------------------------------";
    writeln!(out, "{rule}")?;
    for (i, row) in hits.rows(s.rows).iter().enumerate() {
        let head = if i == 0 { "Top" } else { "|->" };
        writeln!(
            out,
            "{head} {:6.2}%\t{:6.2}%\t\t{:6.2}%\t\t{:8}\t{}",
            row.upto_percent,
            row.hits_percent,
            row.sum_percent,
            row.hits,
            size(row.hits as f64 * s.bs as f64),
        )?;
    }
    writeln!(out, "{rule}")?;
    writeln!(out, "Total\t\t\t\t\t\t{:8}", hits.total())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    fn settings(line: &str) -> Settings {
        match parse(&args(line)) {
            Ok(s) => s,
            Err(Usage::Help) => panic!("{line}: help"),
            Err(Usage::Bad(why)) => panic!("{line}: {why}"),
        }
    }

    fn refused(line: &str) -> String {
        match parse(&args(line)) {
            Err(Usage::Bad(why)) => why,
            _ => panic!("{line} accepted"),
        }
    }

    #[test]
    fn options_as_fio_genzipf_takes_them() {
        let s = settings("-t pareto -i0.4 -g 2 -b 65536 -o 5 -c -p 90 -s 7");
        assert_eq!((s.kind, s.input, s.gib, s.bs, s.rows), (Kind::Pareto, Some(0.4), 2, 65536, 5));
        assert!(s.csv && s.percent == Some(90.0) && s.seed == 7);
        let d = settings("");
        assert_eq!((d.kind, d.gib, d.bs, d.rows), (Kind::Zipf, 500, 4096, 20));
        assert!(matches!(parse(&args("-h")), Err(Usage::Help)));
        assert!(refused("-t bogus").contains("wrong distribution type"));
        assert!(refused("-t zipf -i 1").contains("not be 1"));
        assert!(refused("-x").contains("unknown option"));
        assert!(refused("-g").contains("needs a value"));
        assert!(refused("-g 2 -b 1").contains("larger -b"));
    }

    /// Every flag of the table (which `-h`, the man page and the completions print) is one
    /// that the parser takes, and the table's fixed values are the parser's.
    #[test]
    fn the_flag_table_is_the_parsers() {
        for flag in flags::GENZIPF.flags {
            let line = match (flag.short, flag.arg) {
                ('h', _) => continue,
                ('p', Some(_)) => "-p 50".to_string(),
                ('t', Some(_)) => "-t normal".to_string(),
                ('b', Some(_)) => "-b 4096".to_string(),
                ('i', Some(_)) => "-i 1.1".to_string(),
                (c, Some(_)) => format!("-{c} 4"),
                (c, None) => format!("-{c}"),
            };
            settings(&line);
        }
        for flag in flags::GENZIPF.flags {
            if let flags::Values::Fixed(words) = flag.values {
                for word in words {
                    settings(&format!("-{} {word}", flag.short));
                }
            }
        }
    }

    #[test]
    fn layout_matches_fio_genzipf() {
        let mut out = Vec::new();
        preview(&settings("-t zipf -i 1.2 -g 1 -o 3 -p 50"), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "Generating Zipf distribution with 1.200000 input and 1 GiB size and 4096 block_size."
        );
        assert!(
            lines[1].starts_with("50.00% of hits satisfied in ")
                && lines[1].ends_with("MB of cache")
        );
        assert_eq!(lines[2], "");
        assert_eq!(
            lines[3],
            "   Rows           Hits %         Sum %           # Hits          Size"
        );
        assert!(lines[5].starts_with("Top  33.33%\t") && lines[5].ends_with('M'), "{:?}", lines[5]);
        assert!(lines[7].starts_with("|-> 100.00%\t") && lines[7].contains("\t\t100.00%\t\t"));
        assert_eq!(lines[9], "Total\t\t\t\t\t\t  262144");
        assert_eq!(size(959.65 * 1024.0 * 1024.0), "959.65M");
        assert_eq!(size(9.65 * 1024.0 * 1024.0), "  9.65M");
        assert_eq!(size(512.0), "512.00B");
    }

    #[test]
    fn csv_lists_every_value_hit() {
        let mut out = Vec::new();
        preview(&settings("-t pareto -g 1 -b 1048576 -c"), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("rank, count"));
        let counts: Vec<u64> =
            lines.map(|l| l.split(", ").nth(1).unwrap().parse().unwrap()).collect();
        assert_eq!(counts.iter().sum::<u64>(), 1024);
        assert!(counts.windows(2).all(|w| w[0] >= w[1]));
    }
}
