//! Job options against fio 3.33: `allrandrepeat`, `lockmem`, `write_hint` and
//! `hipri_percentage`.
//!
//! What each option does is seen from outside: the iolog of two runs (`allrandrepeat`), the
//! system calls under `strace` (`lockmem`'s `mlock`, pvsync2's `RWF_HIPRI`), the hint the
//! kernel keeps for a file (`write_hint`), and a job whose hint the kernel refuses (through a
//! small `LD_PRELOAD` library built with `cc`). The same checks run on fio where it is
//! installed; a missing fio, strace or cc skips what needs it, with a message.

use crate::support::iolog::without_times;
use crate::support::report::report_json;
use crate::support::run::{command, run_in, tempdir, IOMARK};
use crate::support::tools::{programs, traced};
use std::path::Path;
use std::process::Stdio;

/// The I/O lines of an iolog, without their times.
fn iolog(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("x.iolog")).expect("iolog");
    let lines = without_times(&text);
    lines.into_iter().filter(|l| l.contains(" read ") || l.contains(" write ")).collect()
}

#[test]
fn allrandrepeat_repeats_every_choice_even_without_randrepeat() {
    for program in programs() {
        let runs = |flags: &[&str]| -> Vec<Vec<String>> {
            (0..2)
                .map(|_| {
                    let dir = tempdir();
                    let mut args = vec![
                        "--name=r",
                        "--ioengine=null",
                        "--rw=randrw",
                        "--bssplit=4k/50:8k/50",
                        "--size=1m",
                        "--norandommap",
                        "--write_iolog=x.iolog",
                        "--output-format=terse",
                    ];
                    args.extend(flags);
                    let out = run_in(dir.path(), program, &args);
                    assert_eq!(out.status.code(), Some(0), "{program} {flags:?}");
                    iolog(dir.path())
                })
                .collect()
        };
        let both = runs(&["--randrepeat=0", "--allrandrepeat=1"]);
        assert!(both[0].len() > 100 && both[0] == both[1], "{program}: allrandrepeat=1");
        let neither = runs(&["--randrepeat=0", "--allrandrepeat=0"]);
        assert_ne!(neither[0], neither[1], "{program}: randrepeat=0");
    }
}

#[test]
fn lockmem_locks_that_much_for_the_job() {
    for program in programs() {
        let dir = tempdir();
        let args =
            ["--name=l", "--ioengine=null", "--size=1m", "--lockmem=8m", "--output-format=terse"];
        let Some(lines) = traced(dir.path(), program, &args, "mlock,munlock") else {
            eprintln!("skipped: strace missing or not allowed to trace");
            return;
        };
        let locks = lines.iter().filter(|l| l.contains("mlock(") && l.contains(", 8388608)"));
        let unlocks = lines.iter().filter(|l| l.contains("munlock(") && l.contains(", 8388608)"));
        assert_eq!((locks.count(), unlocks.count()), (1, 1), "{program}: {lines:?}");
    }
}

#[test]
fn write_hint_sets_the_kernels_value_on_each_file() {
    for program in programs() {
        for (hint, want) in [("none", 1), ("short", 2), ("medium", 3), ("long", 4), ("extreme", 5)]
        {
            let dir = tempdir();
            let arg = format!("--write_hint={hint}");
            let args = ["--name=w", "--rw=read", "--size=8k", "--nrfiles=2", &arg];
            let out = run_in(dir.path(), program, &args);
            assert_eq!(out.status.code(), Some(0), "{program} {hint}");
            for file in ["w.0.0", "w.0.1"] {
                let f = std::fs::File::open(dir.path().join(file)).expect("the job's file");
                let got = iomark_engine::file::write_hint(std::os::fd::AsRawFd::as_raw_fd(&f));
                match got {
                    Ok(got) => assert_eq!(got, want, "{program} {hint} {file}"),
                    Err(e) => {
                        eprintln!("skipped: F_GET_RW_HINT refused here ({e})");
                        return;
                    }
                }
            }
        }
    }
}

