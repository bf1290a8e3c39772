#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace sandbox {

/// A table a run wrote (a CSV or tab-separated file in its output folder), for a model to read at a glance instead of
/// the file (issue 50): {rows, columns: [{name, type, missing, min, max, mean | distinct}], head: [[...]], head_rows}.
/// A column is a "number" when every cell it has is one, "boolean" when every one is true or false, else "text"
/// (with how many distinct values, counted up to kMaxDistinct); "empty" when it has no cell. The whole table is the
/// file itself, which the client reads as a resource.
namespace TableData {

/// The rows `head` holds.
constexpr int kHeadRows = 10;
/// Distinct values of a text column are counted up to this many ("distinct_capped" beyond).
constexpr int kMaxDistinct = 10000;

/// The table of `data` (`separator` ',' or '\t'; its first row names the columns); empty when it has no row below
/// that one.
QJsonObject read(const QByteArray &data, QChar separator);
/// The table of an artifact's `data` by its MIME type (text/csv, text/tab-separated-values); empty for other types.
QJsonObject ofArtifact(const QString &mimeType, const QByteArray &data);
/// One line for the model: "sales.csv: table 120 rows × 3 columns — city (text, 12 distinct), price (number
/// 0.5–12), sales (number 3–97)", at most eight columns named.
QString summary(const QString &name, const QJsonObject &table);

} // namespace TableData

} // namespace sandbox
