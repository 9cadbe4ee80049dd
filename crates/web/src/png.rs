//! Charts as PNG files: the chart's SVG rendered in Rust by resvg (with tiny-skia), so that
//! `iomark report --format=png` needs no browser and no other program. Text is drawn with
//! the system's fonts (DejaVu Sans where installed); without any font the charts are drawn
//! without their labels.

use resvg::{tiny_skia, usvg};

/// Why a chart could not be made into a PNG.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The SVG did not parse (a bug: iomark wrote it).
    #[error("chart {id}: {why}")]
    Svg {
        /// The chart.
        id: String,
        /// What the parser said.
        why: String,
    },
    /// Encoding failed.
    #[error("chart {id}: cannot encode the PNG: {why}")]
    Encode {
        /// The chart.
        id: String,
        /// Why.
        why: String,
    },
}

/// Renders SVG charts as PNG, with the system's fonts loaded once.
pub struct Renderer {
    options: usvg::Options<'static>,
}

impl Default for Renderer {
    fn default() -> Self {
        Self::new()
    }
}

impl Renderer {
    /// A renderer with the system's fonts.
    pub fn new() -> Self {
        let mut options = usvg::Options::default();
        options.fontdb_mut().load_system_fonts();
        Renderer { options }
    }

    /// The PNG of the SVG `svg` of chart `id`, at twice its size (for sharp slides).
    pub fn png(&self, id: &str, svg: &str) -> Result<Vec<u8>, PngError> {
        let tree = usvg::Tree::from_str(svg, &self.options)
            .map_err(|e| PngError::Svg { id: id.to_string(), why: e.to_string() })?;
        let size = tree.size().to_int_size();
        let encode = |why: &str| PngError::Encode { id: id.to_string(), why: why.to_string() };
        let mut pixmap = tiny_skia::Pixmap::new(size.width() * 2, size.height() * 2)
            .ok_or_else(|| encode("empty size"))?;
        resvg::render(&tree, tiny_skia::Transform::from_scale(2.0, 2.0), &mut pixmap.as_mut());
        pixmap.encode_png().map_err(|e| encode(&e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg::{color, Axis, Chart, Scale, Style, Unit};

    #[test]
    fn a_chart_becomes_a_png_with_its_lines_drawn() {
        let chart = Chart::new(
            "c",
            "t",
            Axis::new("x", Scale::Linear, Unit::Count),
            Axis::new("y", Scale::Linear, Unit::Count),
        )
        .with("s", color(1), Style::Line, vec![(0.0, 0.0), (1.0, 1.0)]);
        let png = Renderer::new().png("c", &chart.to_svg(200, 100)).expect("png");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // 400 × 200 pixels.
        assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 400);
        assert!(png.len() > 1000);
    }
}
