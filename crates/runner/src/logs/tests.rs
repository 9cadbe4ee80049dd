use super::*;

fn plan(per_job: bool) -> LogPlan {
    LogPlan { per_job, ..LogPlan::default() }
}

#[test]
fn file_names_are_fios() {
    assert_eq!(plan(true).path("foo", "clat", 3), PathBuf::from("foo_clat.3.log"));
    assert_eq!(plan(true).path("dir/j", "clat_hist", 1), PathBuf::from("dir/j_clat_hist.1.log"));
    assert_eq!(plan(false).path("foo", "bw", 3), PathBuf::from("foo_bw.log"));
}

#[test]
fn no_log_option_means_no_log() {
    assert!(!LogPlan::default().any());
    assert!(LogPlan { iolog: Some("x".into()), ..LogPlan::default() }.any());
}
