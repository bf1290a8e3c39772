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
