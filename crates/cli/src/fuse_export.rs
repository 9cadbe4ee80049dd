//! `iomark fuse-export [options] BACKING MOUNTPOINT`: reads the subcommand's flags (their
//! rows are in the flag table, `iomark_options::flags::FUSE_EXPORT`), sizes and times in
//! fio's grammar, refuses a block device that is in use (the runner's guard, the one every
//! job passes), and hands the export to `iomark-fuse`.

use iomark_fuse::{Config, DelayDist, DelayRule, FailRule, FaultConfig, Transport};
use iomark_options::flags::FUSE_EXPORT;
use iomark_options::value::size::parse_size;
use iomark_options::value::time::parse_time;
use iomark_options::value::{Ctx, TimeUnit};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// Runs `iomark fuse-export ARGS`.
pub fn main(args: &[OsString]) -> ExitCode {
    match parse(args) {
        Ok(None) => {
            print!("{}", iomark_manual::help::subcommand(&FUSE_EXPORT));
            ExitCode::SUCCESS
        }
        Ok(Some(config)) => {
            if let Some(why) = iomark_runner::device_in_use(&config.backing) {
                eprintln!(
                    "iomark fuse-export: refusing to export {}: {why}",
                    config.backing.display()
                );
                return ExitCode::from(2);
            }
            ExitCode::from(iomark_fuse::run(&config))
        }
        Err(why) => {
            eprintln!("iomark fuse-export: {why} (see iomark fuse-export -h)");
            ExitCode::from(2)
        }
    }
}

