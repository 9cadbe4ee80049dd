//! The text that fio 3.33's `act` profile prints after its run, before the reports: the
//! table of each slice's shares of I/Os over 1, 8 and 64 ms (under `trans` and again under
//! `device`, the same figures), then the verdict. Its layout, tabs included, is fio's, in
//! every text format (in JSON the document carries an `"act"` object instead).

use iomark_stats::act::{ActReport, BOUNDS_MS};
use std::fmt::Write as _;

/// The table and the verdict, each line ending with a newline, a blank line between them.
pub fn act(report: &ActReport) -> String {
    let mut out = String::from(
        "        trans                   device\n        %>(ms)                  %>(ms)\n slice",
    );
    for ms in BOUNDS_MS.iter().chain(&BOUNDS_MS) {
        let _ = write!(out, "\t{ms:>3}");
    }
    out.push_str("\n -----  -----   -----  ------   -----   -----  ------\n");
    for slice in &report.slices {
        let _ = write!(out, "{:>5}", slice.slice);
        for pct in slice.pct.iter().chain(&slice.pct) {
            let _ = write!(out, "\t{pct:.2}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\nact: test complete, device(s): {}", report.verdict());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_stats::act::ActCounts;

    /// fio 3.33's text for a slice with 4.47 % of its I/Os between 1 and 8 ms (its bytes).
    #[test]
    fn the_layout_is_fios() {
        let report = ActReport::judge(&[ActCounts { ios: 8048, bands: [360, 0, 0] }]);
        let fio = "        trans                   device\n\
                   \x20       %>(ms)                  %>(ms)\n\
                   \x20slice\t  1\t  8\t 64\t  1\t  8\t 64\n\
                   \x20-----  -----   -----  ------   -----   -----  ------\n\
                   \x20   1\t4.47\t0.00\t0.00\t4.47\t0.00\t0.00\n\
                   \n\
                   act: test complete, device(s): PASSED\n";
        assert_eq!(act(&report), fio);
        let failed = ActReport::judge(&[ActCounts { ios: 100, bands: [0, 2, 0] }]);
        assert!(act(&failed).ends_with("device(s): FAILED\n"));
    }
}
