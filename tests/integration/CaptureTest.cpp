// Chart and artifact capture, for real: every capture path of every language, asserting the
// count, order and MIME type of what comes back, that the bytes are that format, and that
// stdout holds exactly what the program printed (the capture hooks inject nothing).
#include "SharedEngines.h"
#include "artifacts/ChartData.h"
#include "engine/RunResultJson.h"
#include "lang/LanguageRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QXmlStreamReader>
#include <gtest/gtest.h>
#include <numeric>
#include <tuple>
#include <vector>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

quint32 bigEndian32(const QByteArray &data, qsizetype at)
{
    const auto *p = reinterpret_cast<const unsigned char *>(data.constData() + at);
    return (quint32(p[0]) << 24) | (quint32(p[1]) << 16) | (quint32(p[2]) << 8) | quint32(p[3]);
}

QStringList namesOf(const RunResult &result)
{
    QStringList names;
    for (const Artifact &artifact : result.artifacts) {
        names << artifact.name;
    }
    return names;
}

std::string describe(const RunResult &result)
{
    return QStringLiteral("artifacts [%1]; stdout: %2; stderr: %3")
        .arg(namesOf(result).join(QStringLiteral(", ")), QString::fromUtf8(result.stdoutData),
             QString::fromUtf8(result.stderrData))
        .toStdString();
}

/// A PNG whose IHDR dimensions are the ones reported (and plausible for a chart).
void expectPng(const Artifact &artifact, int minimumSide = 100)
{
    SCOPED_TRACE(artifact.name.toStdString());
    EXPECT_EQ(artifact.mimeType, "image/png");
    ASSERT_GT(artifact.data.size(), 24);
    EXPECT_TRUE(artifact.data.startsWith("\x89PNG\r\n\x1a\n"));
    EXPECT_EQ(artifact.data.mid(12, 4), "IHDR");
    EXPECT_EQ(int(bigEndian32(artifact.data, 16)), artifact.width);
    EXPECT_EQ(int(bigEndian32(artifact.data, 20)), artifact.height);
    EXPECT_GE(artifact.width, minimumSide);
    EXPECT_GE(artifact.height, minimumSide);
}

