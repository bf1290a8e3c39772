#include "artifacts/SeparatedValues.h"

namespace sandbox::SeparatedValues {

QList<QStringList> parse(const QString &text, QChar separator, qsizetype limit)
{
    QList<QStringList> rows;
    QStringList row;
    QString cell;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size() && rows.size() < limit; ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text.at(i + 1) == u'"') {
                cell += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == separator) {
            row << cell;
            cell.clear();
        } else if (c == u'\n' || c == u'\r') {
            if (c == u'\r' && i + 1 < text.size() && text.at(i + 1) == u'\n') {
                ++i;
            }
            row << cell;
            cell.clear();
            rows << row;
            row.clear();
        } else {
            cell += c;
        }
    }
    if ((!cell.isEmpty() || !row.isEmpty()) && rows.size() < limit) {
        row << cell;
        rows << row;
    }
    return rows;
}

} // namespace sandbox::SeparatedValues