/// A library that makes `fcntl(F_SET_RW_HINT)` fail with EINVAL, built in `dir`; `None`
/// (after saying why) without a C compiler.
fn hint_refuser(dir: &Path) -> Option<std::path::PathBuf> {
    let source = dir.join("nohint.c");
    std::fs::write(
        &source,
        "#define _GNU_SOURCE\n#include <dlfcn.h>\n#include <errno.h>\n#include <stdarg.h>\n\
         static int call(const char *name, int fd, int cmd, void *arg) {\n\
           if (cmd == 1036) { errno = EINVAL; return -1; }\n\
           int (*real)(int, int, ...) = dlsym(RTLD_NEXT, name);\n\
           return real(fd, cmd, arg);\n}\n\
         int fcntl(int fd, int cmd, ...) { va_list ap; va_start(ap, cmd); \
           void *arg = va_arg(ap, void *); va_end(ap); return call(\"fcntl\", fd, cmd, arg); }\n\
         int fcntl64(int fd, int cmd, ...) { va_list ap; va_start(ap, cmd); \
           void *arg = va_arg(ap, void *); va_end(ap); return call(\"fcntl64\", fd, cmd, arg); }\n",
    )
    .expect("write the library's source");
    let lib = dir.join("nohint.so");
    let built = command("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&lib)
        .arg(&source)
        .arg("-ldl")
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !built {
        eprintln!("skipped: no C compiler (cc) to build the LD_PRELOAD library");
        return None;
    }
    Some(lib)
}

#[test]
fn a_refused_write_hint_fails_the_job_before_any_io() {
    let build = tempdir();
    let Some(lib) = hint_refuser(build.path()) else { return };
    for program in programs() {
        let dir = tempdir();
        let args =
            ["--name=w", "--rw=write", "--size=8k", "--write_hint=short", "--output-format=json"];
        let out = command(program)
            .current_dir(dir.path())
            .args(args)
            .env("LD_PRELOAD", &lib)
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(1), "{program}");
        let json = report_json(program, &out);
        let job = &json["jobs"][0];
        assert_eq!(job["error"], 22, "{program}");
        assert_eq!(job["write"]["total_ios"], 0, "{program}");
    }
}

#[test]
fn hipri_percentage_polls_that_share_of_pvsync2_ios() {
    for program in programs() {
        for (flags, least, most) in [
            (["--hipri=1", "--hipri_percentage=30"], 15, 45),
            (["--hipri=1", "--hipri_percentage=100"], 100, 100),
            (["--hipri=1", "--hipri_percentage=0"], 0, 0),
            (["--hipri=0", "--hipri_percentage=50"], 0, 0),
        ] {
            let dir = tempdir();
            let mut args =
                vec!["--name=h", "--ioengine=pvsync2", "--rw=read", "--bs=4k", "--size=400k"];
            args.extend(flags);
            args.push("--output-format=terse");
            let Some(lines) = traced(dir.path(), program, &args, "preadv2") else {
                eprintln!("skipped: strace missing or not allowed to trace");
                return;
            };
            // Files that cannot be polled take the flag and complete as usual, in fio too.
            let calls: Vec<&String> = lines.iter().filter(|l| l.contains("preadv2(")).collect();
            assert_eq!(calls.len(), 100, "{program} {flags:?}");
            assert!(calls.iter().all(|l| l.ends_with("= 4096")), "{program} {flags:?}");
            let polled = calls.iter().filter(|l| l.contains("RWF_HIPRI")).count();
            // fio draws each I/O at random; iomark gives exactly the share.
            let (least, most) =
                if program == IOMARK && least == 15 { (30, 30) } else { (least, most) };
            assert!((least..=most).contains(&polled), "{program} {flags:?}: {polled}");
        }
    }
}
