//! Writing a [`Chart`] as SVG: the frame, the grid and ticks, the series, the legend.

use super::{escape, Chart, Scale, Style};
use std::fmt::Write as _;

const LEFT: f64 = 80.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 42.0;

/// Maps data positions to pixels.
struct Frame {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    width: f64,
    height: f64,
}

impl Frame {
    fn px(&self, t: f64) -> f64 {
        LEFT + (t - self.x0) / (self.x1 - self.x0) * (self.width - LEFT - RIGHT)
    }

    fn py(&self, t: f64) -> f64 {
        self.height - BOTTOM - (t - self.y0) / (self.y1 - self.y0) * (self.height - TOP - BOTTOM)
    }
}

/// The positions spanned by `values` on `scale`, if any is drawable.
fn span(scale: Scale, values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.filter_map(|v| scale.at(v)).fold(None, |acc, t| match acc {
        None => Some((t, t)),
        Some((lo, hi)) => Some((lo.min(t), hi.max(t))),
    })
}

/// The whole `<svg>` element.
pub(super) fn svg(chart: &Chart, width: u32, height: u32) -> String {
    let (w, h) = (f64::from(width), f64::from(height));
    let mut out = String::with_capacity(4096 + chart.point_count() * 14);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"{id}\" \
         viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" \
         font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"11\">\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\
         <text x=\"{cx}\" y=\"18\" text-anchor=\"middle\" font-size=\"13\" \
         font-weight=\"bold\">{title}</text>",
        id = escape(&chart.id),
        cx = w / 2.0,
        title = escape(&chart.title),
    );
    let bars = !chart.categories.is_empty();
    let points = || chart.series.iter().flat_map(|s| s.points.iter());
    let xs = if bars {
        Some((-0.5, chart.categories.len() as f64 - 0.5))
    } else {
        span(chart.x.scale, points().map(|p| p.0))
    };
    let ys = span(chart.y.scale, points().map(|p| p.1).chain(bars.then_some(0.0)));
    let (Some((xlo, xhi)), Some((ylo, yhi))) = (xs, ys) else {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#888\">no data</text></svg>",
            w / 2.0,
            h / 2.0
        );
        return out;
    };
    let (x0, x1) = if bars { (xlo, xhi) } else { chart.x.scale.range(xlo, xhi) };
    let (y0, y1) = chart.y.scale.range(ylo, yhi);
    let f = Frame { x0, x1, y0, y1, width: w, height: h };
    grid(&mut out, chart, &f);
    for (k, series) in chart.series.iter().enumerate() {
        draw(&mut out, chart, series, k, &f);
    }
    legend(&mut out, chart, w);
    out.push_str("</svg>");
    out
}

/// The frame, the grid lines with their tick labels, and the axis labels.
fn grid(out: &mut String, chart: &Chart, f: &Frame) {
    let (left, right) = (LEFT, f.width - RIGHT);
    let (top, bottom) = (TOP, f.height - BOTTOM);
    out.push_str("<g stroke=\"#e4e4e4\" stroke-width=\"1\">");
    let yticks = chart.y.scale.ticks(f.y0, f.y1);
    for &t in &yticks {
        let y = f.py(t);
        let _ = write!(out, "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{right}\" y2=\"{y:.1}\"/>");
    }
    let xticks: Vec<(f64, String)> = if chart.categories.is_empty() {
        let ticks = chart.x.scale.ticks(f.x0, f.x1);
        ticks.into_iter().map(|t| (t, chart.x.scale.label(t, chart.x.unit))).collect()
    } else {
        chart.categories.iter().enumerate().map(|(i, c)| (i as f64, c.clone())).collect()
    };
    for (t, _) in &xticks {
        let x = f.px(*t);
        let _ = write!(out, "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{bottom}\"/>");
    }
    out.push_str("</g>");
    let _ = write!(
        out,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>",
        right - left,
        bottom - top
    );
    out.push_str("<g fill=\"#333\">");
    for &t in &yticks {
        let label = escape(&chart.y.scale.label(t, chart.y.unit));
        let y = f.py(t) + 4.0;
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{y:.1}\" text-anchor=\"end\">{label}</text>",
            left - 4.0
        );
    }
    for (t, label) in &xticks {
        let x = f.px(*t);
        let _ = write!(
            out,
            "<text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            bottom + 14.0,
            escape(label)
        );
    }
    let _ = write!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\
         <text transform=\"translate(12 {}) rotate(-90)\" text-anchor=\"middle\">{}</text></g>",
        (left + right) / 2.0,
        f.height - 6.0,
        escape(&chart.x.label),
        (top + bottom) / 2.0,
        escape(&chart.y.label)
    );
}

