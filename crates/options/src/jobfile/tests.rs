use super::*;
use std::collections::HashMap;

/// Job files held in memory.
struct Mem(HashMap<PathBuf, Vec<u8>>);

impl Mem {
    fn new(files: &[(&str, &str)]) -> Self {
        Mem(files.iter().map(|(p, t)| (PathBuf::from(p), t.as_bytes().to_vec())).collect())
    }
}

impl Loader for Mem {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        self.0.get(path).cloned().ok_or_else(|| std::io::ErrorKind::NotFound.into())
    }
    fn env(&self, name: &str) -> Option<String> {
        (name == "IOMARK_T").then(|| "8k".to_string())
    }
    fn keywords(&self) -> Keywords {
        Keywords { ncpus: 2, pagesize: 4096, mb_memory: 1024 }
    }
}

fn sections(text: &str) -> Result<Vec<RawSection>, ParseError> {
    read(Path::new("a.fio"), &Mem::new(&[("a.fio", text), ("inc/b.fio", "bs=64k\n")]))
}

fn lines(s: &RawSection) -> Vec<(String, Option<String>)> {
    s.lines.iter().map(|l| (l.key.clone(), l.value.clone())).collect()
}

fn kv(k: &str, v: Option<&str>) -> (String, Option<String>) {
    (k.to_string(), v.map(str::to_string))
}

#[test]
fn sections_and_options_are_read_in_order() {
    let s = sections("[global]\nbs=4k\n[a]\nrw=read\n[b]\n").unwrap();
    assert_eq!(s.len(), 3);
    assert!(s[0].global && !s[1].global && !s[2].global);
    assert_eq!(lines(&s[1]), [kv("rw", Some("read"))]);
    assert_eq!(s[1].place, Place::File { path: "a.fio".into(), line: 3 });
}

#[test]
fn any_section_starting_with_global_is_global() {
    let s = sections("[global-x]\n[globalfoo]\n[glob]\n").unwrap();
    assert_eq!(s.iter().map(|s| s.global).collect::<Vec<_>>(), [true, true, false]);
}

#[test]
fn comments_end_a_line_wherever_they_start() {
    let s = sections("; c\n# c\n[a]\nrw=read ; c\nsize=1m # d\nfilename=a#b\n").unwrap();
    let got = lines(&s[0]);
    assert_eq!(got, [kv("rw", Some("read")), kv("size", Some("1m")), kv("filename", Some("a"))]);
}

#[test]
fn blanks_around_names_and_after_values_are_dropped_and_quotes_kept() {
    let s = sections("[a]\n  bs = 4k  \n\tfilename=\"a b\"\r\n").unwrap();
    // The blank after `=` stays, as fio keeps it (the value grammar reads ` 4k` as fio does).
    assert_eq!(lines(&s[0]), [kv("bs", Some(" 4k")), kv("filename", Some("\"a b\""))]);
}

#[test]
fn bare_options_have_no_value() {
    let s = sections("[a]\nstonewall\ngroup_reporting\n").unwrap();
    assert_eq!(lines(&s[0]), [kv("stonewall", None), kv("group_reporting", None)]);
}

#[test]
fn include_reads_a_file_relative_to_the_includer() {
    let mem = Mem::new(&[
        ("dir/a.fio", "[a]\ninclude sub/b.fio\nrw=read\n"),
        ("dir/sub/b.fio", "bs=64k\n"),
    ]);
    let s = read(Path::new("dir/a.fio"), &mem).unwrap();
    assert_eq!(lines(&s[0]), [kv("bs", Some("64k")), kv("rw", Some("read"))]);
    assert_eq!(s[0].lines[0].place, Place::File { path: "dir/sub/b.fio".into(), line: 1 });
}

#[test]
fn a_missing_include_names_the_file_and_line() {
    let e = sections("[a]\ninclude nothere.fio\n").unwrap_err();
    assert_eq!(e.to_string(), "job 'a' (a.fio:2): include 'nothere.fio': entity not found");
}

#[test]
fn an_include_loop_is_refused() {
    let mem = Mem::new(&[("a.fio", "[a]\ninclude a.fio\n")]);
    let e = read(Path::new("a.fio"), &mem).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Include { .. }), "{e}");
}

#[test]
fn an_option_outside_a_section_is_refused() {
    let e = sections("bs=4k\n[a]\n").unwrap_err();
    assert_eq!(e.to_string(), "a.fio:1: option 'bs=4k' outside of a [job] section");
    let e = sections("include inc/b.fio\n[a]\n").unwrap_err();
    assert!(matches!(e.kind, ErrorKind::OutsideSection { .. }));
}

#[test]
fn section_headers_are_read_as_fio_reads_them() {
    // fio drops the `[` and the line's last character: (header, name, noted).
    let cases = [
        ("[a]", "a", false),
        ("[a", "", true),
        ("[ab", "a", true),
        ("[]", "", true),
        ("[a]]", "a]", true),
        ("[a]b", "a]", true),
        ("[ ]", " ", true),
        ("[ global ]", " global ", true),
        ("[a b]", "a b", false),
    ];
    for (header, name, noted) in cases {
        let s = sections(&format!("{header}\n")).unwrap();
        assert_eq!((s[0].name.as_str(), s[0].header_note.is_some()), (name, noted), "{header}");
    }
    let s = sections("[ global ]\n").unwrap();
    assert!(!s[0].global, "a job named ' global ', as in fio");
    assert!(s[0].header_note.as_ref().unwrap().text.contains("a job, not global"));
    let e = sections("[\n").unwrap_err();
    assert!(matches!(e.kind, ErrorKind::BadSection { .. }), "{e}");
}

#[test]
fn binary_garbage_is_refused_with_its_line() {
    let mem = Mem(HashMap::from([(PathBuf::from("a.fio"), b"[a]\nbs=4k\n\xff\xfe".to_vec())]));
    let e = read(Path::new("a.fio"), &mem).unwrap_err();
    assert_eq!(e.place, Place::File { path: "a.fio".into(), line: 3 });
    let e = sections("[a]\nbs=\x004k\n").unwrap_err();
    assert!(e.to_string().contains("control character U+0000"), "{e}");
}

#[test]
fn env_variables_are_substituted_in_values() {
    let s = sections("[a]\nfilename=x${IOMARK_T}y\nsize=${IOMARK_UNSET}\n").unwrap();
    assert_eq!(lines(&s[0]), [kv("filename", Some("x8ky")), kv("size", Some(""))]);
}

#[test]
fn a_missing_option_name_is_refused() {
    let e = sections("[a]\n=8k\n").unwrap_err();
    assert_eq!(e.to_string(), "job 'a' (a.fio:2): '=8k': missing option name before '='");
}
