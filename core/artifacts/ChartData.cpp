#include "artifacts/ChartData.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <set>

namespace sandbox::ChartData {

namespace {

const QLatin1String kSuffix(".chart.json");

QString number(const QJsonValue &value)
{
    return value.isDouble() ? QLocale::c().toString(value.toDouble(), 'g', 4) : value.toString();
}

/// "x month 1–12": an axis's label and range.
QString axisText(const char *name, const QJsonObject &axis)
{
    QString text = QLatin1String(name);
    if (const QString label = axis.value(QStringLiteral("label")).toString().simplified(); !label.isEmpty()) {
        text += QLatin1Char(' ') + label.left(60);
    }
    const QJsonArray range = axis.value(QStringLiteral("range")).toArray();
    if (range.size() == 2) {
        text += QStringLiteral(" %1–%2").arg(number(range.at(0)), number(range.at(1)));
    }
    if (const QString scale = axis.value(QStringLiteral("scale")).toString(); !scale.isEmpty() && scale != "linear") {
        text += QStringLiteral(" (%1)").arg(scale.left(20));
    }
    return text;
}

} // namespace

QString imageOf(const QString &name)
{
    const qsizetype slash = name.lastIndexOf(QLatin1Char('/')) + 1;
    const QStringView file = QStringView(name).mid(slash);
    if (!file.startsWith(QLatin1Char('.')) || !file.endsWith(kSuffix) || file.size() <= kSuffix.size() + 1) {
        return {};
    }
    return name.left(slash) + file.mid(1, file.size() - 1 - kSuffix.size()).toString();
}

QJsonObject read(const QByteArray &data)
{
    if (data.size() > kMaxBytes) {
        return {};
    }
    const QJsonObject chart = QJsonDocument::fromJson(data).object();
    return chart.value(QStringLiteral("axes")).isArray() ? chart : QJsonObject();
}

QString summary(const QString &image, const QJsonObject &chart)
{
    QStringList parts;
    qint64 points = 0;
    qint64 boxes = 0;
    int series = 0;
    QJsonValue r;
    for (const QJsonValue axesValue : chart.value(QStringLiteral("axes")).toArray()) {
        const QJsonObject axes = axesValue.toObject();
        const QJsonArray list = axes.value(QStringLiteral("series")).toArray();
        if (list.isEmpty()) {
            continue;
        }
        if (parts.isEmpty()) {
            parts << axisText("x", axes.value(QStringLiteral("x")).toObject())
                  << axisText("y", axes.value(QStringLiteral("y")).toObject());
        }
        for (const QJsonValue each : list) {
            const QJsonObject one = each.toObject();
            // A box plot's points are its boxes (one per group), each with its quartiles.
            if (one.value(QStringLiteral("kind")).toString() == QLatin1String("box")) {
                boxes += one.value(QStringLiteral("points")).toInteger();
                continue;
            }
            points += one.value(QStringLiteral("points")).toInteger();
            r = one.value(QStringLiteral("kind")).toString() == QLatin1String("scatter")
                    ? one.value(QStringLiteral("r"))
                    : QJsonValue();
            ++series;
        }
    }
    QString line = QStringLiteral("%1: %2").arg(image, chart.value(QStringLiteral("kind")).toString().left(20));
    if (const QString title = chart.value(QStringLiteral("title")).toString().simplified(); !title.isEmpty()) {
        line += QStringLiteral(" '%1'").arg(title.left(80));
    }
    if (boxes > 0) {
        parts << (boxes == 1 ? QStringLiteral("1 box") : QStringLiteral("%1 boxes").arg(boxes));
    }
    if (series > 0) {
        parts << (series == 1 ? QStringLiteral("%1 points").arg(points)
                              : QStringLiteral("%1 series, %2 points").arg(series).arg(points));
    }
    if (series == 1 && r.isDouble()) {
        parts << QStringLiteral("r = %1").arg(r.toDouble(), 0, 'f', 2);
    }
    if (const QString file = chart.value(QStringLiteral("data_file")).toString(); !file.isEmpty()) {
        parts << QStringLiteral("all points in %1").arg(file.left(120));
    }
    if (series > 0 || boxes > 0) {
        line += QStringLiteral(" — ") + parts.join(QStringLiteral(", "));
    }
    return line;
}

QByteArray toCsv(const QJsonObject &chart)
{
    struct Row
    {
        QString axes;
        QString series;
        QString kind;
        QJsonValue x;
        QJsonValue y;
        QJsonObject box;
        QJsonValue binEnd;
    };
    QList<Row> rows;
    int axesWithSeries = 0;
    bool boxes = false;
    bool bins = false;
    const QJsonArray axesList = chart.value(QStringLiteral("axes")).toArray();
    for (qsizetype a = 0; a < axesList.size(); ++a) {
        const QJsonObject axes = axesList.at(a).toObject();
        const QJsonArray seriesList = axes.value(QStringLiteral("series")).toArray();
        axesWithSeries += seriesList.isEmpty() ? 0 : 1;
        QString axesName = axes.value(QStringLiteral("title")).toString().simplified();
        if (axesName.isEmpty()) {
            axesName = QString::number(a + 1);
        }
        for (qsizetype s = 0; s < seriesList.size(); ++s) {
            const QJsonObject series = seriesList.at(s).toObject();
            QString name = series.value(QStringLiteral("name")).toString();
            if (name.isEmpty()) {
                name = QString::number(s + 1);
            }
            const QString kind = series.value(QStringLiteral("kind")).toString();
            if (kind == QLatin1String("box")) {
                boxes = true;
                for (const QJsonValue box : series.value(QStringLiteral("boxes")).toArray()) {
                    const QJsonObject stats = box.toObject();
                    rows.append({axesName,
                                 name,
                                 kind,
                                 stats.value(QStringLiteral("label")),
                                 stats.value(QStringLiteral("median")),
                                 stats,
                                 {}});
                }
                continue;
            }
            const QJsonArray xs = series.value(QStringLiteral("x")).toArray();
            const QJsonArray ys = series.value(QStringLiteral("y")).toArray();
            const QJsonArray edges = series.value(QStringLiteral("bin_edges")).toArray();
            const bool binned = kind == QLatin1String("histogram") && edges.size() == ys.size() + 1;
            bins = bins || binned;
            for (qsizetype i = 0; i < std::min(xs.size(), ys.size()); ++i) {
                rows.append({axesName, name, kind, xs.at(i), ys.at(i), {}, binned ? edges.at(i + 1) : QJsonValue()});
            }
        }
    }
    const auto cell = [](const QJsonValue &value) {
        QString text = value.isDouble()   ? QLocale::c().toString(value.toDouble(), 'g', 15)
                       : value.isString() ? value.toString()
                       : value.isBool()   ? QString::fromLatin1(value.toBool() ? "true" : "false")
                                          : QString();
        if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n')) ||
            text.contains(QLatin1Char('\r'))) {
            text = QLatin1Char('"') + text.replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"');
        }
        return text;
    };
    const bool withAxes = axesWithSeries > 1;
    QStringList header;
    if (withAxes) {
        header << QStringLiteral("axes");
    }
    header << QStringLiteral("series") << QStringLiteral("kind") << QStringLiteral("x") << QStringLiteral("y");
    const QStringList boxColumns{QStringLiteral("q1"), QStringLiteral("q3"), QStringLiteral("whisker_low"),
                                 QStringLiteral("whisker_high")};
    if (boxes) {
        header << boxColumns << QStringLiteral("outliers");
    }
    if (bins) {
        header << QStringLiteral("bin_end");
    }
    QString out = header.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    for (const Row &row : std::as_const(rows)) {
        QStringList cells;
        if (withAxes) {
            cells << cell(row.axes);
        }
        cells << cell(row.series) << cell(row.kind) << cell(row.x) << cell(row.y);
        if (boxes) {
            for (const QString &column : boxColumns) {
                cells << cell(row.box.value(column));
            }
            QStringList outliers;
            for (const QJsonValue outlier : row.box.value(QStringLiteral("outliers")).toArray()) {
                outliers << cell(outlier);
            }
            cells << cell(outliers.join(QLatin1Char(' ')));
        }
        if (bins) {
            cells << cell(row.binEnd);
        }
        out += cells.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return out.toUtf8();
}

QJsonObject series(const QString &name, const QString &kind, QJsonArray x, QJsonArray y)
{
    const qsizetype count = std::min(x.size(), y.size());
    while (x.size() > count) {
        x.removeLast();
    }
    while (y.size() > count) {
        y.removeLast();
    }
    QJsonObject out{{QStringLiteral("name"), name}, {QStringLiteral("kind"), kind}, {QStringLiteral("points"), count}};
    if (const auto range = extremes(y)) {
        out.insert(QStringLiteral("y_min"), range->first);
        out.insert(QStringLiteral("y_max"), range->second);
    }
    if (kind == QLatin1String("scatter")) {
        if (const auto r = correlation(x, y)) {
            out.insert(QStringLiteral("r"), *r);
        }
    }
    out.insert(QStringLiteral("truncated"), count > kMaxPoints);
    if (count > kMaxPoints) {
        std::set<qsizetype> kept{count - 1};
        for (qsizetype i = 0; i < kMaxPoints; ++i) {
            kept.insert(i * count / kMaxPoints);
        }
        QJsonArray keptX;
        QJsonArray keptY;
        for (const qsizetype i : kept) {
            keptX.append(x.at(i));
            keptY.append(y.at(i));
        }
        x = keptX;
        y = keptY;
    }
    out.insert(QStringLiteral("x"), x);
    out.insert(QStringLiteral("y"), y);
    return out;
}

std::optional<std::pair<double, double>> extremes(const QJsonArray &values,
                                                  std::optional<std::pair<double, double>> range)
{
    for (const QJsonValue value : values) {
        if (value.isDouble()) {
            const double number = value.toDouble();
            range = range ? std::pair{std::min(range->first, number), std::max(range->second, number)}
                          : std::pair{number, number};
        }
    }
    return range;
}

std::optional<double> correlation(const QJsonArray &x, const QJsonArray &y)
{
    double n = 0;
    double sumX = 0;
    double sumY = 0;
    for (qsizetype i = 0; i < std::min(x.size(), y.size()); ++i) {
        if (x.at(i).isDouble() && y.at(i).isDouble()) {
            n += 1;
            sumX += x.at(i).toDouble();
            sumY += y.at(i).toDouble();
        }
    }
    if (n < 3) {
        return std::nullopt;
    }
    const double meanX = sumX / n;
    const double meanY = sumY / n;
    double xy = 0;
    double xx = 0;
    double yy = 0;
    for (qsizetype i = 0; i < std::min(x.size(), y.size()); ++i) {
        if (x.at(i).isDouble() && y.at(i).isDouble()) {
            const double dx = x.at(i).toDouble() - meanX;
            const double dy = y.at(i).toDouble() - meanY;
            xy += dx * dy;
            xx += dx * dx;
            yy += dy * dy;
        }
    }
    if (xx <= 0 || yy <= 0) {
        return std::nullopt;
    }
    return std::clamp(xy / std::sqrt(xx * yy), -1.0, 1.0);
}

} // namespace sandbox::ChartData