/// One series.
fn draw(out: &mut String, chart: &Chart, s: &super::Series, k: usize, f: &Frame) {
    let placed = s.points.iter().filter_map(|&(x, y)| {
        let tx = if chart.categories.is_empty() { chart.x.scale.at(x)? } else { x };
        Some((f.px(tx), f.py(chart.y.scale.at(y)?)))
    });
    let color = escape(&s.color);
    // A line through one point draws nothing: a dot does.
    let style = if s.style == Style::Line && s.points.len() < 2 { Style::Points } else { s.style };
    match style {
        Style::Line => {
            let pts: Vec<String> = placed.map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            let _ = write!(
                out,
                "<polyline class=\"series\" data-points=\"{}\" fill=\"none\" stroke=\"{color}\" \
                 stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"{}\"/>",
                pts.len(),
                pts.join(" ")
            );
        }
        Style::Points => {
            let mut d = String::new();
            let mut n = 0;
            for (x, y) in placed {
                let _ = write!(d, "M{x:.1} {y:.1}h0");
                n += 1;
            }
            let _ = write!(
                out,
                "<path class=\"series\" data-points=\"{n}\" stroke=\"{color}\" stroke-width=\"3\" \
                 stroke-linecap=\"round\" fill=\"none\" d=\"{d}\"/>"
            );
        }
        Style::Bars => {
            let bars_per = chart.series.len().max(1) as f64;
            let slot = (f.px(1.0) - f.px(0.0)) * 0.8;
            let width = slot / bars_per;
            let base = f.py(chart.y.scale.at(0.0).unwrap_or(f.y0).max(f.y0));
            let mut n = 0;
            let _ = write!(out, "<g class=\"series\" fill=\"{color}\"");
            let mut rects = String::new();
            for (x, y) in placed {
                let left = x - slot / 2.0 + width * k as f64;
                let (top, height) = if y < base { (y, base - y) } else { (base, y - base) };
                let _ = write!(
                    rects,
                    "<rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{height:.1}\"/>",
                    width.max(1.0)
                );
                n += 1;
            }
            let _ = write!(out, " data-points=\"{n}\">{rects}</g>");
        }
    }
}

/// The legend, top right, one row per series (when there is more than one).
fn legend(out: &mut String, chart: &Chart, width: f64) {
    if chart.series.len() < 2 {
        return;
    }
    let longest = chart.series.iter().map(|s| s.name.chars().count()).max().unwrap_or(0);
    let box_w = 24.0 + longest as f64 * 6.4;
    let x = width - RIGHT - box_w - 4.0;
    let _ = write!(
        out,
        "<g class=\"legend\"><rect x=\"{x:.1}\" y=\"{}\" width=\"{box_w:.1}\" height=\"{}\" \
         fill=\"#fff\" fill-opacity=\"0.85\" stroke=\"#ccc\"/>",
        TOP + 4.0,
        chart.series.len() as f64 * 14.0 + 6.0
    );
    for (i, s) in chart.series.iter().enumerate() {
        let y = TOP + 16.0 + i as f64 * 14.0;
        let _ = write!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"12\" height=\"8\" fill=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            x + 5.0,
            y - 8.0,
            escape(&s.color),
            x + 21.0,
            y,
            escape(&s.name)
        );
    }
    out.push_str("</g>");
}
