//! Values as the job files of the corpus write them: sizes, times, ranges, per-direction
//! lists, booleans, enums, keywords and environment variables.

use crate::*;

#[test]
fn size_suffixes_follow_fio() {
    let jobs = good("sizes_suffixes.fio");
    let size = |name: &str| canon(job(&jobs, name), "size").unwrap();
    assert_eq!(size("bytes"), "1048576");
    assert_eq!(size("lower-k"), "1048576");
    assert_eq!(size("upper-k"), "1048576");
    assert_eq!(size("kb"), "2097152");
    assert_eq!(size("mega"), (16u64 << 20).to_string());
    assert_eq!(size("giga"), (1u64 << 30).to_string());
    assert_eq!(size("tera"), (1u64 << 40).to_string());
    assert_eq!(size("peta"), (1u64 << 50).to_string());
    assert_eq!(size("b-suffix"), "4096");
    // fio 3.33 with its default kb_base=1024: 'Ki' (no B) is 1024, but 'KiB' is 1000.
    assert_eq!(size("ki"), (4u64 << 20).to_string());
    assert_eq!(size("kib"), "1000000");
}

#[test]
fn kb_base_1000_makes_suffixes_decimal_for_the_whole_section() {
    let jobs = good("sizes_kb_base_1000.fio");
    assert_eq!(canon(job(&jobs, "decimal"), "size").as_deref(), Some("10000000"));
    assert!(canon(job(&jobs, "decimal"), "bs").unwrap().starts_with("4000"));
    assert_eq!(canon(job(&jobs, "decimal-upper"), "size").as_deref(), Some("1000000000"));
    assert_eq!(canon(job(&jobs, "binary-again"), "size").as_deref(), Some("10485760"));
}

#[test]
fn hex_sizes_are_read() {
    let j = &good("sizes_hex.fio")[0];
    assert_eq!(canon(j, "size").as_deref(), Some("1048576"));
    assert!(canon(j, "bs").unwrap().starts_with("4096"));
    assert_eq!(canon(j, "offset").as_deref(), Some("8192"));
    assert_eq!(canon(j, "randseed").as_deref(), Some("3735928559"));
}

#[test]
fn sizes_may_be_a_percentage() {
    let jobs = good("size_percent.fio");
    assert_eq!(
        job(&jobs, "fifth").value("size"),
        Some(Value::SizeOrPercent(SizeOrPercent::Percent(20.0)))
    );
    let half = job(&jobs, "offset-half").value("offset");
    assert_eq!(half, Some(Value::SizeOrPercent(SizeOrPercent::Percent(50.0))));
}

#[test]
fn times_take_units_and_bare_numbers_use_the_option_unit() {
    let jobs = good("times_units.fio");
    let t = |name: &str, option: &str| canon(job(&jobs, name), option).unwrap();
    assert_eq!(t("hours", "runtime"), "3600000000");
    assert_eq!(t("minutes", "runtime"), "120000000");
    assert_eq!(t("minutes", "ramp_time"), "60000000");
    assert_eq!(t("seconds", "runtime"), "30000000");
    assert_eq!(t("seconds", "ramp_time"), "5000000");
    assert_eq!(t("bare-seconds", "runtime"), "10000000");
    assert_eq!(t("millis", "runtime"), "1500000");
    assert_eq!(t("millis", "ramp_time"), "250000");
    assert_eq!(t("micros", "runtime"), "100");
}

#[test]
fn ranges_accept_dash_and_colon() {
    let jobs = good("ranges.fio");
    let dash = canon(job(&jobs, "dash"), "bsrange").unwrap();
    let colon = canon(job(&jobs, "colon"), "bsrange").unwrap();
    assert!(dash.starts_with("1024-4096"), "{dash}");
    assert_eq!(dash, colon);
    let per_dir = canon(job(&jobs, "per-direction"), "bsrange").unwrap();
    assert!(per_dir.starts_with("512-4096,8192-65536"), "{per_dir}");
}

#[test]
fn per_direction_values_merge_across_global_and_job() {
    let jobs = good("per_direction.fio");
    let bs = |name: &str| canon(job(&jobs, name), "bs").unwrap();
    assert!(bs("both").starts_with("4096,65536"), "{}", bs("both"));
    // Global bs=4k, then bs=,8k in the job: reads keep 4k, writes get 8k.
    assert!(bs("write-only").starts_with("4096,8192,"), "{}", bs("write-only"));
    assert_eq!(bs("three"), "4096,8192,16384");
    let gap = bs("read-write-trim-gap");
    assert!(gap.starts_with("2048,") && gap.ends_with(",32768"), "{gap}");
}

