#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace sandbox {

/// The data of a captured chart, for a model to read instead of pixels (issue 50): what a language's capture hook
/// writes beside the chart's image as `.NAME.chart.json` — {library, kind, title, axes: [{title, x: {label, scale,
/// range}, y: {...}, series: [{name, kind, x, y, points, truncated, y_min, y_max, ...}], legend, annotations}]}.
namespace ChartData {

/// The largest chart data taken; a hook cuts a chart's series to fit well within it.
constexpr qsizetype kMaxBytes = 1024 * 1024;

/// The image whose data a file named `name` holds ("plots/.a.png.chart.json" → "plots/a.png"); empty when `name` is
/// no chart data's.
QString imageOf(const QString &name);
/// `data` as a chart; empty when it is not one (not a JSON object with axes, or larger than kMaxBytes).
QJsonObject read(const QByteArray &data);
/// One line about the chart of `image` for the model: "figure_1.png: line 'Sales' — x month 1–12, y sales 3–97, 12
/// points".
QString summary(const QString &image, const QJsonObject &chart);
/// The chart's series as CSV (RFC 4180), one row per point: series, kind, x, y; "axes" first when it has several
/// axes with series; a box plot's rows carry q1, q3, whisker_low, whisker_high and outliers (x its label, y its median)
/// and a histogram's bin_end (x is where each bin starts). Only the points the chart data holds: a cut series (its
/// `truncated`) has its evenly spread points.
QByteArray toCsv(const QJsonObject &chart);

} // namespace ChartData

} // namespace sandbox
