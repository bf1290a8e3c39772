#pragma once

#include <QList>
#include <QStringList>

namespace sandbox::SeparatedValues {

/// The rows of `text` split at `separator` (',' for CSV, '\t' for tab-separated values), with RFC 4180's quoting
/// (doubled quotes, separators and line breaks inside quotes); at most `limit` rows.
QList<QStringList> parse(const QString &text, QChar separator, qsizetype limit);

} // namespace sandbox::SeparatedValues
