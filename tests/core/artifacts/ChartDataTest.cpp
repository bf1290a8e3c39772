// A chart's data beside its image: which image it belongs to, what is taken, and the line a model reads.
#include "artifacts/ChartData.h"

#include <gtest/gtest.h>

using namespace sandbox;

TEST(ChartData, belongsToTheImageNamedInsideItsName)
{
    EXPECT_EQ(ChartData::imageOf(QStringLiteral(".figure_1.png.chart.json")), QStringLiteral("figure_1.png"));
    EXPECT_EQ(ChartData::imageOf(QStringLiteral("plots/.a b.svg.chart.json")), QStringLiteral("plots/a b.svg"));
    EXPECT_TRUE(ChartData::imageOf(QStringLiteral("figure_1.png.chart.json")).isEmpty()) << "not hidden: a file";
    EXPECT_TRUE(ChartData::imageOf(QStringLiteral(".chart.json")).isEmpty());
    EXPECT_TRUE(ChartData::imageOf(QStringLiteral("figure_1.png")).isEmpty());
}

TEST(ChartData, takesAChartObjectOnlyAndSaysItInOneLine)
{
    EXPECT_TRUE(ChartData::read("[1, 2]").isEmpty());
    EXPECT_TRUE(ChartData::read("{\"kind\": \"line\"}").isEmpty()) << "no axes";
    EXPECT_TRUE(ChartData::read(QByteArray(ChartData::kMaxBytes + 1, ' ')).isEmpty());
    const QJsonObject chart = ChartData::read(R"({"library": "matplotlib", "kind": "scatter", "title": "Price vs sales",
        "axes": [{"x": {"label": "price", "scale": "linear", "range": [0.5, 12]},
                  "y": {"label": "sales", "scale": "log", "range": [3, 97]},
                  "series": [{"kind": "scatter", "points": 200, "x": [], "y": []}]}]})");
    ASSERT_FALSE(chart.isEmpty());
    EXPECT_EQ(
        ChartData::summary(QStringLiteral("figure_1.png"), chart),
        QStringLiteral("figure_1.png: scatter 'Price vs sales' — x price 0.5–12, y sales 3–97 (log), 200 points"));
}

TEST(ChartData, countsABoxPlotsBoxesNotItsLines)
{
    const QJsonObject chart = ChartData::read(R"({"library": "matplotlib", "kind": "box", "title": "Tips by day",
        "axes": [{"x": {"label": "day", "range": [0.5, 3.5]}, "y": {"label": "tip", "range": [1, 10]},
                  "series": [{"kind": "box", "points": 3, "x": ["Thu", "Fri", "Sat"], "y": [2.3, 2.7, 2.8],
                              "boxes": []}]}]})");
    EXPECT_EQ(ChartData::summary(QStringLiteral("figure_1.png"), chart),
              QStringLiteral("figure_1.png: box 'Tips by day' — x day 0.5–3.5, y tip 1–10, 3 boxes"));
}

TEST(ChartData, givesItsSeriesAsCsvWithABoxsStatisticsAndTheBinsEnds)
{
    const QJsonObject line = ChartData::read(R"({"kind": "line", "axes": [{"series": [
        {"name": "sales, EU", "kind": "line", "x": [1, 2], "y": [3.5, "n/a"]},
        {"kind": "histogram", "x": [0, 1], "y": [4, 2], "bin_edges": [0, 1, 2]}]}]})");
    EXPECT_EQ(ChartData::toCsv(line), QByteArray("series,kind,x,y,bin_end\r\n"
                                                 "\"sales, EU\",line,1,3.5,\r\n"
                                                 "\"sales, EU\",line,2,n/a,\r\n"
                                                 "2,histogram,0,4,1\r\n"
                                                 "2,histogram,1,2,2\r\n"));
    const QJsonObject boxes = ChartData::read(R"({"kind": "box", "axes": [
        {"title": "left", "series": [{"kind": "box", "boxes": [{"label": "a", "median": 3.5, "q1": 2.25, "q3": 4.75,
            "whisker_low": 1, "whisker_high": 5, "outliers": [100, 120]}]}]},
        {"title": "right", "series": [{"name": "b", "kind": "scatter", "x": [0.5], "y": [1e-7]}]}]})");
    EXPECT_EQ(ChartData::toCsv(boxes), QByteArray("axes,series,kind,x,y,q1,q3,whisker_low,whisker_high,outliers\r\n"
                                                  "left,1,box,a,3.5,2.25,4.75,1,5,100 120\r\n"
                                                  "right,b,scatter,0.5,1e-07,,,,,\r\n"));
}

