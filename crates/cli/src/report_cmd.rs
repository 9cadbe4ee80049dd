//! `iomark report FILE|DIR...`: the HTML report, or each of its charts as an SVG or PNG
//! file, from fio's or iomark's JSON (json, json+, json-stream) and log files; several
//! inputs overlay (see [`iomark_web::input`]). A sweep's JSON (`iomark sweep --json`) gets
//! the sweep's own page ([`iomark_web::sweep`]). Its flags are rows of the flag table
//! ([`iomark_options::flags::REPORT`]).
//!
//! Exit codes: 0 success, 1 an output could not be written, 2 bad usage or an input that
//! cannot be read (the message names the file).

use iomark_options::flags::REPORT;
use iomark_web::charts::all_charts;
use iomark_web::html::CHART_SIZE;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What the charts become.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Html,
    Svg,
    Png,
}

/// Why the subcommand stopped.
enum Failure {
    /// Bad usage or input: exit code 2.
    Usage(String),
    /// An output could not be written: exit code 1.
    Output(String),
}

/// Runs `iomark report` with the arguments after its name.
pub fn main(args: &[OsString]) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => {
            eprintln!("iomark report: {m}");
            ExitCode::from(2)
        }
        Err(Failure::Output(m)) => {
            eprintln!("iomark report: {m}");
            ExitCode::from(1)
        }
    }
}

fn run(args: &[OsString]) -> Result<(), Failure> {
    let mut parser = lexopt::Parser::from_args(args.iter().cloned());
    let (mut format, mut output, mut title) = (Format::Html, None::<PathBuf>, None::<String>);
    let mut inputs = Vec::new();
    let usage = |e: lexopt::Error| Failure::Usage(e.to_string());
    while let Some(arg) = parser.next().map_err(usage)? {
        let flag = match &arg {
            lexopt::Arg::Value(v) => {
                inputs.push(PathBuf::from(v));
                continue;
            }
            lexopt::Arg::Short(c) => REPORT.find(*c),
            lexopt::Arg::Long(l) => REPORT.find_long(l),
        };
        let Some(flag) = flag else {
            return Err(Failure::Usage(format!(
                "{} is no flag of report (see -h)",
                arg.unexpected()
            )));
        };
        let value = match flag.arg {
            Some(_) => Some(parser.value().map_err(usage)?.to_string_lossy().into_owned()),
            None => None,
        };
        match (flag.short, value) {
            ('h', _) => {
                print!("{}", iomark_manual::help::subcommand(&REPORT));
                return Ok(());
            }
            ('f', Some(v)) => {
                format = match v.as_str() {
                    "html" => Format::Html,
                    "svg" => Format::Svg,
                    "png" => Format::Png,
                    _ => {
                        return Err(Failure::Usage(format!(
                            "--format: '{v}' (valid: html, svg, png)"
                        )))
                    }
                }
            }
            ('o', Some(v)) => output = Some(PathBuf::from(v)),
            ('t', Some(v)) => title = Some(v),
            _ => return Err(Failure::Usage(format!("-{}: not handled", flag.short))),
        }
    }
    if inputs.is_empty() {
        return Err(Failure::Usage("no input (JSON or log files, or directories); see -h".into()));
    }
    let title = title.unwrap_or_else(|| {
        let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
        format!("iomark report: {}", names.join(" vs "))
    });
    if let (Format::Html, Some(doc)) = (format, sweep_doc(&inputs)) {
        // A sweep's JSON (`iomark sweep --json`): its own page, the curves and fits.
        let html = iomark_web::sweep::page(&doc);
        return match &output {
            Some(path) => write_file(path, html.as_bytes()),
            None => std::io::stdout()
                .write_all(html.as_bytes())
                .map_err(|e| Failure::Output(format!("standard output: {e}"))),
        };
    }
    let page =
        iomark_web::input::read(&inputs, &title).map_err(|e| Failure::Usage(e.to_string()))?;
    match format {
        Format::Html => {
            let html = iomark_web::html::page(&page);
            let written = match &output {
                Some(path) => {
                    std::fs::write(path, html).map_err(|e| (path.display().to_string(), e))
                }
                None => std::io::stdout()
                    .write_all(html.as_bytes())
                    .map_err(|e| ("standard output".into(), e)),
            };
            written.map_err(|(what, e)| Failure::Output(format!("{what}: {e}")))
        }
        Format::Svg | Format::Png => {
            let dir = output.unwrap_or_else(|| PathBuf::from("."));
            std::fs::create_dir_all(&dir)
                .map_err(|e| Failure::Output(format!("{}: {e}", dir.display())))?;
            let renderer = (format == Format::Png).then(iomark_web::png::Renderer::new);
            let mut stdout = std::io::stdout().lock();
            for chart in all_charts(&page) {
                let svg = chart.to_svg(CHART_SIZE.0, CHART_SIZE.1);
                let (path, bytes) = match &renderer {
                    Some(r) => {
                        let png =
                            r.png(&chart.id, &svg).map_err(|e| Failure::Output(e.to_string()))?;
                        (dir.join(format!("{}.png", chart.id)), png)
                    }
                    None => (dir.join(format!("{}.svg", chart.id)), svg.into_bytes()),
                };
                write_file(&path, &bytes)?;
                let _ = writeln!(stdout, "{}", path.display());
            }
            Ok(())
        }
    }
}

/// The sweep document of a lone input that is one (`"iomark sweep"` at its top).
fn sweep_doc(inputs: &[PathBuf]) -> Option<iomark_sweep::doc::SweepDoc> {
    let [path] = inputs else { return None };
    let text = std::fs::read_to_string(path).ok()?;
    let head = text.get(..text.len().min(64))?;
    head.contains("\"iomark sweep\"").then(|| serde_json::from_str(&text).ok()).flatten()
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    std::fs::write(path, bytes).map_err(|e| Failure::Output(format!("{}: {e}", path.display())))
}