/// The configuration the arguments ask for; `None` for `-h`/`--help`.
fn parse(args: &[OsString]) -> Result<Option<Config>, String> {
    let mut config = Config {
        backing: PathBuf::new(),
        mountpoint: PathBuf::new(),
        transport: Transport::Auto,
        enable_uring: false,
        queues: None,
        depth: 128,
        direct: false,
        direct_io: true,
        max_write: 128 * 1024,
        readonly: false,
        faults: FaultConfig::default(),
        daemon: false,
        summary: None,
    };
    let mut delay: Option<(std::time::Duration, f64)> = None;
    let mut dist = DelayDist::Fixed;
    let mut operands: Vec<PathBuf> = Vec::new();
    let ctx = Ctx::default();
    let mut parser = lexopt::Parser::from_args(args.iter().cloned());
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        let flag = match arg {
            lexopt::Arg::Short('h') | lexopt::Arg::Long("help") => return Ok(None),
            lexopt::Arg::Short(c) => {
                FUSE_EXPORT.find(c).ok_or_else(|| format!("unknown option '-{c}'"))?
            }
            lexopt::Arg::Value(v) => {
                operands.push(PathBuf::from(v));
                continue;
            }
            lexopt::Arg::Long(name) => {
                FUSE_EXPORT.find_long(name).ok_or_else(|| format!("unknown option '--{name}'"))?
            }
        };
        // Every flag of the subcommand has a long name (a test checks); errors use it.
        let name = flag.long.unwrap_or_default().to_string();
        if flag.arg.is_none() {
            match name.as_str() {
                "enable-uring" => config.enable_uring = true,
                "direct" => config.direct = true,
                "page-cache" => config.direct_io = false,
                "readonly" => config.readonly = true,
                _ => config.daemon = true,
            }
            continue;
        }
        let raw = parser.value().map_err(|_| format!("--{name} needs a value"))?;
        let value = raw.to_string_lossy().into_owned();
        let bad = |why: String| format!("--{name}={value}: {why}");
        let size = |text: &str| parse_size(text.trim(), &ctx).map_err(|e| bad(e.to_string()));
        let whole = |min: u64, max: u64| match value.trim().parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(bad(format!("not a whole number from {min} to {max}"))),
        };
        match name.as_str() {
            "transport" => {
                config.transport = match value.as_str() {
                    "uring" => Transport::Uring,
                    "dev" => Transport::Dev,
                    "auto" => Transport::Auto,
                    _ => return Err(bad("not uring, dev or auto".into())),
                }
            }
            "queues" => config.queues = Some(whole(1, 256)? as usize),
            "depth" => config.depth = whole(1, 4096)? as usize,
            "max-write" => {
                let n = size(&value)?;
                if !(4096..=1 << 20).contains(&n) || n % 4096 != 0 {
                    return Err(bad("a multiple of 4k from 4k to 1m".into()));
                }
                config.max_write = n as u32;
            }
            "fail" => config.faults.fail.push(FailRule::parse(&value).map_err(bad)?),
            "fail-after" => config.faults.after = size(&value)?,
            "fail-range" => {
                let (a, b) = value.split_once('-').ok_or_else(|| bad("write OFFSET-END".into()))?;
                let (a, b) = (size(a)?, size(b)?);
                if b <= a {
                    return Err(bad("END must be past OFFSET".into()));
                }
                config.faults.range = Some((a, b));
            }
            "delay" => {
                let (time, share) = match value.split_once(':') {
                    Some((t, p)) => (t, iomark_fuse::inject::parse_share(p).map_err(bad)?),
                    None => (value.as_str(), 1.0),
                };
                let time = parse_time(time, TimeUnit::Millis).map_err(|e| bad(e.to_string()))?;
                delay = Some((time, share));
            }
            "delay-dist" => {
                dist = DelayDist::parse(&value)
                    .ok_or_else(|| bad("not fixed, uniform or exponential".into()))?
            }
            "corrupt" => {
                config.faults.corrupt = iomark_fuse::inject::parse_share(&value).map_err(bad)?
            }
            "seed" => config.faults.seed = whole(0, u64::MAX)?,
            _ => config.summary = Some(PathBuf::from(raw)),
        }
    }
    config.faults.delay = delay.map(|(mean, share)| DelayRule { mean, share, dist });
    let [backing, mountpoint] = <[PathBuf; 2]>::try_from(operands)
        .map_err(|got| format!("needs BACKING and MOUNTPOINT, got {} operand(s)", got.len()))?;
    config.backing = backing;
    config.mountpoint = mountpoint;
    Ok(Some(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn flags_and_operands_make_the_configuration() {
        let c = parse(&args(&[
            "--transport=dev",
            "--queues",
            "3",
            "--fail=EIO:1%:read",
            "--fail-after=64m",
            "--fail-range=1m-2m",
            "--delay=2ms:50%",
            "--delay-dist=exponential",
            "--max-write=256k",
            "back.img",
            "/mnt/x",
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(c.transport, Transport::Dev);
        assert_eq!(c.queues, Some(3));
        assert_eq!(c.faults.fail[0].errno, libc::EIO);
        assert_eq!(c.faults.after, 64 << 20);
        assert_eq!(c.faults.range, Some((1 << 20, 2 << 20)));
        let d = c.faults.delay.unwrap();
        assert_eq!(
            (d.mean, d.share, d.dist),
            (std::time::Duration::from_millis(2), 0.5, DelayDist::Exponential)
        );
        assert_eq!(c.max_write, 256 << 10);
        assert_eq!(c.backing, PathBuf::from("back.img"));
        assert!(c.direct_io && !c.daemon);
    }

    #[test]
    fn short_flags_are_their_long_ones() {
        let c =
            parse(&args(&["-t", "uring", "-U", "-f", "EIO:5%", "-b", "a", "b"])).unwrap().unwrap();
        assert_eq!(c.transport, Transport::Uring);
        assert!(c.enable_uring && c.daemon);
        assert_eq!(c.faults.fail.len(), 1);
        assert!(FUSE_EXPORT.flags.iter().all(|f| f.long.is_some()));
    }

    #[test]
    fn bad_values_name_the_flag() {
        let err = |list: &[&str]| parse(&args(list)).unwrap_err();
        assert!(err(&["--transport=fast", "a", "b"]).contains("--transport=fast"));
        assert!(err(&["--fail=EIO:200%", "a", "b"]).contains("--fail=EIO:200%"));
        assert!(err(&["--fail-range=2m-1m", "a", "b"]).contains("END"));
        assert!(err(&["--bogus", "a", "b"]).contains("--bogus"));
        assert!(err(&["-Z", "a", "b"]).contains("'-Z'"));
        assert!(err(&["-t", "fast", "a", "b"]).contains("--transport=fast"));
        assert!(err(&["a"]).contains("BACKING and MOUNTPOINT"));
        assert!(parse(&args(&["-h"])).unwrap().is_none());
    }
}
