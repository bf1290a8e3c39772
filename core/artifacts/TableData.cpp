#include "artifacts/TableData.h"

#include "artifacts/SeparatedValues.h"

#include <QJsonArray>
#include <QLocale>
#include <QSet>
#include <QStringDecoder>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace sandbox::TableData {

namespace {

/// Columns named in a summary line.
constexpr int kColumnsNamed = 8;

std::optional<double> numberOf(const QString &cell)
{
    bool ok = false;
    const double value = QLocale::c().toDouble(cell.trimmed(), &ok);
    return ok && std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

bool isBoolean(const QString &cell)
{
    const QString lower = cell.trimmed().toLower();
    return lower == QLatin1String("true") || lower == QLatin1String("false");
}

QString number(double value)
{
    return QLocale::c().toString(value, 'g', 6);
}

} // namespace

QJsonObject read(const QByteArray &data, QChar separator)
{
    QStringDecoder decoder(QStringDecoder::Utf8);
    QString text = decoder.decode(data);
    if (text.startsWith(QChar(0xFEFF))) {
        text.remove(0, 1);
    }
    const QList<QStringList> rows = SeparatedValues::parse(text, separator, std::numeric_limits<qsizetype>::max());
    if (rows.size() < 2) {
        return {};
    }
    const QStringList &header = rows.first();
    const qsizetype body = rows.size() - 1;
    QJsonArray columns;
    QList<bool> numeric;
    for (qsizetype c = 0; c < header.size(); ++c) {
        qsizetype present = 0;
        qsizetype numbers = 0;
        qsizetype booleans = 0;
        double minimum = 0;
        double maximum = 0;
        double sum = 0;
        QSet<QString> distinct;
        bool capped = false;
        for (qsizetype r = 1; r < rows.size(); ++r) {
            const QString cell = rows.at(r).value(c);
            if (cell.trimmed().isEmpty()) {
                continue;
            }
            ++present;
            if (const std::optional<double> value = numberOf(cell)) {
                minimum = numbers == 0 ? *value : std::min(minimum, *value);
                maximum = numbers == 0 ? *value : std::max(maximum, *value);
                sum += *value;
                ++numbers;
            }
            booleans += isBoolean(cell) ? 1 : 0;
            if (!capped) {
                distinct.insert(cell);
                capped = distinct.size() > kMaxDistinct;
            }
        }
        QJsonObject column{{QStringLiteral("name"), header.at(c)}, {QStringLiteral("missing"), body - present}};
        const bool isNumber = present > 0 && numbers == present;
        numeric << isNumber;
        if (present == 0) {
            column.insert(QStringLiteral("type"), QStringLiteral("empty"));
        } else if (isNumber) {
            column.insert(QStringLiteral("type"), QStringLiteral("number"));
            column.insert(QStringLiteral("min"), minimum);
            column.insert(QStringLiteral("max"), maximum);
            column.insert(QStringLiteral("mean"), sum / double(numbers));
        } else {
            column.insert(QStringLiteral("type"),
                          booleans == present ? QStringLiteral("boolean") : QStringLiteral("text"));
            column.insert(QStringLiteral("distinct"), capped ? kMaxDistinct : distinct.size());
            if (capped) {
                column.insert(QStringLiteral("distinct_capped"), true);
            }
        }
        columns.append(column);
    }
    QJsonArray head;
    for (qsizetype r = 1; r < rows.size() && head.size() < kHeadRows; ++r) {
        QJsonArray row;
        for (qsizetype c = 0; c < header.size(); ++c) {
            const QString cell = rows.at(r).value(c);
            const std::optional<double> value = numeric.at(c) ? numberOf(cell) : std::nullopt;
            row.append(value ? QJsonValue(*value) : QJsonValue(cell.left(200)));
        }
        head.append(row);
    }
    return {{QStringLiteral("rows"), body},
            {QStringLiteral("columns"), columns},
            {QStringLiteral("head"), head},
            {QStringLiteral("head_rows"), head.size()}};
}

QJsonObject ofArtifact(const QString &mimeType, const QByteArray &data)
{
    if (mimeType == QLatin1String("text/csv")) {
        return read(data, QLatin1Char(','));
    }
    if (mimeType == QLatin1String("text/tab-separated-values")) {
        return read(data, QLatin1Char('\t'));
    }
    return {};
}

QString summary(const QString &name, const QJsonObject &table)
{
    const QJsonArray columns = table.value(QStringLiteral("columns")).toArray();
    QStringList described;
    for (qsizetype c = 0; c < std::min<qsizetype>(columns.size(), kColumnsNamed); ++c) {
        const QJsonObject column = columns.at(c).toObject();
        const QString type = column.value(QStringLiteral("type")).toString();
        QString text =
            column.value(QStringLiteral("name")).toString().simplified().left(40) + QStringLiteral(" (") + type;
        if (type == QLatin1String("number")) {
            text += QStringLiteral(" %1–%2").arg(number(column.value(QStringLiteral("min")).toDouble()),
                                                 number(column.value(QStringLiteral("max")).toDouble()));
        } else if (type == QLatin1String("text")) {
            text +=
                QStringLiteral(", %1%2 distinct")
                    .arg(column.value(QStringLiteral("distinct_capped")).toBool() ? QStringLiteral("over ") : QString())
                    .arg(column.value(QStringLiteral("distinct")).toInteger());
        }
        if (const qint64 missing = column.value(QStringLiteral("missing")).toInteger(); missing > 0) {
            text += QStringLiteral(", %1 missing").arg(missing);
        }
        described << text + QLatin1Char(')');
    }
    if (columns.size() > kColumnsNamed) {
        described << QStringLiteral("and %1 more").arg(columns.size() - kColumnsNamed);
    }
    return QStringLiteral("%1: table %2 rows × %3 columns — %4")
        .arg(name)
        .arg(table.value(QStringLiteral("rows")).toInteger())
        .arg(columns.size())
        .arg(described.join(QStringLiteral(", ")));
}

} // namespace sandbox::TableData