/// An XML document whose root element is <svg>.
void expectSvg(const Artifact &artifact)
{
    SCOPED_TRACE(artifact.name.toStdString());
    EXPECT_EQ(artifact.mimeType, "image/svg+xml");
    EXPECT_FALSE(artifact.hasPixelSize());
    QXmlStreamReader xml(artifact.data);
    while (!xml.atEnd() && xml.readNext() != QXmlStreamReader::StartElement) {
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_EQ(xml.name().toString(), "svg");
}

void expectJpeg(const Artifact &artifact)
{
    SCOPED_TRACE(artifact.name.toStdString());
    EXPECT_EQ(artifact.mimeType, "image/jpeg");
    EXPECT_TRUE(artifact.data.startsWith("\xff\xd8\xff")) << "SOI marker";
    EXPECT_TRUE(artifact.data.endsWith("\xff\xd9")) << "EOI marker";
    EXPECT_TRUE(artifact.hasPixelSize());
}

void expectGif(const Artifact &artifact)
{
    SCOPED_TRACE(artifact.name.toStdString());
    EXPECT_EQ(artifact.mimeType, "image/gif");
    EXPECT_TRUE(artifact.data.startsWith("GIF87a") || artifact.data.startsWith("GIF89a"));
    EXPECT_TRUE(artifact.data.endsWith(";")) << "GIF trailer";
    EXPECT_TRUE(artifact.hasPixelSize());
}

void expectPdf(const Artifact &artifact)
{
    SCOPED_TRACE(artifact.name.toStdString());
    EXPECT_EQ(artifact.mimeType, "application/pdf");
    EXPECT_TRUE(artifact.data.startsWith("%PDF-"));
    EXPECT_TRUE(artifact.data.trimmed().endsWith("%%EOF"));
    EXPECT_FALSE(artifact.hasPixelSize());
}

/// A plotly page that loads plotly.js from its CDN rather than inlining megabytes of it.
void expectPlotlyHtml(const Artifact &artifact)
{
    SCOPED_TRACE(artifact.name.toStdString());
    EXPECT_EQ(artifact.mimeType, "text/html");
    EXPECT_TRUE(artifact.data.contains("<html"));
    EXPECT_TRUE(artifact.data.contains("class=\"plotly-graph-div\""));
    EXPECT_LT(artifact.size(), 200 * 1024);
}

/// Every capture path on every engine; the parameter is the backend.
class CaptureTest : public ::testing::TestWithParam<std::string>
{
protected:
    // One engine per backend for the suite: its warm containers keep the runs fast, and tests
    // must not see each other's artifacts anyway (that is one of the things under test).
    static void TearDownTestSuite() { s_engines.clear(); }

    ExecutionEngine *sharedEngine() { return s_engines.get(GetParam()); }

    Result<RunResult> run(const QString &language, const QString &code, ExecutionEngine *engine = nullptr)
    {
        if (!engine) {
            engine = sharedEngine();
        }
        if (!engine) {
            return Error{QStringLiteral("no %1 engine").arg(QString::fromStdString(GetParam()))};
        }
        RunRequest request;
        request.language = language;
        request.code = code;
        request.timeout = 90s;
        return engine->run(request);
    }

    Result<RunResult> python(const QString &code) { return run(QStringLiteral("python"), code); }
    Result<RunResult> r(const QString &code) { return run(QStringLiteral("r"), code); }

    static test::SharedEngines s_engines;
};

test::SharedEngines CaptureTest::s_engines;

/// The numbers of a JSON array (a chart's values, whichever way the hook wrote them: 3 or 3.0).
std::vector<double> numbers(const QJsonValue &array)
{
    std::vector<double> out;
    for (const QJsonValue value : array.toArray()) {
        out.push_back(value.toDouble());
    }
    return out;
}

/// The first series of a chart's first axes (ChartData).
QJsonObject firstSeries(const QJsonObject &chart)
{
    return chart.value(QStringLiteral("axes"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("series"))
        .toArray()
        .at(0)
        .toObject();
}

} // namespace

// --- Python: matplotlib --------------------------------------------------------------------

TEST_P(CaptureTest, pltShowReturnsEveryOpenFigureAsAPngInOrder)
{
    // A wide figure, then a tall one: their shapes tell the order apart.
    auto result = python("import matplotlib.pyplot as plt\n"
                         "plt.figure(figsize=(8, 2)); plt.plot([1, 2, 3])\n"
                         "plt.figure(figsize=(2, 6)); plt.scatter([1, 2], [2, 1])\n"
                         "plt.show()\n"
                         "print('shown')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    EXPECT_EQ(result->stdoutData.toStdString(), "shown\n");
    EXPECT_EQ(result->stderrData.toStdString(), "");
    ASSERT_EQ(namesOf(*result), QStringList({"figure_1.png", "figure_2.png"})) << describe(*result);
    expectPng(result->artifacts[0]);
    expectPng(result->artifacts[1]);
    EXPECT_GT(result->artifacts[0].width, result->artifacts[0].height) << "the wide figure comes first";
    EXPECT_GT(result->artifacts[1].height, result->artifacts[1].width);
}

TEST_P(CaptureTest, aRunAfterAPlotInTheSameWarmContainerReturnsNoArtifacts)
{
    // The hostname is the container's: equal names prove the second run reused the first's container.
    auto first = python("import socket, matplotlib.pyplot as plt\n"
                        "plt.plot([1, 2]); plt.figure(); plt.plot([2, 1]); plt.show()\n"
                        "print(socket.gethostname())\n");
    ASSERT_TRUE(first.ok()) << first.error().message.toStdString();
    EXPECT_EQ(first->artifacts.size(), 2) << describe(*first);
    ASSERT_GE(sharedEngine()->warmContainers("python"), 1);

    auto second = python("import socket, os\n"
                         "print(socket.gethostname())\n"
                         "print(os.listdir(os.environ['LLM_SANDBOX_OUTPUT_DIR']))\n");
    ASSERT_TRUE(second.ok()) << second.error().message.toStdString();
    EXPECT_EQ(second->stdoutData.toStdString(), QByteArray(first->stdoutData + "[]\n").toStdString())
        << describe(*second);
    EXPECT_TRUE(second->artifacts.isEmpty()) << describe(*second);
    EXPECT_EQ(second->artifactsDropped, 0);
}

TEST_P(CaptureTest, figuresStillOpenAtExitAreCaptured)
{
    auto result = python("import matplotlib.pyplot as plt\n"
                         "plt.plot([3, 1, 2]); plt.title('Trend'); plt.xlabel('day')\n"
                         "plt.figure(); plt.bar(['a', 'b'], [1, 2])\n"
                         "print('no show')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData.toStdString(), "no show\n");
    ASSERT_EQ(namesOf(*result), QStringList({"figure_1.png", "figure_2.png"})) << describe(*result);
    expectPng(result->artifacts[0]);
    expectPng(result->artifacts[1]);
    // Issue 50: each chart's data comes with it (its data file is no artifact of its own).
    const QJsonObject line = result->artifacts[0].chart;
    EXPECT_EQ(line.value(QStringLiteral("library")).toString(), QStringLiteral("matplotlib"));
    EXPECT_EQ(line.value(QStringLiteral("kind")).toString(), QStringLiteral("line"));
    EXPECT_EQ(line.value(QStringLiteral("title")).toString(), QStringLiteral("Trend"));
    const QJsonObject axes = line.value(QStringLiteral("axes")).toArray().at(0).toObject();
    EXPECT_EQ(axes.value(QStringLiteral("x")).toObject().value(QStringLiteral("label")).toString(),
              QStringLiteral("day"));
    const QJsonObject series = firstSeries(line);
    EXPECT_EQ(series.value(QStringLiteral("y")).toArray(), (QJsonArray{3, 1, 2}));
    EXPECT_EQ(series.value(QStringLiteral("x")).toArray(), (QJsonArray{0, 1, 2}));
    const QJsonObject bars = firstSeries(result->artifacts[1].chart);
    EXPECT_EQ(bars.value(QStringLiteral("kind")).toString(), QStringLiteral("bar"));
    EXPECT_EQ(bars.value(QStringLiteral("x")).toArray(), (QJsonArray{QStringLiteral("a"), QStringLiteral("b")}));
    EXPECT_EQ(bars.value(QStringLiteral("y")).toArray(), (QJsonArray{1, 2}));
}

TEST_P(CaptureTest, savefigOutsideTheOutputDirIsCopiedInTheFormatSaved)
{
    auto result = python("import matplotlib.pyplot as plt\n"
                         "plt.plot([1, 2, 3])\n"
                         "plt.savefig('/tmp/line.png')\n"
                         "plt.savefig('chart.svg')\n"
                         "plt.savefig('/tmp/photo.jpg')\n"
                         "plt.savefig('/tmp/report.pdf')\n"
                         "plt.show()\n"
                         "print('saved')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData.toStdString(), "saved\n");
    // plt.show() after savefig adds nothing: the figure did not change since it was saved.
    ASSERT_EQ(namesOf(*result), QStringList({"line.png", "chart.svg", "photo.jpg", "report.pdf"})) << describe(*result);
    expectPng(result->artifacts[0]);
    expectSvg(result->artifacts[1]);
    expectJpeg(result->artifacts[2]);
    expectPdf(result->artifacts[3]);
}

TEST_P(CaptureTest, savefigIntoTheOutputDirIsReturnedOnce)
{
    auto result = python("import os, matplotlib.pyplot as plt\n"
                         "plt.plot([1, 2])\n"
                         "plt.savefig(os.path.join(os.environ['LLM_SANDBOX_OUTPUT_DIR'], 'mine.png'))\n"
                         "plt.show()\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(namesOf(*result), QStringList({"mine.png"})) << describe(*result);
    expectPng(result->artifacts[0]);
}

TEST_P(CaptureTest, aFigureChangedAfterSavefigIsCapturedAgain)
{
    auto result = python("import matplotlib.pyplot as plt\n"
                         "plt.plot([1, 2])\n"
                         "plt.savefig('/tmp/before.png')\n"
                         "plt.title('changed')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(namesOf(*result), QStringList({"before.png", "figure_1.png"})) << describe(*result);
}

TEST_P(CaptureTest, seabornAndPandasPlotsComeBackThroughMatplotlib)
{
    auto result = python("import pandas as pd, seaborn as sns, matplotlib.pyplot as plt\n"
                         "df = pd.DataFrame({'x': [1, 2, 3, 4], 'y': [4, 1, 3, 2]})\n"
                         "df.plot(x='x', y='y')\n"
                         "plt.show()\n"
                         "sns.histplot(df['y'])\n"
                         "print(len(df))\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData.toStdString(), "4\n") << describe(*result);
    ASSERT_EQ(namesOf(*result), QStringList({"figure_1.png", "figure_2.png"})) << describe(*result);
    expectPng(result->artifacts[0]);
    expectPng(result->artifacts[1]);
    // Their data too, read through matplotlib: pandas' line, seaborn's histogram with its bin edges.
    EXPECT_EQ(result->artifacts[0].chart.value(QStringLiteral("kind")).toString(), QStringLiteral("line"));
    EXPECT_EQ(result->artifacts[1].chart.value(QStringLiteral("kind")).toString(), QStringLiteral("histogram"))
        << QJsonDocument(result->artifacts[1].chart).toJson().toStdString();
}

// Each kind of chart the hooks read, with what was plotted (issue 50): matplotlib's pie, imshow and hist, seaborn's
// scatterplot and barplot, plotly express' bar and line.
TEST_P(CaptureTest, everyKindOfPythonChartComesBackWithWhatWasPlotted)
{
    auto result = python("import matplotlib.pyplot as plt, seaborn as sns, pandas as pd, plotly.express as px\n"
                         "plt.pie([1, 3], labels=['a', 'b']); plt.show()\n"
                         "plt.imshow([[0, 1], [2, 3]]); plt.show()\n"
                         "plt.hist([1, 2, 2, 3, 3, 3], bins=3); plt.show()\n"
                         "df = pd.DataFrame({'x': [1, 2, 3], 'y': [3, 1, 2], 'g': ['a', 'b', 'c']})\n"
                         "sns.scatterplot(data=df, x='x', y='y'); plt.show()\n"
                         "sns.barplot(data=df, x='g', y='y'); plt.show()\n"
                         "px.bar(df, x='g', y='y').show()\n"
                         "px.line(df, x='x', y='y').show()\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(namesOf(*result), QStringList({"figure_1.png", "figure_2.png", "figure_3.png", "figure_4.png",
                                             "figure_5.png", "figure_6.html", "figure_7.html"}))
        << describe(*result);
    const auto series = [&](int i) {
        return firstSeries(result->artifacts[i].chart);
    };
    const auto kind = [&](int i) {
        return series(i).value("kind").toString().toStdString();
    };
    EXPECT_EQ(kind(0), "pie") << QJsonDocument(result->artifacts[0].chart).toJson().toStdString();
    EXPECT_EQ(numbers(series(0).value("y")), std::vector<double>({0.25, 0.75}));
    EXPECT_EQ(series(0).value("x").toArray(), (QJsonArray{"a", "b"}));
    EXPECT_EQ(kind(1), "image");
    EXPECT_EQ(series(1).value("shape").toArray(), (QJsonArray{2, 2}));
    EXPECT_EQ(numbers(series(1).value("range")), std::vector<double>({0, 3}));
    EXPECT_EQ(kind(2), "histogram") << QJsonDocument(result->artifacts[2].chart).toJson().toStdString();
    EXPECT_EQ(numbers(series(2).value("y")), std::vector<double>({1, 2, 3}));
    EXPECT_EQ(numbers(series(2).value("bin_edges")).size(), 4);
    EXPECT_EQ(kind(3), "scatter");
    EXPECT_EQ(numbers(series(3).value("y")), std::vector<double>({3, 1, 2}));
    EXPECT_EQ(kind(4), "bar") << QJsonDocument(result->artifacts[4].chart).toJson().toStdString();
    EXPECT_EQ(numbers(series(4).value("y")), std::vector<double>({3, 1, 2}));
    EXPECT_EQ(kind(5), "bar");
    EXPECT_EQ(series(5).value("x").toArray(), (QJsonArray{"a", "b", "c"}));
    EXPECT_EQ(numbers(series(5).value("y")), std::vector<double>({3, 1, 2}));
    EXPECT_EQ(kind(6), "line");
    EXPECT_EQ(numbers(series(6).value("y")), std::vector<double>({3, 1, 2}));
}

// A box plot's data is its boxes (quartiles, whiskers, outliers), from matplotlib's boxplot and seaborn's alike,
// not the lines that draw them.
TEST_P(CaptureTest, boxPlotsComeBackAsTheirQuartilesWhiskersAndOutliers)
{
    auto result = python("import matplotlib.pyplot as plt, pandas as pd, seaborn as sns\n"
                         "plt.boxplot([[1, 2, 3, 4, 5, 100], [10, 20, 30]], labels=['a', 'b'])\n"
                         "plt.title('Boxes')\n"
                         "plt.show()\n"
                         "df = pd.DataFrame({'day': ['x'] * 5 + ['y'] * 5, 'tip': [1, 2, 3, 4, 5, 2, 4, 6, 8, 10]})\n"
                         "sns.boxplot(data=df, x='day', y='tip')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(namesOf(*result), QStringList({"figure_1.png", "figure_2.png"})) << describe(*result);
    const QJsonObject chart = result->artifacts[0].chart;
    EXPECT_EQ(chart.value(QStringLiteral("kind")).toString(), QStringLiteral("box"))
        << QJsonDocument(chart).toJson().toStdString();
    const QJsonObject boxes = firstSeries(chart);
    EXPECT_EQ(chart.value(QStringLiteral("axes")).toArray().at(0).toObject().value("series").toArray().size(), 1)
        << "the whiskers, caps and medians are no line series of their own";
    const QJsonArray list = boxes.value(QStringLiteral("boxes")).toArray();
    ASSERT_EQ(list.size(), 2) << QJsonDocument(chart).toJson().toStdString();
    const QJsonObject a = list.at(0).toObject();
    EXPECT_EQ(a.value("label").toString(), "a");
    EXPECT_DOUBLE_EQ(a.value("median").toDouble(), 3.5);
    EXPECT_DOUBLE_EQ(a.value("q1").toDouble(), 2.25);
    EXPECT_DOUBLE_EQ(a.value("q3").toDouble(), 4.75);
    EXPECT_DOUBLE_EQ(a.value("whisker_low").toDouble(), 1);
    EXPECT_DOUBLE_EQ(a.value("whisker_high").toDouble(), 5);
    EXPECT_EQ(numbers(a.value("outliers")), std::vector<double>({100.0}));
    EXPECT_EQ(list.at(1).toObject().value("label").toString(), "b");
    EXPECT_DOUBLE_EQ(list.at(1).toObject().value("median").toDouble(), 20);
    const QJsonObject seaborn = firstSeries(result->artifacts[1].chart);
    EXPECT_EQ(seaborn.value("kind").toString(), "box")
        << QJsonDocument(result->artifacts[1].chart).toJson().toStdString();
    const QJsonArray days = seaborn.value(QStringLiteral("boxes")).toArray();
    ASSERT_EQ(days.size(), 2);
    EXPECT_EQ(days.at(0).toObject().value("label").toString(), "x");
    EXPECT_DOUBLE_EQ(days.at(0).toObject().value("median").toDouble(), 3);
    EXPECT_EQ(days.at(1).toObject().value("label").toString(), "y");
    EXPECT_DOUBLE_EQ(days.at(1).toObject().value("median").toDouble(), 6);
}

// display(df), as in a notebook (issue 50): the DataFrame's text, and the DataFrame as a table the model reads.
TEST_P(CaptureTest, displayOfADataFrameShowsItAndReturnsItAsATable)
{
    auto result = python("import pandas as pd\n"
                         "df = pd.DataFrame({'city': ['Oslo', 'Rome'], 'sales': [3.5, 97]})\n"
                         "display(df)\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    EXPECT_TRUE(result->stdoutData.contains("Oslo")) << describe(*result);
    ASSERT_EQ(namesOf(*result), QStringList({"table_1.csv"})) << describe(*result);
    const QJsonObject table = result->artifacts[0].table;
    EXPECT_EQ(table.value("rows").toInteger(), 2) << QJsonDocument(table).toJson().toStdString();
    const QJsonArray columns = table.value("columns").toArray();
    ASSERT_EQ(columns.size(), 2) << "no index column for a default index";
    EXPECT_EQ(columns.at(1).toObject().value("type").toString(), "number");
    EXPECT_DOUBLE_EQ(columns.at(1).toObject().value("max").toDouble(), 97);
}

// print(df) where it can be recognised (issue 50): a DataFrame printed is a table too; a Series (df.dtypes) is not,
// and anything after the twentieth table is not kept, which the run says.
TEST_P(CaptureTest, aDataFramePrintedComesBackAsATable)
{
    auto result = python("import pandas as pd\n"
                         "df = pd.DataFrame({'city': ['Oslo', 'Rome', 'Lima'], 'sales': [3.5, 97, 12]})\n"
                         "print('Sales:', df.describe())\n"
                         "print(df.dtypes)\n"
                         "for i in range(25):\n"
                         "    print(df.head(1))\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    EXPECT_TRUE(result->stdoutData.contains("Sales:")) << describe(*result);
    EXPECT_EQ(result->stdoutData.count("Oslo"), 25) << describe(*result);
    const QStringList names = namesOf(*result);
    ASSERT_EQ(names.size(), 20) << describe(*result);
    EXPECT_EQ(names.front(), "table_1.csv");
    EXPECT_EQ(result->artifacts[0].table.value("rows").toInteger(), 8) << "count, mean, std, min, quartiles, max";
    EXPECT_TRUE(result->stderrData.contains("only the first 20 tables")) << describe(*result);
}

// A series longer than the chart data keeps (issue 50): its outline with the exact extremes and count, the correlation
// of every point, and every point in a file beside the image that the client reads as a resource.
TEST_P(CaptureTest, aLongScatterSaysItsCorrelationAndWritesEveryPointBesideIt)
{
    auto result = python("import matplotlib.pyplot as plt\n"
                         "xs = list(range(500))\n"
                         "plt.scatter(xs, [2 * x + x % 7 for x in xs]); plt.title('Cloud')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(namesOf(*result), QStringList({"figure_1.png", "figure_1.data.csv"})) << describe(*result);
    const QJsonObject chart = result->artifacts[0].chart;
    EXPECT_EQ(chart.value("data_file").toString(), "figure_1.data.csv") << QJsonDocument(chart).toJson().toStdString();
    const QJsonObject series = firstSeries(chart);
    EXPECT_TRUE(series.value("truncated").toBool());
    EXPECT_EQ(series.value("points").toInt(), 500);
    EXPECT_EQ(series.value("x").toArray().size(), 201) << "every 2.5th point, and the last";
    EXPECT_DOUBLE_EQ(series.value("y_max").toDouble(), 2 * 499 + 499 % 7);
    EXPECT_NEAR(series.value("r").toDouble(), 0.999976, 1e-6) << "of every point (statistics.correlation)";
    EXPECT_EQ(ChartData::summary(result->artifacts[0].name, chart).toStdString(),
              "figure_1.png: scatter 'Cloud' — x -24.95–524, y -50–1050, 500 points, r = 1.00, all points in "
              "figure_1.data.csv");
    const QJsonObject table = result->artifacts[1].table;
    EXPECT_EQ(table.value("rows").toInt(), 500) << QJsonDocument(table).toJson().toStdString();
    EXPECT_TRUE(result->artifacts[1].data.startsWith("series,kind,x,y\r\n1,scatter,0.0,0.0\r\n"))
        << result->artifacts[1].data.left(80).toStdString();
}

TEST_P(CaptureTest, tracebackKeepsTheUsersLineNumberAndTheFigureDrawnBeforeIt)
{
    auto result = python("import matplotlib.pyplot as plt\n"
                         "plt.plot([1, 2])\n"
                         "raise ValueError('boom')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 1);
    EXPECT_TRUE(result->stderrData.contains("line 3")) << result->stderrData.toStdString();
    EXPECT_TRUE(result->stderrData.contains("ValueError: boom")) << result->stderrData.toStdString();
    EXPECT_TRUE(result->stdoutData.isEmpty());
    ASSERT_EQ(namesOf(*result), QStringList({"figure_1.png"})) << describe(*result);
}

TEST_P(CaptureTest, aProgramThatDrawsNothingGetsNoArtifactsAndOnlyItsOwnOutput)
{
    auto result = python("import sys\nprint('out')\nprint('err', file=sys.stderr)\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData.toStdString(), "out\n");
    EXPECT_EQ(result->stderrData.toStdString(), "err\n");
    EXPECT_TRUE(result->artifacts.isEmpty()) << describe(*result);
}

// --- Python: plotly and PIL ----------------------------------------------------------------

TEST_P(CaptureTest, plotlyShowAndWriteHtmlComeBackAsHtmlPages)
{
    auto result = python("import plotly.express as px\n"
                         "fig = px.scatter(x=[1, 2, 3], y=[3, 1, 2])\n"
                         "fig.show()\n"
                         "fig.write_html('/tmp/interactive.html')\n"
                         "print('plotted')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData.toStdString(), "plotted\n");
    EXPECT_EQ(result->stderrData.toStdString(), "");
    ASSERT_EQ(namesOf(*result), QStringList({"figure_1.html", "interactive.html"})) << describe(*result);
    expectPlotlyHtml(result->artifacts[0]);
    expectPlotlyHtml(result->artifacts[1]);
    // Issue 50: the figure's own data comes with the page.
    const QJsonObject chart = result->artifacts[0].chart;
    EXPECT_EQ(chart.value(QStringLiteral("library")).toString(), QStringLiteral("plotly"))
        << QJsonDocument(chart).toJson().toStdString();
    EXPECT_EQ(chart.value(QStringLiteral("kind")).toString(), QStringLiteral("scatter"));
    const QJsonObject series = firstSeries(chart);
    EXPECT_EQ(series.value(QStringLiteral("y")).toArray(), (QJsonArray{3, 1, 2}));
    EXPECT_EQ(result->artifacts[1].chart.value(QStringLiteral("library")).toString(), QStringLiteral("plotly"));
}

TEST_P(CaptureTest, plotlyWriteImageWithoutKaleidoFallsBackToHtmlAndSaysSo)
{
    auto result = python("import plotly.graph_objects as go\n"
                         "fig = go.Figure(go.Bar(x=['a', 'b'], y=[1, 2]))\n"
                         "fig.write_image('/tmp/bars.png')\n"
                         "print('continued')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    EXPECT_EQ(result->stdoutData.toStdString(), "continued\n");
    EXPECT_TRUE(result->stderrData.contains("kaleido")) << result->stderrData.toStdString();
    EXPECT_TRUE(result->stderrData.contains("figure_1.html")) << result->stderrData.toStdString();
    ASSERT_EQ(namesOf(*result), QStringList({"figure_1.html"})) << describe(*result);
    expectPlotlyHtml(result->artifacts[0]);
}

// The languages without a capture hook draw by writing a plotly figure or a Vega-Lite specification as JSON: the
// chart's data comes with the file (issue 50).
TEST_P(CaptureTest, plotlyAndVegaLiteJsonFilesFromJavaScriptComeBackWithTheirData)
{
    auto result = run(QStringLiteral("javascript"), QStringLiteral(R"(
const fs = require('fs'), path = require('path'), out = process.env.LLM_SANDBOX_OUTPUT_DIR;
fs.writeFileSync(path.join(out, 'sales.json'), JSON.stringify({
  data: [{type: 'bar', x: ['Oslo', 'Rome'], y: [3.5, 97]}], layout: {title: {text: 'Sales'}}}));
fs.writeFileSync(path.join(out, 'growth.vl.json'), JSON.stringify({
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json', mark: 'point',
  data: {values: [{t: 1, v: 2}, {t: 2, v: 4}, {t: 3, v: 7}]},
  encoding: {x: {field: 't', type: 'quantitative'}, y: {field: 'v', type: 'quantitative'}}}));
fs.writeFileSync(path.join(out, 'settings.json'), JSON.stringify({data: [1, 2]}));
)"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    QHash<QString, QJsonObject> charts;
    for (const Artifact &artifact : result->artifacts) {
        charts.insert(artifact.name, artifact.chart);
    }
    ASSERT_EQ(charts.size(), 3) << describe(*result);
    EXPECT_EQ(charts.value("sales.json").value("library").toString(), "plotly");
    EXPECT_EQ(charts.value("sales.json").value("title").toString(), "Sales");
    EXPECT_EQ(firstSeries(charts.value("sales.json")).value("y").toArray(), (QJsonArray{3.5, 97}));
    EXPECT_EQ(charts.value("growth.vl.json").value("library").toString(), "vega-lite");
    EXPECT_EQ(firstSeries(charts.value("growth.vl.json")).value("kind").toString(), "scatter");
    EXPECT_EQ(firstSeries(charts.value("growth.vl.json")).value("y").toArray(), (QJsonArray{2, 4, 7}));
    EXPECT_TRUE(charts.value("settings.json").isEmpty()) << "other JSON is no chart";
}

TEST_P(CaptureTest, pilImagesSavedAnywhereAreCaptured)
{
    auto result = python("from PIL import Image\n"
                         "Image.new('RGB', (120, 80), 'red').save('/tmp/red.png')\n"
                         "Image.new('RGB', (64, 48), 'blue').save('photo.jpg')\n"
                         "Image.new('P', (30, 20)).save('/tmp/anim', format='GIF')\n"
                         "print('saved')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData.toStdString(), "saved\n");
    ASSERT_EQ(namesOf(*result), QStringList({"red.png", "photo.jpg", "anim.gif"})) << describe(*result);
    expectPng(result->artifacts[0], 80);
    EXPECT_EQ(result->artifacts[0].width, 120);
    EXPECT_EQ(result->artifacts[0].height, 80);
    expectJpeg(result->artifacts[1]);
    EXPECT_EQ(result->artifacts[1].width, 64);
    EXPECT_EQ(result->artifacts[1].height, 48);
    expectGif(result->artifacts[2]);
    EXPECT_EQ(result->artifacts[2].width, 30);
}

TEST_P(CaptureTest, everyChartFormatWrittenToTheOutputDirComesBackWithItsMimeType)
{
    auto result = python("import os, time\n"
                         "from PIL import Image\n"
                         "out = os.environ['LLM_SANDBOX_OUTPUT_DIR']\n"
                         "image = Image.new('RGB', (40, 30), 'green')\n"
                         "for name in ('a.png', 'b.jpeg', 'c.gif', 'd.pdf'):\n"
                         "    image.save(os.path.join(out, name)); time.sleep(0.02)\n"
                         "open(os.path.join(out, 'e.svg'), 'w').write("
                         "'<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>'); time.sleep(0.02)\n"
                         "open(os.path.join(out, 'f.html'), 'w').write('<html><body>hi</body></html>')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(namesOf(*result), QStringList({"a.png", "b.jpeg", "c.gif", "d.pdf", "e.svg", "f.html"}))
        << describe(*result);
    expectPng(result->artifacts[0], 30);
    expectJpeg(result->artifacts[1]);
    expectGif(result->artifacts[2]);
    expectPdf(result->artifacts[3]);
    expectSvg(result->artifacts[4]);
    EXPECT_EQ(result->artifacts[5].mimeType, "text/html");
    EXPECT_EQ(result->artifacts[5].data, "<html><body>hi</body></html>");

    // The result JSON (run --json, MCP) carries the pixel size of raster images only.
    const QJsonArray json = runResultToJson(*result).value(QStringLiteral("artifacts")).toArray();
    EXPECT_EQ(json[0].toObject().value(QStringLiteral("width")).toInt(), 40);
    EXPECT_EQ(json[0].toObject().value(QStringLiteral("height")).toInt(), 30);
    EXPECT_FALSE(json[4].toObject().contains(QStringLiteral("width")));
}

// --- Limits ----------------------------------------------------------------------------------

TEST_P(CaptureTest, artifactsOverTheCountLimitAreDroppedAndTheResultSaysSo)
{
    SandboxSettings settings;
    settings.maxArtifacts = 2;
    settings.poolSize = 0;
    ExecutionEngine engine(test::backendFor(GetParam()), settings);
    auto result = run(QStringLiteral("python"),
                      "import matplotlib.pyplot as plt\n"
                      "for i in range(4):\n"
                      "    plt.figure(); plt.plot([i, 1])\n"
                      "plt.show()\n",
                      &engine);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(namesOf(*result), QStringList({"figure_1.png", "figure_2.png"})) << describe(*result);
    EXPECT_EQ(result->artifactsDropped, 2);
    EXPECT_TRUE(result->stderrData.contains("2 output file(s) not returned")) << result->stderrData.toStdString();
    EXPECT_EQ(runResultToJson(*result).value(QStringLiteral("artifacts_dropped")).toInt(), 2);
}

TEST_P(CaptureTest, artifactsOverTheRunTotalAreDroppedAndTheResultSaysSo)
{
    SandboxSettings settings;
    settings.maxArtifactsTotalBytes = 250 * 1024;
    settings.poolSize = 0;
    ExecutionEngine engine(test::backendFor(GetParam()), settings);
    auto result = run(QStringLiteral("python"),
                      "import os, time\n"
                      "for name in ('a.svg', 'b.svg', 'c.svg'):\n"
                      "    with open(os.path.join(os.environ['LLM_SANDBOX_OUTPUT_DIR'], name), 'w') as f:\n"
                      "        f.write('<svg xmlns=\"http://www.w3.org/2000/svg\"><!--' + 'x' * 100000 + '--></svg>')\n"
                      "    time.sleep(0.02)\n",
                      &engine);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(namesOf(*result), QStringList({"a.svg", "b.svg"})) << describe(*result);
    EXPECT_EQ(result->artifactsDropped, 1);
    EXPECT_TRUE(result->stderrData.contains("250 KiB per run")) << result->stderrData.toStdString();
}

// --- R -------------------------------------------------------------------------------------

TEST_P(CaptureTest, rBaseGraphicsComeBackAsOnePngPerPlotInOrder)
{
    auto result = r("print(ls())\n"
                    "plot(1:10, main = 'scatter')\n"
                    "hist(c(1, 2, 2, 3, 3, 3))\n"
                    "barplot(c(a = 3, b = 5))\n"
                    "boxplot(list(x = 1:10, y = 5:20))\n"
                    "cat('drawn', file.exists('Rplots.pdf'), '\\n')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    // Nothing of the capture in the workspace, and no Rplots.pdf (Rscript's own default device).
    EXPECT_EQ(result->stdoutData.toStdString(), "character(0)\ndrawn FALSE \n");
    EXPECT_EQ(result->stderrData.toStdString(), "");
    ASSERT_EQ(namesOf(*result), QStringList({"Rplot001.png", "Rplot002.png", "Rplot003.png", "Rplot004.png"}))
        << describe(*result);
    for (const Artifact &artifact : result->artifacts) {
        expectPng(artifact);
    }
    // Each page's data (issue 50): the scatter with its title, the histogram's bins, the bars' categories, the boxes.
    const auto kindOf = [&](int i) {
        return result->artifacts[i].chart.value(QStringLiteral("kind")).toString().toStdString();
    };
    EXPECT_EQ(kindOf(0), "scatter") << QJsonDocument(result->artifacts[0].chart).toJson().toStdString();
    EXPECT_EQ(result->artifacts[0].chart.value("title").toString(), "scatter");
    EXPECT_EQ(result->artifacts[0].chart.value("library").toString(), "graphics");
    EXPECT_EQ(firstSeries(result->artifacts[0].chart).value("points").toInt(), 10);
    EXPECT_EQ(kindOf(1), "histogram");
    const QJsonObject bins = firstSeries(result->artifacts[1].chart);
    EXPECT_EQ(bins.value("bin_edges").toArray().first().toDouble(), 1.0) << QJsonDocument(bins).toJson().toStdString();
    double counted = 0;
    for (const QJsonValue count : bins.value("y").toArray()) {
        counted += count.toDouble();
    }
    EXPECT_EQ(counted, 6.0);
    EXPECT_EQ(kindOf(2), "bar");
    EXPECT_EQ(firstSeries(result->artifacts[2].chart).value("x").toArray(), QJsonArray({"a", "b"}));
    EXPECT_EQ(numbers(firstSeries(result->artifacts[2].chart).value("y")), std::vector<double>({3.0, 5.0}));
    EXPECT_EQ(kindOf(3), "box");
    const QJsonArray boxes = firstSeries(result->artifacts[3].chart).value("boxes").toArray();
    ASSERT_EQ(boxes.size(), 2) << QJsonDocument(result->artifacts[3].chart).toJson().toStdString();
    EXPECT_EQ(boxes.at(0).toObject().value("label").toString(), "x");
    EXPECT_DOUBLE_EQ(boxes.at(0).toObject().value("median").toDouble(), 5.5);
    EXPECT_DOUBLE_EQ(boxes.at(1).toObject().value("median").toDouble(), 12.5);
    EXPECT_EQ(result->artifacts[3].chart.value("axes").toArray().at(0).toObject().value("series").toArray().size(), 1)
        << "the outliers' points are the box plot's, no series of their own";
}

// A data frame the script shows comes back as a table, as Python's display() (issue 50); a long series as its outline
// and every point in a file.
TEST_P(CaptureTest, rDataFramesShownComeBackAsTablesAndALongSeriesAsAFile)
{
    auto result = r("df <- data.frame(city = c('Oslo', 'Rome'), sales = c(3.5, 97))\n"
                    "df\n"
                    "x <- 1:500\n"
                    "plot(x, x %% 7, main = 'Cloud')\n"
                    "print(ls())\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    EXPECT_TRUE(result->stdoutData.startsWith("  city sales\n1 Oslo   3.5\n")) << describe(*result);
    EXPECT_TRUE(result->stdoutData.endsWith("[1] \"df\" \"x\" \n")) << "nothing of the capture in the workspace";
    ASSERT_EQ(namesOf(*result), QStringList({"table_1.csv", "Rplot001.data.csv", "Rplot001.png"})) << describe(*result);
    const QJsonObject table = result->artifacts[0].table;
    EXPECT_EQ(table.value("rows").toInt(), 2) << QJsonDocument(table).toJson().toStdString();
    ASSERT_EQ(table.value("columns").toArray().size(), 2) << "no row names for automatic ones";
    EXPECT_DOUBLE_EQ(table.value("columns").toArray().at(1).toObject().value("max").toDouble(), 97);
    EXPECT_EQ(result->artifacts[1].table.value("rows").toInt(), 500);
    const QJsonObject chart = result->artifacts[2].chart;
    EXPECT_EQ(chart.value("data_file").toString(), "Rplot001.data.csv") << QJsonDocument(chart).toJson().toStdString();
    const QJsonObject series = firstSeries(chart);
    EXPECT_TRUE(series.value("truncated").toBool());
    EXPECT_EQ(series.value("points").toInt(), 500);
    EXPECT_NEAR(series.value("r").toDouble(), -0.0017108, 1e-6) << "of every point (statistics.correlation)";
}

TEST_P(CaptureTest, rGgplot2PrintedAndSavedPlotsComeBack)
{
    // The printed plot's page is complete (written) only at exit; ggsave's files when it returns.
    auto result = r("suppressPackageStartupMessages(library(ggplot2))\n"
                    "p <- ggplot(data.frame(x = 1:3, y = c(2, 3, 1)), aes(x, y)) + geom_line()\n"
                    "print(p)\n"
                    "ggsave('/tmp/saved.png', p, width = 4, height = 3, dpi = 100)\n"
                    "ggsave('chart.pdf', p, width = 4, height = 3)\n"
                    "cat('ok\\n')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    EXPECT_EQ(result->stdoutData.toStdString(), "ok\n");
    // The kubernetes backend copies the files out with tar, which keeps whole seconds: the PDF and the printed page,
    // written in the same second, then come by name ("R" before "c").
    const QStringList names = namesOf(*result);
    const QStringList byTime{QStringLiteral("saved.png"), QStringLiteral("chart.pdf"), QStringLiteral("Rplot001.png")};
    const QStringList sameSecond{QStringLiteral("saved.png"), QStringLiteral("Rplot001.png"),
                                 QStringLiteral("chart.pdf")};
    ASSERT_TRUE(names == byTime || (GetParam() == "kubernetes" && names == sameSecond)) << describe(*result);
    const auto named = [&](const QString &name) {
        return result->artifacts[names.indexOf(name)];
    };
    expectPng(named(QStringLiteral("saved.png")));
    EXPECT_EQ(named(QStringLiteral("saved.png")).width, 400);
    EXPECT_EQ(named(QStringLiteral("saved.png")).height, 300);
    expectPdf(named(QStringLiteral("chart.pdf")));
    expectPng(named(QStringLiteral("Rplot001.png")));
    // The printed plot's data, from the built plot; ggsave's files are drawn elsewhere and have none.
    const QJsonObject chart = named(QStringLiteral("Rplot001.png")).chart;
    EXPECT_EQ(chart.value("library").toString(), "ggplot2") << QJsonDocument(chart).toJson().toStdString();
    EXPECT_EQ(chart.value("kind").toString(), "line");
    EXPECT_EQ(numbers(firstSeries(chart).value("x")), std::vector<double>({1.0, 2.0, 3.0}));
    EXPECT_EQ(numbers(firstSeries(chart).value("y")), std::vector<double>({2.0, 3.0, 1.0}));
    EXPECT_EQ(chart.value("axes").toArray().at(0).toObject().value("x").toObject().value("label").toString(), "x");
    EXPECT_TRUE(named(QStringLiteral("saved.png")).chart.isEmpty());
}

// ggplot2's layers as the model reads them (issue 50): columns by category, a histogram's bins, boxes, points.
TEST_P(CaptureTest, rGgplot2LayersComeBackAsTheirData)
{
    auto result = r("suppressPackageStartupMessages(library(ggplot2))\n"
                    "d <- data.frame(g = c('a', 'a', 'b', 'b', 'b'), v = c(1, 3, 2, 4, 9))\n"
                    "print(ggplot(data.frame(g = c('a', 'b'), v = c(4, 15)), aes(g, v)) + geom_col() + "
                    "ggtitle('Totals'))\n"
                    "print(ggplot(d, aes(v)) + geom_histogram(bins = 3))\n"
                    "print(ggplot(d, aes(g, v)) + geom_boxplot())\n"
                    "print(ggplot(d, aes(v, v)) + geom_point())\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    ASSERT_EQ(namesOf(*result), QStringList({"Rplot001.png", "Rplot002.png", "Rplot003.png", "Rplot004.png"}))
        << describe(*result);
    const auto chart = [&](int i) {
        return result->artifacts[i].chart;
    };
    EXPECT_EQ(chart(0).value("kind").toString(), "bar") << QJsonDocument(chart(0)).toJson().toStdString();
    EXPECT_EQ(chart(0).value("title").toString(), "Totals");
    EXPECT_EQ(firstSeries(chart(0)).value("x").toArray(), QJsonArray({"a", "b"}));
    EXPECT_EQ(numbers(firstSeries(chart(0)).value("y")), std::vector<double>({4.0, 15.0}));
    EXPECT_EQ(chart(1).value("kind").toString(), "histogram") << QJsonDocument(chart(1)).toJson().toStdString();
    const std::vector<double> counts = numbers(firstSeries(chart(1)).value("y"));
    EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), 0.0), 5.0);
    EXPECT_EQ(firstSeries(chart(1)).value("bin_edges").toArray().size(), 4);
    EXPECT_EQ(chart(2).value("kind").toString(), "box") << QJsonDocument(chart(2)).toJson().toStdString();
    const QJsonArray boxes = firstSeries(chart(2)).value("boxes").toArray();
    ASSERT_EQ(boxes.size(), 2);
    EXPECT_EQ(boxes.at(0).toObject().value("label").toString(), "a");
    EXPECT_DOUBLE_EQ(boxes.at(0).toObject().value("median").toDouble(), 2.0);
    EXPECT_DOUBLE_EQ(boxes.at(1).toObject().value("median").toDouble(), 4.0);
    EXPECT_EQ(chart(3).value("kind").toString(), "scatter");
    EXPECT_EQ(firstSeries(chart(3)).value("points").toInt(), 5);
}

TEST_P(CaptureTest, rLatticePlotIsCaptured)
{
    auto result = r("library(lattice)\n"
                    "xyplot(y ~ x, data.frame(x = 1:5, y = c(2, 4, 3, 5, 1)))\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    EXPECT_EQ(result->stdoutData.toStdString(), "");
    ASSERT_EQ(namesOf(*result), QStringList({"Rplot001.png"})) << describe(*result);
    expectPng(result->artifacts[0]);
    const QJsonObject chart = result->artifacts[0].chart;
    EXPECT_EQ(chart.value("library").toString(), "lattice") << QJsonDocument(chart).toJson().toStdString();
    EXPECT_EQ(numbers(firstSeries(chart).value("y")), std::vector<double>({2.0, 4.0, 3.0, 5.0, 1.0}));
}

TEST_P(CaptureTest, rMultiPageOutputBecomesSeveralCharts)
{
    auto result = r("for (i in 1:3) plot(seq_len(i * 5), main = paste('page', i))\n"
                    "invisible(dev.off())\n"
                    "plot(1)\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData.toStdString(), "");
    // dev.off() then another plot: a new device, new names, the first pages are kept.
    ASSERT_EQ(namesOf(*result), QStringList({"Rplot001.png", "Rplot002.png", "Rplot003.png", "Rplot2_001.png"}))
        << describe(*result);
    for (const Artifact &artifact : result->artifacts) {
        expectPng(artifact);
        EXPECT_EQ(artifact.width, 700);
        EXPECT_EQ(artifact.height, 500);
    }
}

TEST_P(CaptureTest, rFileDevicesOpenedByTheScriptAreCopiedWhenClosed)
{
    auto result = r("png('mine.png', width = 320, height = 240); plot(1:3); invisible(dev.off())\n"
                    "svg('/tmp/vector.svg'); plot(3:1); invisible(dev.off())\n"
                    "pdf('two-pages.pdf'); plot(1); plot(2)\n"
                    "cat('done\\n')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    EXPECT_EQ(result->stdoutData.toStdString(), "done\n");
    // The PDF is never closed by the script: the exit hook closes it, then it is copied.
    ASSERT_EQ(namesOf(*result), QStringList({"mine.png", "vector.svg", "two-pages.pdf"})) << describe(*result);
    expectPng(result->artifacts[0]);
    EXPECT_EQ(result->artifacts[0].width, 320);
    expectSvg(result->artifacts[1]);
    expectPdf(result->artifacts[2]);
}

TEST_P(CaptureTest, rErrorStillReturnsThePlotDrawnBeforeIt)
{
    auto result = r("plot(1:5)\nx <- 1\nstop('broken on line 3')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 1);
    EXPECT_TRUE(result->stderrData.contains("broken on line 3")) << result->stderrData.toStdString();
    ASSERT_EQ(namesOf(*result), QStringList({"Rplot001.png"})) << describe(*result);
    expectPng(result->artifacts[0]);
}

INSTANTIATE_TEST_SUITE_P(Backends, CaptureTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);

// --- Every language: files written to $LLM_SANDBOX_OUTPUT_DIR ------------------------------

namespace {

/// Every language on every engine: (backend, language).
class OutputDirTest : public ::testing::TestWithParam<std::tuple<std::string, const char *>>
{
protected:
    static void TearDownTestSuite() { s_engines.clear(); }
    static test::SharedEngines s_engines;
};

test::SharedEngines OutputDirTest::s_engines;

} // namespace

TEST_P(OutputDirTest, svgWrittenToTheOutputDirComesBack)
{
    const auto &[backend, languageName] = GetParam();
    const Result<Language> language = LanguageRegistry::instance().find(languageName);
    ASSERT_TRUE(language.ok());
    // The compiled and plain languages have a worked example that writes an SVG bar chart;
    // Python and R write one with their own file functions.
    QString code;
    for (const LanguageExample &example : language->examples) {
        if (example.title == QLatin1String("SVG chart")) {
            code = example.code;
        }
    }
    if (language->name == QLatin1String("python")) {
        code = "import os\n"
               "path = os.path.join(os.environ['LLM_SANDBOX_OUTPUT_DIR'], 'bars.svg')\n"
               "open(path, 'w').write('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">"
               "<rect width=\"5\" height=\"8\"/></svg>')\n"
               "print('wrote ' + path)\n";
    } else if (language->name == QLatin1String("r")) {
        code = "path <- file.path(Sys.getenv('LLM_SANDBOX_OUTPUT_DIR'), 'bars.svg')\n"
               "writeLines('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">"
               "<rect width=\"5\" height=\"8\"/></svg>', path)\n"
               "cat('wrote ', path, '\\n', sep = '')\n";
    }
    ASSERT_FALSE(code.isEmpty()) << "no SVG chart example for " << languageName;
    ExecutionEngine *engine = s_engines.get(backend);
    ASSERT_NE(engine, nullptr);

    RunRequest request;
    request.language = language->name;
    request.code = code;
    request.timeout = 120s;
    auto result = engine->run(request);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << describe(*result);
    EXPECT_EQ(result->stdoutData.toStdString(), "wrote /sandbox/output/bars.svg\n") << describe(*result);
    ASSERT_EQ(namesOf(*result), QStringList({"bars.svg"})) << describe(*result);
    expectSvg(result->artifacts[0]);
    EXPECT_TRUE(result->artifacts[0].data.contains("<rect")) << "a chart, not an empty document";
}

INSTANTIATE_TEST_SUITE_P(AllLanguages, OutputDirTest,
                         ::testing::Combine(::testing::ValuesIn(test::backendNamesWithKubernetes()),
                                            ::testing::Values("python", "javascript", "java", "cpp", "go", "r",
                                                              "ruby")),
                         [](const ::testing::TestParamInfo<std::tuple<std::string, const char *>> &info) {
                             return std::string(std::get<1>(info.param)) + "_" + std::get<0>(info.param);
                         });
