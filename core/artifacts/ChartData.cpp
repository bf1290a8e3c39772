#include "artifacts/ChartData.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QStringList>

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
    int series = 0;
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
            points += each.toObject().value(QStringLiteral("points")).toInteger();
            ++series;
        }
    }
    QString line = QStringLiteral("%1: %2").arg(image, chart.value(QStringLiteral("kind")).toString().left(20));
    if (const QString title = chart.value(QStringLiteral("title")).toString().simplified(); !title.isEmpty()) {
        line += QStringLiteral(" '%1'").arg(title.left(80));
    }
    if (series > 0) {
        parts << (series == 1 ? QStringLiteral("%1 points").arg(points)
                              : QStringLiteral("%1 series, %2 points").arg(series).arg(points));
        line += QStringLiteral(" — ") + parts.join(QStringLiteral(", "));
    }
    return line;
}

} // namespace sandbox::ChartData