TEST(ChartData, saysAScattersCorrelationAndWhereItsWholeSeriesIs)
{
    const QJsonObject chart = ChartData::read(R"({"kind": "scatter", "title": "Price vs sales", "data_file":
        "figure_1.data.csv", "axes": [{"x": {"label": "price", "range": [1, 4]}, "y": {"label": "sales", "range": [2, 9]},
        "series": [{"kind": "scatter", "points": 500, "r": 0.7034, "truncated": true}]}]})");
    EXPECT_EQ(ChartData::summary(QStringLiteral("figure_1.png"), chart),
              QStringLiteral("figure_1.png: scatter 'Price vs sales' — x price 1–4, y sales 2–9, 500 points, r = 0.70, "
                             "all points in figure_1.data.csv"));
}

TEST(ChartData, cutsASeriesEvenlyKeepingItsExtremesAndCorrelation)
{
    QJsonArray x;
    QJsonArray y;
    for (int i = 0; i < 1000; ++i) {
        x.append(i);
        y.append(i == 500 ? 5000.0 : 2.0 * i);
    }
    const QJsonObject series = ChartData::series(QStringLiteral("s"), QStringLiteral("scatter"), x, y);
    EXPECT_EQ(series.value("points").toInteger(), 1000);
    EXPECT_TRUE(series.value("truncated").toBool());
    EXPECT_EQ(series.value("x").toArray().size(), ChartData::kMaxPoints + 1) << "every fifth, and the last";
    EXPECT_EQ(series.value("x").toArray().last().toInteger(), 999) << "the last point is kept";
    EXPECT_EQ(series.value("y_max").toDouble(), 5000.0) << "of every point, not of those kept";
    EXPECT_EQ(series.value("y_min").toDouble(), 0.0);
    EXPECT_NEAR(series.value("r").toDouble(), 0.976854, 1e-6) << "of every point (statistics.correlation)";
    EXPECT_FALSE(ChartData::correlation(QJsonArray{1, 2, 3}, QJsonArray{4, 4, 4})) << "a constant side";
    EXPECT_FALSE(ChartData::correlation(QJsonArray{1, 2}, QJsonArray{1, 2})) << "two points";
    EXPECT_DOUBLE_EQ(*ChartData::correlation(QJsonArray{1, 2, 3, "x"}, QJsonArray{3, 2, 1, 7}), -1.0);
    EXPECT_FALSE(ChartData::series({}, QStringLiteral("line"), x, y).contains("r")) << "a line has no r";
}

TEST(ChartData, readsAPlotlyFigureWrittenAsJson)
{
    const QJsonObject chart = ChartData::ofSpecification(R"({"data": [
        {"type": "scatter", "mode": "markers", "name": "shops", "x": [1, 2, 3, 4], "y": [10, 20, 25, 41]},
        {"type": "scatter", "mode": "lines+markers", "y": [5, 6]},
        {"type": "bar", "x": ["a", "b"], "y": [3, 4]},
        {"type": "pie", "labels": ["x", "y"], "values": [1, 3]}],
        "layout": {"title": {"text": "Sales"}, "xaxis": {"title": "price", "type": "log"},
                   "yaxis": {"title": {"text": "sold"}, "range": [0, 50]}, "annotations": [{"text": "peak"}]}})");
    ASSERT_FALSE(chart.isEmpty());
    EXPECT_EQ(chart.value("library").toString(), "plotly");
    EXPECT_EQ(chart.value("kind").toString(), "scatter");
    EXPECT_EQ(chart.value("title").toString(), "Sales");
    const QJsonObject axes = chart.value("axes").toArray().first().toObject();
    EXPECT_EQ(axes.value("x").toObject(),
              (QJsonObject{{"label", "price"}, {"scale", "log"}, {"range", QJsonArray{0, 4}}}))
        << "the data's range where the layout gives none";
    EXPECT_EQ(axes.value("y").toObject().value("range").toArray(), (QJsonArray{0, 50}));
    EXPECT_EQ(axes.value("annotations").toArray(), QJsonArray{"peak"});
    const QJsonArray series = axes.value("series").toArray();
    ASSERT_EQ(series.size(), 4);
    EXPECT_EQ(series.at(0).toObject().value("y").toArray(), (QJsonArray{10, 20, 25, 41}));
    EXPECT_EQ(series.at(0).toObject().value("name").toString(), "shops");
    EXPECT_EQ(series.at(1).toObject().value("kind").toString(), "line");
    EXPECT_EQ(series.at(1).toObject().value("x").toArray(), (QJsonArray{0, 1})) << "plotly's default x";
    EXPECT_EQ(series.at(2).toObject().value("x").toArray(), (QJsonArray{"a", "b"}));
    EXPECT_EQ(series.at(3).toObject().value("kind").toString(), "pie");
    EXPECT_EQ(series.at(3).toObject().value("y").toArray(), (QJsonArray{1, 3}));
    EXPECT_TRUE(ChartData::summary(QStringLiteral("sales.json"), chart).startsWith("sales.json: scatter 'Sales' — x "));
}

