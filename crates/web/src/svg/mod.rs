//! Charts as SVG, written in Rust: the one renderer behind the HTML report's charts, the live
//! page's charts and `iomark report --format=svg|png`.
//!
//! A [`Chart`] is data (its axes and its series, already binned or decimated to a few
//! thousand points at most, see [`crate::decimate`]); [`Chart::to_svg`] writes it as one
//! small, self-contained `<svg>` element. Points are drawn as zero-length round-capped path
//! segments (a few bytes each), lines as one polyline per series; every series element
//! carries `class="series"` and `data-points="N"` so that a test can check that a chart drew.

mod axis;
mod render;

pub use axis::{Scale, Unit};

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A line through the points, in order.
    Line,
    /// A dot per point.
    Points,
    /// A bar per point, centred on its x (categories `0, 1, …`).
    Bars,
}

/// One series of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Its name in the legend.
    pub name: String,
    /// Its colour, a CSS colour.
    pub color: String,
    /// How it is drawn.
    pub style: Style,
    /// The points, `(x, y)`.
    pub points: Vec<(f64, f64)>,
}

/// One axis of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// Its label.
    pub label: String,
    /// Its scale.
    pub scale: Scale,
    /// How its tick values are written.
    pub unit: Unit,
}

impl Axis {
    /// An axis.
    pub fn new(label: &str, scale: Scale, unit: Unit) -> Self {
        Axis { label: label.to_string(), scale, unit }
    }
}

/// A chart: a title, two axes and its series.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// A name that is unique in the report and fit for a file name (`j0-read-clat-hist`).
    pub id: String,
    /// The title.
    pub title: String,
    /// The horizontal axis.
    pub x: Axis,
    /// The vertical axis.
    pub y: Axis,
    /// The series, drawn in order.
    pub series: Vec<Series>,
    /// Names of the categories of a bar chart (`x = 0, 1, …`); empty otherwise.
    pub categories: Vec<String>,
}

impl Chart {
    /// An empty chart.
    pub fn new(id: &str, title: &str, x: Axis, y: Axis) -> Self {
        Chart {
            id: id.to_string(),
            title: title.to_string(),
            x,
            y,
            series: Vec::new(),
            categories: Vec::new(),
        }
    }

    /// The chart with one more series (left out if it has no point).
    pub fn with(mut self, name: &str, color: &str, style: Style, points: Vec<(f64, f64)>) -> Self {
        if !points.is_empty() {
            self.series.push(Series {
                name: name.to_string(),
                color: color.to_string(),
                style,
                points,
            });
        }
        self
    }

    /// Whether the chart has anything to draw.
    pub fn is_empty(&self) -> bool {
        self.series.iter().all(|s| s.points.is_empty())
    }

    /// The points of all its series.
    pub fn point_count(&self) -> usize {
        self.series.iter().map(|s| s.points.len()).sum()
    }

    /// The chart as one `<svg>` element, `width` × `height` pixels.
    pub fn to_svg(&self, width: u32, height: u32) -> String {
        render::svg(self, width, height)
    }
}

/// The colours given to series in turn.
pub const PALETTE: [&str; 8] =
    ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

/// The `i`-th colour of the palette, round and round.
pub fn color(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// `text` with `&`, `<`, `>` and `"` escaped for XML and HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
