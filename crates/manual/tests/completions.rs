//! The completion scripts, run by the shells themselves: bash's function is driven as bash
//! drives it (`COMP_WORDS`, `COMP_CWORD`), fish is asked with `complete -C`, and zsh checks
//! the script's syntax. A test whose shell is missing skips with a message (`.ci/run`
//! installs bash, zsh and fish).

use iomark_manual::complete::{script, Shell};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The script for `shell`, written to a file of its own (tests run in parallel: each call
/// has its own file).
fn script_file(shell: Shell) -> PathBuf {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("iomark-completions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let n = CALLS.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(format!("{}-{n}", shell.name()));
    std::fs::write(&path, script(shell)).unwrap();
    path
}

/// Runs `program args`, or `None` (with a message) when the program is not installed.
fn run(program: &str, args: &[&str]) -> Option<(bool, String, String)> {
    match Command::new(program).args(args).output() {
        Ok(out) => Some((
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )),
        Err(_) => {
            println!("skipped: {program} is not installed (apt-get install {program})");
            None
        }
    }
}

/// What bash's completion function offers for the words of a command line, the last one
/// being completed.
fn bash_offers(words: &[&str]) -> Option<Vec<String>> {
    let file = script_file(Shell::Bash);
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let code = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; _iomark; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        file.display(),
        quoted.join(" "),
        words.len() - 1
    );
    let (ok, out, err) = run("bash", &["-c", &code])?;
    assert!(ok, "bash failed: {err}");
    Some(out.lines().map(str::to_string).collect())
}

#[test]
fn bash_registers_the_function() {
    let file = script_file(Shell::Bash);
    let code = format!("source '{}' && complete -p iomark", file.display());
    let Some((ok, out, err)) = run("bash", &["-c", &code]) else { return };
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "complete -F _iomark iomark");
}

#[test]
fn bash_completes_flags_and_job_options_as_name_equals() {
    let Some(offers) = bash_offers(&["iomark", "--iodep"]) else { return };
    assert!(offers.contains(&"--iodepth=".to_string()), "{offers:?}");
    assert!(offers.contains(&"--iodepth_batch=".to_string()), "{offers:?}");
    let offers = bash_offers(&["iomark", "--parse-o"]).unwrap();
    assert_eq!(offers, ["--parse-only"]);
    let offers = bash_offers(&["iomark", "--stonew"]).unwrap();
    assert_eq!(offers, ["--stonewall"]);
}

#[test]
fn bash_completes_fixed_values_whether_or_not_equals_splits_the_word() {
    let modes = ["randread", "randwrite", "randtrim", "randrw"];
    // `=` in COMP_WORDBREAKS (bash's default): `--rw`, `=`, `rand`.
    let Some(offers) = bash_offers(&["iomark", "--rw", "=", "rand"]) else { return };
    for mode in modes {
        assert!(offers.contains(&mode.to_string()), "{mode} not in {offers:?}");
    }
    let offers = bash_offers(&["iomark", "--rw", "="]).unwrap();
    assert!(offers.contains(&"randrw".to_string()) && offers.contains(&"read".to_string()));
    // One word.
    let offers = bash_offers(&["iomark", "--rw=rand"]).unwrap();
    for mode in modes {
        assert!(offers.contains(&format!("--rw={mode}")), "--rw={mode} not in {offers:?}");
    }
    // The value as the next word, and an alias.
    let offers = bash_offers(&["iomark", "--readwrite", "randr"]).unwrap();
    assert_eq!(offers, ["randread", "randrw"]);
    let offers = bash_offers(&["iomark", "--eta", "=", "a"]).unwrap();
    assert_eq!(offers, ["auto", "always"]);
    let offers = bash_offers(&["iomark", "--ioengine=io_"]).unwrap();
    assert_eq!(offers, ["--ioengine=io_uring"]);
}

#[test]
fn bash_completes_lists_after_the_last_comma() {
    let Some(offers) = bash_offers(&["iomark", "--output-format=normal,js"]) else { return };
    assert_eq!(
        offers,
        [
            "--output-format=normal,json",
            "--output-format=normal,json+",
            "--output-format=normal,json-stream"
        ]
    );
}

