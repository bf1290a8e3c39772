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
