//! SVG figures for `csp queens compare --plot DIR`, after Stone & Stone's Figs 1, 3, 5/7/8 and 10.

use std::path::Path;

use plotters::prelude::*;

/// One line of a figure: its legend label and its points.
pub struct Series {
    /// The legend's text.
    pub label: String,
    /// The points, in x order.
    pub points: Vec<(f64, f64)>,
}

/// The colours of successive series.
const COLOURS: [RGBColor; 6] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

/// A figure: a title, labelled axes and some series, drawn by [`line_chart`].
pub struct Figure {
    /// The SVG file's name.
    pub file: &'static str,
    /// The title above the chart.
    pub title: String,
    /// The x axis's label.
    pub x_label: &'static str,
    /// The y axis's label.
    pub y_label: &'static str,
    /// Whether the y axis is on a logarithmic scale (every y must then be positive; others are left
    /// out).
    pub log_y: bool,
    /// The lines.
    pub series: Vec<Series>,
}

/// Draws `figure` into the SVG file `path`, with its title, labelled axes and a legend.
pub fn line_chart(path: &Path, figure: &Figure) -> Result<(), String> {
    let (log_y, series) = (figure.log_y, figure.series.as_slice());
    let points = series.iter().flat_map(|s| s.points.iter());
    let (mut x_min, mut x_max, mut y_min, mut y_max) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in points.filter(|(_, y)| !log_y || *y > 0.0) {
        (x_min, x_max) = (x_min.min(x), x_max.max(x));
        (y_min, y_max) = (y_min.min(y), y_max.max(y));
    }
    if x_min > x_max {
        return Err(format!("no data to plot in {}", path.display()));
    }
    if x_min == x_max {
        (x_min, x_max) = (x_min - 1.0, x_max + 1.0);
    }
    let draw = || -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::new(path, (800, 520)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(figure.title.as_str(), ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(80);
        if log_y {
            let (low, high) = (y_min.max(1e-3) / 2.0, y_max * 2.0);
            let mut chart = builder.build_cartesian_2d(x_min..x_max, (low..high).log_scale())?;
            chart
                .configure_mesh()
                .x_desc(figure.x_label)
                .y_desc(figure.y_label)
                .y_label_formatter(&|v| format!("{v:.0e}"))
                .draw()?;
            draw_series(&mut chart, series, true)?;
        } else {
            let high = if y_max > 0.0 { y_max * 1.1 } else { 1.0 };
            let mut chart = builder.build_cartesian_2d(x_min..x_max, y_min.min(0.0)..high)?;
            chart
                .configure_mesh()
                .x_desc(figure.x_label)
                .y_desc(figure.y_label)
                .draw()?;
            draw_series(&mut chart, series, false)?;
        }
        root.present()?;
        Ok(())
    };
    draw().map_err(|e| format!("cannot draw {}: {e}", path.display()))
}

fn draw_series<'a, Y>(
    chart: &mut ChartContext<
        'a,
        SVGBackend<'a>,
        Cartesian2d<plotters::coord::types::RangedCoordf64, Y>,
    >,
    series: &[Series],
    log_y: bool,
) -> Result<(), Box<dyn std::error::Error + 'a>>
where
    Y: Ranged<ValueType = f64>,
{
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let points: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|(_, y)| !log_y || *y > 0.0)
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?
            .label(s.label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart.draw_series(
            points
                .into_iter()
                .map(|p| Circle::new(p, 3, colour.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
