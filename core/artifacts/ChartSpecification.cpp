// The chart data of a plotly figure or a Vega-Lite specification that a program wrote as JSON (issue 50): what
// JavaScript, Go, Java and the other languages without a capture hook draw with.
#include "artifacts/ChartData.h"

#include <QHash>
#include <QJsonDocument>
#include <QList>

namespace sandbox::ChartData {

namespace {

/// A title as either library writes it: text, or an object whose `text` it is.
QString titleText(const QJsonValue &value)
{
    return value.isObject() ? value.toObject().value(QStringLiteral("text")).toString() : value.toString();
}

QJsonValue numberRange(const QJsonValue &given)
{
    const QJsonArray range = given.toArray();
    return range.size() == 2 && range.at(0).isDouble() && range.at(1).isDouble() ? QJsonValue(range) : QJsonValue();
}

/// The range of the numbers among `which` ("x" or "y") of every series; null when there are none. For y, each series'
/// y_min and y_max, which are of every point even when the series kept only its outline (x keeps its first and last).
QJsonValue dataRange(const QJsonArray &series, const QString &which)
{
    std::optional<std::pair<double, double>> range;
    for (const QJsonValue each : series) {
        const QJsonObject one = each.toObject();
        const bool exact = which == QLatin1String("y") && one.contains(QStringLiteral("y_min"));
        range = extremes(exact ? QJsonArray{one.value(QStringLiteral("y_min")), one.value(QStringLiteral("y_max"))}
                               : one.value(which).toArray(),
                         range);
    }
    return range ? QJsonValue(QJsonArray{range->first, range->second}) : QJsonValue();
}

/// {label, scale, range}: the range given, else the data's.
QJsonObject axis(const QString &label, const QString &scale, const QJsonValue &range, const QJsonArray &series,
                 const QString &which)
{
    const QJsonValue given = numberRange(range);
    return {{QStringLiteral("label"), label},
            {QStringLiteral("scale"), scale.isEmpty() ? QStringLiteral("linear") : scale},
            {QStringLiteral("range"), given.isNull() ? dataRange(series, which) : given}};
}

QJsonObject chartOf(const QString &library, const QString &title, const QJsonArray &axesList)
{
    QString kind = QStringLiteral("empty");
    for (const QJsonValue axes : axesList) {
        const QJsonArray series = axes.toObject().value(QStringLiteral("series")).toArray();
        if (!series.isEmpty()) {
            kind = series.first().toObject().value(QStringLiteral("kind")).toString();
            break;
        }
    }
    return {{QStringLiteral("library"), library},
            {QStringLiteral("kind"), kind},
            {QStringLiteral("title"), title},
            {QStringLiteral("axes"), axesList}};
}

QJsonArray indexes(qsizetype count)
{
    QJsonArray out;
    for (qsizetype i = 0; i < count; ++i) {
        out.append(static_cast<double>(i));
    }
    return out;
}

// --- plotly -------------------------------------------------------------------------------------------------------

/// A figure as plotly writes it (fig.write_json, Plotly.newPlot's arguments, plotly.js's JSON): {data: [traces],
/// layout}. The traces the Python hook reads from a live figure read alike here.
QJsonObject fromPlotly(const QJsonObject &figure)
{
    const QJsonObject layout = figure.value(QStringLiteral("layout")).toObject();
    QJsonArray seriesList;
    for (const QJsonValue traceValue : figure.value(QStringLiteral("data")).toArray()) {
        const QJsonObject trace = traceValue.toObject();
        QString kind = trace.value(QStringLiteral("type")).toString(QStringLiteral("scatter"));
        const QString name = trace.value(QStringLiteral("name")).toString();
        if (kind == QLatin1String("pie")) {
            seriesList.append(series(name, kind, trace.value(QStringLiteral("labels")).toArray(),
                                     trace.value(QStringLiteral("values")).toArray()));
            continue;
        }
        if (kind == QLatin1String("scatter") || kind == QLatin1String("scattergl")) {
            kind =
                trace.value(QStringLiteral("mode")).toString(QStringLiteral("markers")).contains(QLatin1String("lines"))
                    ? QStringLiteral("line")
                    : QStringLiteral("scatter");
        }
        const QJsonArray x = trace.value(QStringLiteral("x")).toArray();
        const QJsonArray y = trace.value(QStringLiteral("y")).toArray();
        if (kind == QLatin1String("histogram")) {
            QJsonArray ones;
            for (qsizetype i = 0; i < x.size(); ++i) {
                ones.append(1);
            }
            seriesList.append(series(name, kind, x, ones));
            continue;
        }
        seriesList.append(series(name, kind, x.isEmpty() ? indexes(y.size()) : x, y));
    }
    const auto plotlyAxis = [&](const char *key, const QString &which) {
        const QJsonObject settings = layout.value(QLatin1String(key)).toObject();
        return axis(titleText(settings.value(QStringLiteral("title"))),
                    settings.value(QStringLiteral("type")).toString(), settings.value(QStringLiteral("range")),
                    seriesList, which);
    };
    QJsonArray annotations;
    for (const QJsonValue each : layout.value(QStringLiteral("annotations")).toArray()) {
        if (annotations.size() < 20) {
            annotations.append(each.toObject().value(QStringLiteral("text")).toString());
        }
    }
    const QJsonObject axes{{QStringLiteral("title"), QString()},
                           {QStringLiteral("x"), plotlyAxis("xaxis", QStringLiteral("x"))},
                           {QStringLiteral("y"), plotlyAxis("yaxis", QStringLiteral("y"))},
                           {QStringLiteral("series"), seriesList},
                           {QStringLiteral("legend"), QJsonArray()},
                           {QStringLiteral("annotations"), annotations}};
    return chartOf(QStringLiteral("plotly"), titleText(layout.value(QStringLiteral("title"))), QJsonArray{axes});
}

// --- Vega-Lite ----------------------------------------------------------------------------------------------------

/// One view of a Vega-Lite specification: its mark, its encoding and the rows of its data.
struct View
{
    QString title;
    QString mark;
    QJsonObject encoding;
    QJsonArray rows;
};

/// The rows `data` holds inline: its values, or the named dataset's.
QJsonArray rowsOf(const QJsonObject &data, const QJsonObject &datasets)
{
    if (const QJsonValue values = data.value(QStringLiteral("values")); values.isArray()) {
        return values.toArray();
    }
    return datasets.value(data.value(QStringLiteral("name")).toString()).toArray();
}

/// The views of `spec`: itself, its layers (which take its data and encoding where they have none of their own),
/// and the views of concatenated specifications, at most 20.
void collectViews(const QJsonObject &spec, const QJsonObject &datasets, const QJsonArray &parentRows,
                  const QJsonObject &parentEncoding, QList<View> &views)
{
    const QJsonArray rows = spec.contains(QStringLiteral("data"))
                                ? rowsOf(spec.value(QStringLiteral("data")).toObject(), datasets)
                                : parentRows;
    QJsonObject encoding = parentEncoding;
    const QJsonObject own = spec.value(QStringLiteral("encoding")).toObject();
    for (auto it = own.begin(); it != own.end(); ++it) {
        encoding.insert(it.key(), it.value());
    }
    for (const char *key : {"layer", "concat", "hconcat", "vconcat"}) {
        const bool layer = qstrcmp(key, "layer") == 0;
        for (const QJsonValue each : spec.value(QLatin1String(key)).toArray()) {
            if (views.size() < 20) {
                collectViews(each.toObject(), datasets, rows, layer ? encoding : QJsonObject(), views);
            }
        }
    }
    const QJsonValue mark = spec.value(QStringLiteral("mark"));
    if (!mark.isUndefined() && views.size() < 20) {
        views.append({titleText(spec.value(QStringLiteral("title"))),
                      mark.isObject() ? mark.toObject().value(QStringLiteral("type")).toString() : mark.toString(),
                      encoding, rows});
    }
}

QString vegaKind(const QString &mark)
{
    static const QHash<QString, QString> kinds{
        {QStringLiteral("point"), QStringLiteral("scatter")},  {QStringLiteral("circle"), QStringLiteral("scatter")},
        {QStringLiteral("square"), QStringLiteral("scatter")}, {QStringLiteral("tick"), QStringLiteral("scatter")},
        {QStringLiteral("line"), QStringLiteral("line")},      {QStringLiteral("trail"), QStringLiteral("line")},
        {QStringLiteral("bar"), QStringLiteral("bar")},        {QStringLiteral("area"), QStringLiteral("area")},
        {QStringLiteral("arc"), QStringLiteral("pie")},        {QStringLiteral("rect"), QStringLiteral("heatmap")},
    };
    return kinds.value(mark, mark);
}

QJsonObject fromVegaLite(const QJsonObject &spec)
{
    QList<View> views;
    collectViews(spec, spec.value(QStringLiteral("datasets")).toObject(), {}, {}, views);
    QJsonArray axesList;
    for (const View &view : std::as_const(views)) {
        const QString kind = vegaKind(view.mark);
        const bool pie = kind == QLatin1String("pie");
        const auto channel = [&](const char *name) {
            return view.encoding.value(QLatin1String(name)).toObject();
        };
        const QJsonObject x = pie ? channel("color") : channel("x");
        const QJsonObject y = pie ? channel("theta") : channel("y");
        const QString xField = x.value(QStringLiteral("field")).toString();
        const QString yField = y.value(QStringLiteral("field")).toString();
        const QString groupField = pie ? QString() : channel("color").value(QStringLiteral("field")).toString();
        // One series per value of the colour's field, in the order they first come.
        QStringList names;
        QHash<QString, std::pair<QJsonArray, QJsonArray>> points;
        for (qsizetype i = 0; i < view.rows.size(); ++i) {
            const QJsonObject row = view.rows.at(i).toObject();
            const QJsonValue group = row.value(groupField);
            const QString name = groupField.isEmpty() ? QString()
                                 : group.isDouble()   ? QString::number(group.toDouble())
                                                      : group.toString();
            if (!points.contains(name)) {
                names << name;
            }
            auto &[xs, ys] = points[name];
            xs.append(xField.isEmpty() ? QJsonValue(static_cast<double>(xs.size())) : row.value(xField));
            ys.append(yField.isEmpty() ? QJsonValue(static_cast<double>(ys.size())) : row.value(yField));
        }
        QJsonArray seriesList;
        for (const QString &name : std::as_const(names)) {
            seriesList.append(series(name, kind, points.value(name).first, points.value(name).second));
        }
        const auto vegaAxis = [&](const QJsonObject &settings, const QString &field, const QString &which) {
            const QJsonValue title = settings.value(QStringLiteral("title"));
            const QJsonObject scale = settings.value(QStringLiteral("scale")).toObject();
            return axis(title.isString() ? title.toString() : field, scale.value(QStringLiteral("type")).toString(),
                        scale.value(QStringLiteral("domain")), seriesList, which);
        };
        axesList.append(QJsonObject{
            {QStringLiteral("title"), views.size() > 1 ? view.title : QString()},
            {QStringLiteral("x"), vegaAxis(x, xField, QStringLiteral("x"))},
            {QStringLiteral("y"), vegaAxis(y, yField, QStringLiteral("y"))},
            {QStringLiteral("series"), seriesList},
            {QStringLiteral("legend"), groupField.isEmpty() ? QJsonArray() : QJsonArray::fromStringList(names)},
            {QStringLiteral("annotations"), QJsonArray()}});
    }
    return chartOf(QStringLiteral("vega-lite"), titleText(spec.value(QStringLiteral("title"))), axesList);
}

} // namespace

QJsonObject ofSpecification(const QByteArray &json)
{
    if (json.size() > 16 * kMaxBytes) {
        return {};
    }
    const QJsonObject object = QJsonDocument::fromJson(json).object();
    if (object.value(QStringLiteral("data")).isArray() &&
        (object.contains(QStringLiteral("layout")) ||
         object.value(QStringLiteral("data")).toArray().first().toObject().contains(QStringLiteral("type")))) {
        return fromPlotly(object);
    }
    if (object.value(QStringLiteral("$schema")).toString().contains(QLatin1String("vega-lite")) ||
        (object.contains(QStringLiteral("mark")) && object.contains(QStringLiteral("encoding")))) {
        return fromVegaLite(object);
    }
    return {};
}

} // namespace sandbox::ChartData
