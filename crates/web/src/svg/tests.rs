//! Tests of the SVG charts: what they draw, their ticks and labels.

use super::*;

fn chart() -> Chart {
    Chart::new(
        "c1",
        "A <chart>",
        Axis::new("x", Scale::Linear, Unit::Count),
        Axis::new("lat", Scale::Log, Unit::Nanos),
    )
}

#[test]
fn a_chart_draws_every_series_with_its_point_count() {
    let c = chart()
        .with("a", color(0), Style::Line, vec![(0.0, 10.0), (1.0, 1e4), (2.0, 1e6)])
        .with("b", color(1), Style::Points, vec![(0.5, 100.0), (1.5, 1e5)])
        .with("empty", color(2), Style::Points, Vec::new());
    let svg = c.to_svg(640, 300);
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    assert!(svg.contains("data-points=\"3\"") && svg.contains("data-points=\"2\""));
    assert_eq!(svg.matches("class=\"series\"").count(), 2, "the empty series is left out");
    assert!(svg.contains("A &lt;chart&gt;"));
    assert!(svg.contains(">1ms<") || svg.contains(">100µs<"), "{svg}");
}

#[test]
fn a_chart_without_data_says_so() {
    let svg = chart().to_svg(300, 200);
    assert!(svg.contains("no data") && !svg.contains("class=\"series\""));
    let only_zero = chart().with("z", color(0), Style::Line, vec![(0.0, 0.0)]);
    assert!(only_zero.to_svg(300, 200).contains("no data"), "0 is not on a log axis");
}

#[test]
fn percentile_ticks_are_nines() {
    let s = Scale::Percentile;
    let labels: Vec<String> =
        s.ticks(0.0, 4.0).into_iter().map(|t| s.label(t, Unit::Percent)).collect();
    assert_eq!(labels, ["0%", "90%", "99%", "99.9%", "99.99%"]);
    assert_eq!(s.at(100.0), Some(7.0));
    assert_eq!(s.at(99.0).map(|t| (t * 1e9).round() / 1e9), Some(2.0));
}

#[test]
fn values_are_written_short_in_their_unit() {
    assert_eq!(Unit::Nanos.format(1500.0), "1.5µs");
    assert_eq!(Unit::Nanos.format(2.5e7), "25ms");
    assert_eq!(Unit::BytesPerSec.format(3.0 * 1024.0 * 1024.0), "3MiB/s");
    assert_eq!(Unit::Count.format(12_300.0), "12.3k");
    assert_eq!(Unit::Millis.format(2500.0), "2.5s");
}

#[test]
fn log_ticks_cover_the_decades() {
    let ticks = Scale::Log.ticks(2.0, 6.0);
    assert_eq!(ticks, [2.0, 3.0, 4.0, 5.0, 6.0]);
    let narrow = Scale::Log.ticks(3.0, 3.5);
    assert_eq!(narrow.len(), 2, "1 and 2 times 10^3: {narrow:?}");
}

#[test]
fn bars_stand_on_their_categories() {
    let mut c = Chart::new(
        "d",
        "depth",
        Axis::new("", Scale::Linear, Unit::Count),
        Axis::new("%", Scale::Linear, Unit::Percent),
    );
    c.categories = vec!["1".into(), "2".into(), ">=64".into()];
    let c = c.with("run", color(0), Style::Bars, vec![(0.0, 90.0), (1.0, 10.0), (2.0, 0.0)]);
    let svg = c.to_svg(400, 200);
    assert_eq!(svg.matches("<rect x=").count() - 1, 3, "the frame and one rect per bar");
    assert!(svg.contains("&gt;=64"));
}
