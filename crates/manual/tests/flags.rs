//! What the program-flag table prints: `--help` lists every flag iomark acts on, `genzipf -h`
//! its flags, and the checked-in man page `docs/iomark.1` is the one the tables print today
//! (rewrite it with `IOMARK_BLESS=1 cargo test -p iomark-manual --test flags
//! man_page_is_fresh`), names every flag and job option, and groff reads it without a warning.

use iomark_manual::{help, man};
use iomark_options::flags::{self, Status, FUSE_EXPORT, GENZIPF};
use iomark_options::table;
use std::process::Command;

mod common;

#[test]
fn help_lists_every_flag_iomark_acts_on_in_table_order() {
    let text = help::text();
    let mut at = 0;
    for f in flags::all() {
        let line = format!("  {}", f.usage());
        match (f.status, text[at..].find(&line)) {
            (Status::Yes, Some(i)) => at += i + line.len(),
            (Status::Yes, None) => panic!("--help lacks {line:?} (or has it out of order)"),
            (Status::NotYet, found) => assert!(found.is_none(), "--help lists --{}", f.long),
        }
    }
    assert!(text.contains(&format!("`iomark {} -h`", GENZIPF.name)));
    assert!(text.lines().all(|l| l.len() <= 92), "a line of --help is too long");
}

#[test]
fn genzipf_help_lists_its_flags() {
    let text = help::subcommand(&GENZIPF);
    for f in GENZIPF.flags {
        assert!(text.contains(&format!("\t-{}\t", f.short)), "-{} missing", f.short);
    }
    assert!(text.starts_with(GENZIPF.title));
}

#[test]
fn fuse_export_help_lists_each_flag_by_both_names() {
    let text = help::subcommand(&FUSE_EXPORT);
    assert!(text.starts_with(FUSE_EXPORT.title));
    for f in FUSE_EXPORT.flags {
        assert!(text.contains(&format!("\t{}\t", f.usage())), "{} missing", f.usage());
    }
}

#[test]
fn man_page_is_fresh() {
    common::assert_fresh(
        "docs/iomark.1",
        &man::page(),
        "IOMARK_BLESS=1 cargo test -p iomark-manual --test flags man_page_is_fresh` (or \
         `iomark --man > docs/iomark.1",
    );
}

#[test]
fn man_page_names_every_flag_and_job_option() {
    let page = man::page();
    let roff = |s: &str| s.replace('-', "\\-");
    for f in flags::all() {
        assert!(page.contains(&format!("\\fB\\-\\-{}\\fR", roff(f.long))), "--{}", f.long);
    }
    for def in table::all() {
        assert!(page.contains(&format!(".TP\n\\fB{}\\fR", roff(def.name))), "{}", def.name);
    }
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "JOB OPTIONS", "EXIT STATUS"] {
        assert!(page.contains(&format!(".SH {section}\n")), "no {section}");
    }
    assert!(page.contains(".BR fio (1)"));
}

/// groff reads the page without a warning (`-ww` turns every warning on).
#[test]
fn man_page_renders_without_warnings() {
    let dir = std::env::temp_dir().join(format!("iomark-man-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("iomark.1");
    std::fs::write(&file, man::page()).unwrap();
    let out = Command::new("groff").args(["-man", "-Tutf8", "-ww"]).arg(&file).output();
    let _ = std::fs::remove_dir_all(&dir);
    let Ok(out) = out else {
        println!("skipped: groff is not installed (apt-get install groff-base)");
        return;
    };
    assert!(out.status.success(), "groff failed");
    let warnings = String::from_utf8_lossy(&out.stderr);
    assert!(warnings.is_empty(), "groff warns:\n{warnings}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("User Commands"), "{text}");
}
