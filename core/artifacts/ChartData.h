#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <optional>
#include <utility>

namespace sandbox {

/// The data of a captured chart, for a model to read instead of pixels (issue 50): what a language's capture hook
/// writes beside the chart's image as `.NAME.chart.json` — {library, kind, title, axes: [{title, x: {label, scale,
/// range}, y: {...}, series: [{name, kind, x, y, points, truncated, y_min, y_max, ...}], legend, annotations}]}.
namespace ChartData {

/// The largest chart data taken; a hook cuts a chart's series to fit well within it.
constexpr qsizetype kMaxBytes = 1024 * 1024;
/// The points a cut series keeps, evenly spread from the first, and its last (the hooks cut alike).
constexpr qsizetype kMaxPoints = 200;

/// The image whose data a file named `name` holds ("plots/.a.png.chart.json" → "plots/a.png"); empty when `name` is
/// no chart data's.
QString imageOf(const QString &name);
/// `data` as a chart; empty when it is not one (not a JSON object with axes, or larger than kMaxBytes).
QJsonObject read(const QByteArray &data);
/// One line about the chart of `image` for the model: "figure_1.png: scatter 'Price vs sales' — x price 0.5–12, y sales
/// 3–97, 200 points, r = 0.70"; r (Pearson's) when the chart is one scatter series that carries it; "all points in
/// figure_1.data.csv" when its series were cut and the hook wrote them whole (the chart's `data_file`).
QString summary(const QString &image, const QJsonObject &chart);
/// The chart's series as CSV (RFC 4180), one row per point: series, kind, x, y; "axes" first when it has several
/// axes with series; a box plot's rows carry q1, q3, whisker_low, whisker_high and outliers (x its label, y its median)
/// and a histogram's bin_end (x is where each bin starts). Only the points the chart data holds: a cut series (its
/// `truncated`) has its evenly spread points.
QByteArray toCsv(const QJsonObject &chart);
/// A series of `kind` as the hooks write it: points, y_min and y_max of the numbers among `y`, r for a scatter of
/// numbers, cut to kMaxPoints (truncated).
QJsonObject series(const QString &name, const QString &kind, QJsonArray x, QJsonArray y);
/// The least and the greatest number among `values`, `range` widened by them; none when neither holds a number.
std::optional<std::pair<double, double>> extremes(const QJsonArray &values,
                                                  std::optional<std::pair<double, double>> range = std::nullopt);
/// Pearson's correlation of the pairs of numbers among `x` and `y`; none for fewer than three or a constant side.
std::optional<double> correlation(const QJsonArray &x, const QJsonArray &y);
/// The chart a JSON file describes: a plotly figure ({data: [traces], layout}) or a Vega-Lite specification
/// (mark, encoding and inline data, also in layers and named datasets), as other languages write them; empty for
/// any other JSON.
QJsonObject ofSpecification(const QByteArray &json);

} // namespace ChartData

} // namespace sandbox