#[test]
fn bash_completes_files_and_the_subcommand() {
    let dir = std::env::temp_dir().join(format!("iomark-compl-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("job.fio"), "").unwrap();
    let prefix = format!("{}/jo", dir.display());
    let Some(offers) = bash_offers(&["iomark", &prefix]) else { return };
    assert_eq!(offers, [format!("{}/job.fio", dir.display())]);
    let offers = bash_offers(&["iomark", "--output", &prefix]).unwrap();
    assert_eq!(offers, [format!("{}/job.fio", dir.display())]);
    let _ = std::fs::remove_dir_all(&dir);
    let offers = bash_offers(&["iomark", "genz"]).unwrap();
    assert_eq!(offers, ["genzipf"]);
    let offers = bash_offers(&["iomark", "genzipf", "-t", "p"]).unwrap();
    assert_eq!(offers, ["pareto"]);
    let offers = bash_offers(&["iomark", "rep"]).unwrap();
    assert_eq!(offers, ["report"]);
    let offers = bash_offers(&["iomark", "report", "--format", "s"]).unwrap();
    assert_eq!(offers, ["svg"]);
    let offers = bash_offers(&["iomark", "report", "--f"]).unwrap();
    assert_eq!(offers, ["--format"]);
}

/// What fish offers for `line`, one candidate a line, without descriptions.
fn fish_offers(line: &str) -> Option<Vec<String>> {
    let file = script_file(Shell::Fish);
    let code = format!("source '{}'; complete -C '{line}'", file.display());
    let (ok, out, err) = run("fish", &["--no-config", "-c", &code])?;
    assert!(ok && err.is_empty(), "fish: {err}");
    Some(out.lines().map(|l| l.split('\t').next().unwrap_or("").to_string()).collect())
}

#[test]
fn fish_completes_job_options_and_their_values() {
    let Some(offers) = fish_offers("iomark --rw=rand") else { return };
    for mode in ["randread", "randwrite", "randtrim", "randrw"] {
        assert!(offers.contains(&format!("--rw={mode}")), "--rw={mode} not in {offers:?}");
    }
    let offers = fish_offers("iomark --iodep").unwrap();
    assert!(offers.contains(&"--iodepth".to_string()), "{offers:?}");
    let mut offers = fish_offers("iomark --eta ").unwrap();
    offers.sort();
    assert_eq!(offers, ["always", "auto", "never"]);
    let offers = fish_offers("iomark genzipf -").unwrap();
    assert!(offers.contains(&"-t".to_string()) && !offers.contains(&"--rw".to_string()));
    let offers = fish_offers("iomark report --format=").unwrap();
    assert!(offers.contains(&"--format=png".to_string()), "{offers:?}");
}

#[test]
fn zsh_reads_the_script() {
    let file = script_file(Shell::Zsh);
    let Some((ok, _, err)) = run("zsh", &["-n", file.to_str().unwrap()]) else { return };
    assert!(ok && err.is_empty(), "zsh -n: {err}");
    let text = script(Shell::Zsh);
    assert!(text.starts_with("#compdef iomark\n"));
    assert!(text.contains("'*--rw=[IO direction]:value:("), "no --rw spec");
}

#[test]
fn bash_completes_the_fuse_export_flags_and_their_values() {
    let Some(offers) = bash_offers(&["iomark", "fuse-export", "--tr"]) else { return };
    assert_eq!(offers, ["--transport"]);
    let offers = bash_offers(&["iomark", "fuse-export", "--transport", "u"]).unwrap();
    assert_eq!(offers, ["uring"]);
    let offers = bash_offers(&["iomark", "fuse-export", "-L", "e"]).unwrap();
    assert_eq!(offers, ["exponential"]);
    let offers = bash_offers(&["iomark", "fuse-export", "--enable-u"]).unwrap();
    assert_eq!(offers, ["--enable-uring"]);
}