#[test]
fn per_direction_merge_from_a_global_on_the_command_line() {
    let jobs = jobs_of(&["--bs=4k", "--name=j", "--bs=,8k"], &[]);
    let bs = canon(&jobs[0], "bs").unwrap();
    assert!(bs.starts_with("4096,8192,"), "{bs}");
}

#[test]
fn bssplit_keeps_blank_shares() {
    let jobs = good("bssplit.fio");
    let split = |name: &str| canon(job(&jobs, name), "bssplit").unwrap();
    assert!(split("full").starts_with("4096/50:8192/30:65536/20"), "{}", split("full"));
    assert!(split("blank-shares").starts_with("4096/50:8192/:16384/"), "{}", split("blank-shares"));
    let per_dir = split("per-direction");
    assert!(per_dir.starts_with("4096/10:65536/90,32768/"), "{per_dir}");
}

#[test]
fn filename_lists_are_split_at_colons() {
    let j = &good("filename_list.fio")[0];
    let files = vec!["/tmp/iomark-a".to_string(), "/tmp/iomark-b".into(), "/tmp/iomark-c".into()];
    assert_eq!(j.value("filename"), Some(Value::Files(files)));
}

#[test]
fn booleans_are_zero_or_one() {
    let jobs = good("booleans.fio");
    assert_eq!(canon(job(&jobs, "on"), "direct").as_deref(), Some("1"));
    assert_eq!(canon(job(&jobs, "off"), "direct").as_deref(), Some("0"));
    assert_eq!(canon(job(&jobs, "off"), "thread").as_deref(), Some("0"));
}

#[test]
fn enum_values_and_their_aliases() {
    let jobs = good("enums.fio");
    assert_eq!(canon(job(&jobs, "write"), "rw").as_deref(), Some("write"));
    assert_eq!(canon(job(&jobs, "randrw"), "rw").as_deref(), Some("randrw"));
    assert_eq!(canon(job(&jobs, "randrw"), "rwmixread").as_deref(), Some("70"));
    assert_eq!(canon(job(&jobs, "fallocate-keep"), "fallocate").as_deref(), Some("keep"));
    assert!(job(&jobs, "write").writes());
    assert!(!job(&jobs, "read").writes());
}

#[test]
fn machine_keywords_are_substituted() {
    let j = &good("keywords.fio")[0];
    assert_eq!(canon(j, "iodepth").as_deref(), Some("4"));
    assert!(canon(j, "bs").unwrap().starts_with("4096"));
    assert_eq!(j.numjobs(), 4);
}

#[test]
fn keyword_expressions_are_evaluated() {
    let jobs = good("expressions.fio");
    let parens = job(&jobs, "parens");
    assert!(canon(parens, "bs").unwrap().starts_with("8192"));
    assert_eq!(canon(parens, "size").as_deref(), Some((8192u64 * 1024).to_string().as_str()));
    assert_eq!(canon(parens, "iodepth").as_deref(), Some("8"));
    let bare = job(&jobs, "bare");
    assert_eq!(canon(bare, "iodepth").as_deref(), Some("8"));
    assert_eq!(canon(bare, "size").as_deref(), Some("65536"));
    let suffix = job(&jobs, "suffix-after-keyword");
    assert_eq!(canon(suffix, "size").as_deref(), Some((8192u64 << 20).to_string().as_str()));
}

#[test]
fn environment_variables_are_substituted() {
    let j = &good("env.fio")[0];
    assert_eq!(canon(j, "size").as_deref(), Some("8388608"));
}

#[test]
fn integer_options_accept_size_suffixes_and_hex() {
    let j = &good("numeric_suffix_ints.fio")[0];
    assert_eq!(canon(j, "number_ios").as_deref(), Some("1024"));
    assert_eq!(canon(j, "iodepth").as_deref(), Some("16"));
}

#[test]
fn engine_options_are_accepted_with_their_engine() {
    let jobs = good("pvsync2_options.fio");
    assert_eq!(canon(job(&jobs, "polled"), "hipri").as_deref(), Some("1"));
    assert_eq!(canon(job(&jobs, "both"), "nowait").as_deref(), Some("1"));
}
