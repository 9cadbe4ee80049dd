//! `thp=1` with the mmap engine: each file is mapped privately and advised transparent huge
//! pages, as fio 3.33 maps it (compared with strace), and the job's counts are fio's.

use crate::support::run::{tempdir, IOMARK};
use crate::support::tools::{fio_installed, strace_works, traced};

/// The mapping of the job's file and the advice on it, addresses left out.
fn mapping(program: &str) -> Vec<String> {
    let dir = tempdir();
    let args = ["--name=t", "--ioengine=mmap", "--thp=1", "--size=4m", "--rw=write"];
    let lines = traced(dir.path(), program, &args, "mmap,madvise").expect("strace");
    let file = lines.iter().find(|l| l.contains("t.0.0>") && l.contains("mmap("));
    let file = file.unwrap_or_else(|| panic!("{program}: no mapping of t.0.0: {lines:#?}"));
    let at = file.rsplit(" = ").next().expect("address").to_string();
    let mut seen = vec![file.split(", ").nth(3).expect("flags").to_string()];
    for l in lines.iter().filter(|l| l.contains("madvise(") && l.contains(&at)) {
        seen.push(l.split(", ").nth(2).expect("advice").split(')').next().unwrap().to_string());
    }
    seen
}

#[test]
fn thp_maps_privately_with_huge_page_advice_as_fio_does() {
    if !strace_works() {
        return;
    }
    let ours = mapping(IOMARK);
    assert_eq!(&ours[..2], ["MAP_PRIVATE", "MADV_HUGEPAGE"]);
    if fio_installed() {
        let fio = mapping("fio");
        assert_eq!(&fio[..2], &ours[..2]);
    }
}