// A long series keeps its outline; the axis it draws on still spans every point (its y_min and y_max).
TEST(ChartData, aLongJsonSeriesAxisSpansEveryPointNotOnlyThoseKept)
{
    QStringList y;
    for (int i = 0; i < 1000; ++i) {
        y << QString::number(i == 501 ? -70 : i % 10);
    }
    const QJsonObject chart = ChartData::ofSpecification(
        QStringLiteral(R"({"data": [{"type": "scatter", "mode": "lines", "y": [%1]}]})").arg(y.join(u',')).toUtf8());
    const QJsonObject axes = chart.value("axes").toArray().first().toObject();
    EXPECT_TRUE(axes.value("series").toArray().first().toObject().value("truncated").toBool());
    EXPECT_EQ(axes.value("y").toObject().value("range").toArray(), (QJsonArray{-70, 9}));
    EXPECT_EQ(axes.value("x").toObject().value("range").toArray(), (QJsonArray{0, 999}));
}

TEST(ChartData, readsAVegaLiteSpecificationSeriesByColourLayersAndDatasets)
{
    const QJsonObject chart = ChartData::ofSpecification(R"({
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json", "title": "Growth",
        "datasets": {"d": [{"t": 1, "v": 2, "c": "a"}, {"t": 2, "v": 4, "c": "b"}, {"t": 3, "v": 7, "c": "a"}]},
        "data": {"name": "d"},
        "encoding": {"x": {"field": "t", "type": "quantitative", "title": "time"}, "y": {"field": "v"}},
        "layer": [{"mark": {"type": "line"}, "encoding": {"color": {"field": "c"}}}, {"mark": "point"}]})");
    ASSERT_FALSE(chart.isEmpty());
    EXPECT_EQ(chart.value("library").toString(), "vega-lite");
    EXPECT_EQ(chart.value("kind").toString(), "line");
    EXPECT_EQ(chart.value("title").toString(), "Growth");
    const QJsonArray axesList = chart.value("axes").toArray();
    ASSERT_EQ(axesList.size(), 2);
    const QJsonObject lines = axesList.at(0).toObject();
    EXPECT_EQ(lines.value("x").toObject().value("label").toString(), "time");
    EXPECT_EQ(lines.value("y").toObject().value("label").toString(), "v") << "the field where there is no title";
    EXPECT_EQ(lines.value("y").toObject().value("range").toArray(), (QJsonArray{2, 7}));
    EXPECT_EQ(lines.value("legend").toArray(), (QJsonArray{"a", "b"}));
    const QJsonArray series = lines.value("series").toArray();
    ASSERT_EQ(series.size(), 2);
    EXPECT_EQ(series.at(0).toObject().value("x").toArray(), (QJsonArray{1, 3}));
    EXPECT_EQ(series.at(0).toObject().value("y").toArray(), (QJsonArray{2, 7}));
    EXPECT_EQ(series.at(1).toObject().value("name").toString(), "b");
    const QJsonObject points = axesList.at(1).toObject().value("series").toArray().first().toObject();
    EXPECT_EQ(points.value("kind").toString(), "scatter");
    EXPECT_EQ(points.value("points").toInteger(), 3);

    const QJsonObject pie = ChartData::ofSpecification(R"({"mark": "arc", "data": {"values": [{"k": "x", "n": 1},
        {"k": "y", "n": 3}]}, "encoding": {"theta": {"field": "n"}, "color": {"field": "k"}}})");
    const QJsonObject slices =
        pie.value("axes").toArray().first().toObject().value("series").toArray().first().toObject();
    EXPECT_EQ(slices.value("kind").toString(), "pie");
    EXPECT_EQ(slices.value("x").toArray(), (QJsonArray{"x", "y"}));
    EXPECT_EQ(slices.value("y").toArray(), (QJsonArray{1, 3}));
}

TEST(ChartData, takesNoOtherJsonForAChart)
{
    EXPECT_TRUE(ChartData::ofSpecification(R"({"name": "package", "version": "1.0"})").isEmpty());
    EXPECT_TRUE(ChartData::ofSpecification(R"({"data": [1, 2, 3]})").isEmpty());
    EXPECT_TRUE(ChartData::ofSpecification(R"([{"mark": "point"}])").isEmpty());
    EXPECT_TRUE(ChartData::ofSpecification("{not json").isEmpty());
}
