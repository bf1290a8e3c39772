#include "gui/widgets/RunView.h"

#include "gui/widgets/ArtifactStrip.h"
#include "gui/widgets/ThumbnailProvider.h"

#include <QBuffer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

class RunViewTest : public ::testing::Test
{
protected:
    void SetUp() override { ASSERT_TRUE(m_dir.isValid()); }

    /// A chart file as the journal keeps one.
    JournalArtifact chart(const QString &name, const QColor &color)
    {
        QImage image(80, 60, QImage::Format_RGB32);
        image.fill(color);
        JournalArtifact artifact{.name = name, .mimeType = QStringLiteral("image/png"), .width = 80, .height = 60};
        artifact.path = m_dir.filePath(name);
        EXPECT_TRUE(image.save(artifact.path, "PNG"));
        artifact.size = QFile(artifact.path).size();
        return artifact;
    }

    static JournalRun running()
    {
        JournalRun run;
        run.id = QStringLiteral("run-1");
        run.seq = 1;
        run.source = RunSource::Mcp;
        run.clientName = QStringLiteral("claude-ai");
        run.language = QStringLiteral("python");
        run.code = QStringLiteral("print('a')\nprint('b')");
        run.startedAt = QDateTime::currentDateTimeUtc();
        run.status = RunStatus::Running;
        run.stdoutData = "a\n";
        return run;
    }

    QPlainTextEdit *text(const char *name) { return m_view.findChild<QPlainTextEdit *>(QLatin1String(name)); }
    ArtifactStrip *strip() { return m_view.findChild<ArtifactStrip *>(QStringLiteral("runArtifacts")); }

    QTemporaryDir m_dir;
    ThumbnailProvider m_thumbnails;
    RunView m_view{m_thumbnails};
};

} // namespace

TEST_F(RunViewTest, showsARunsOutputCodeDetailsAndChartsWithThumbnailsFromTheProvider)
{
    JournalRun run = running();
    run.status = RunStatus::Finished;
    run.exitCode = 0;
    run.stopReason = StopReason::Exited;
    run.stderrData = "warning\n";
    run.artifacts = {chart(QStringLiteral("one.png"), Qt::red), chart(QStringLiteral("two.png"), Qt::blue)};
    m_view.resize(900, 600);
    m_view.show();

    m_view.showRun(run);

    EXPECT_EQ(text("runCode")->toPlainText(), run.code);
    EXPECT_TRUE(text("runOutput")->toPlainText().contains(QStringLiteral("a\nwarning")));
    EXPECT_TRUE(m_view.findChild<QLabel *>(QStringLiteral("runTitle"))->text().contains(QStringLiteral("Finished")));
    EXPECT_TRUE(
        m_view.findChild<QLabel *>(QStringLiteral("runSubtitle"))->text().contains(QStringLiteral("claude-ai")));
    ASSERT_EQ(strip()->count(), 2);
    // The thumbnails are made off the GUI thread by the one provider, then shown in the strip.
    m_thumbnails.waitForDone();
    ASSERT_TRUE(QTest::qWaitFor([&] {
        return !strip()->item(1)->icon().pixmap(ArtifactStrip::ThumbnailSize).isNull() &&
               strip()->item(1)->icon().pixmap(ArtifactStrip::ThumbnailSize).toImage().pixelColor(80, 60) ==
                   QColor(Qt::blue);
    }));
    EXPECT_FALSE(m_view.isTabShown(RunView::McpTab));
    m_view.showTab(RunView::McpTab);
    EXPECT_FALSE(m_view.isTabShown(RunView::McpTab)) << "a run without an MCP exchange has no such tab";
}

TEST_F(RunViewTest, appendsWhatARunningRunGainedAndShowsItsEnd)
{
    m_view.show();
    JournalRunUpdate first;
    first.whole = true;
    first.run = running();
    m_view.applyUpdate(first);
    QPlainTextEdit *output = text("runOutput");
    EXPECT_EQ(output->toPlainText(), QStringLiteral("a\n"));
    EXPECT_EQ(strip()->count(), 0);

    // What the feed hands on for a running run: the summary (no output, the code cut short) and what was added.
    JournalRunUpdate more;
    more.run = running();
    more.run.seq = 2;
    more.run.stdoutData.clear();
    more.run.code = QStringLiteral("print('a')");
    more.stdoutAdded = "b\n";
    more.stderrAdded = "oops\n";
    more.artifactsAdded = {chart(QStringLiteral("live.png"), Qt::green)};
    m_view.applyUpdate(more);
    EXPECT_EQ(output->toPlainText(), QStringLiteral("a\nb\noops\n"));
    EXPECT_EQ(m_view.run().stdoutData, QByteArray("a\nb\n"));
    EXPECT_EQ(m_view.run().stderrData, QByteArray("oops\n"));
    EXPECT_EQ(m_view.run().code, QStringLiteral("print('a')\nprint('b')")) << "the whole code is kept";
    EXPECT_EQ(text("runCode")->toPlainText(), QStringLiteral("print('a')\nprint('b')"));
    ASSERT_EQ(strip()->count(), 1);
    EXPECT_EQ(m_view.run().artifacts.size(), 1);

    JournalRunUpdate end;
    end.run = running();
    end.run.seq = 3;
    end.run.stdoutData.clear();
    end.run.status = RunStatus::Finished;
    end.run.exitCode = 3;
    end.run.stopReason = StopReason::Exited;
    end.run.outputTruncated = true;
    end.hasExchange = true;
    end.run.mcpRequest = QJsonObject{{QStringLiteral("method"), QStringLiteral("tools/call")}};
    end.run.mcpResponse =
        QJsonObject{{QStringLiteral("content"),
                     QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("image")},
                                            {QStringLiteral("data"), QString(5000, QLatin1Char('A'))}}}}};
    m_view.applyUpdate(end);
    EXPECT_TRUE(output->toPlainText().startsWith(QStringLiteral("a\nb\noops\n")));
    EXPECT_TRUE(output->toPlainText().contains(QStringLiteral("output truncated")));
    EXPECT_TRUE(m_view.findChild<QLabel *>(QStringLiteral("runTitle"))->text().contains(QStringLiteral("Finished")));
    m_view.showTab(RunView::McpTab);
    EXPECT_TRUE(m_view.isTabShown(RunView::McpTab));
    const QString response = text("runMcpResponse")->toPlainText();
    EXPECT_TRUE(response.contains(QStringLiteral("(5000 characters)"))) << "image data is shortened";
    EXPECT_LT(response.size(), 1000);
}

TEST_F(RunViewTest, anotherRunIsShownWholeAndAPagesOwnTabStaysHiddenUntilAsked)
{
    auto *extra = new QLabel(QStringLiteral("diff"));
    const int tab = m_view.addTab(extra, QStringLiteral("Replay diff"));
    m_view.show();
    m_view.showRun(running());
    m_view.setTabShown(tab, true);
    m_view.showTab(tab);
    EXPECT_TRUE(m_view.isTabShown(tab));

    JournalRunUpdate other;
    other.run = running();
    other.run.id = QStringLiteral("run-2");
    other.run.stdoutData = "other\n";
    m_view.applyUpdate(other);
    EXPECT_EQ(m_view.run().id, QStringLiteral("run-2"));
    EXPECT_EQ(text("runOutput")->toPlainText(), QStringLiteral("other\n"));
    EXPECT_FALSE(m_view.isTabShown(tab)) << "a page's tab belongs to the run it was shown for";

    m_view.clear();
    EXPECT_TRUE(m_view.run().id.isEmpty());
    EXPECT_FALSE(m_view.isTabShown(RunView::OutputTab));
}

TEST_F(RunViewTest, openInConsoleHandsOverTheRunsCodeLanguageAndLibraries)
{
    JournalRun run = running();
    run.libraries = QStringList{QStringLiteral("numpy")};
    m_view.show();
    m_view.showRun(run);
    auto *button = m_view.findChild<QPushButton *>(QStringLiteral("openInConsole"));
    ASSERT_NE(button, nullptr);
    ASSERT_TRUE(button->isVisibleTo(&m_view));
    QString language, code;
    QStringList libraries;
    QObject::connect(&m_view, &RunView::openInConsoleRequested,
                     [&](const QString &l, const QString &c, const QStringList &libs) {
                         language = l;
                         code = c;
                         libraries = libs;
                     });
    QTest::mouseClick(button, Qt::LeftButton);
    EXPECT_EQ(language, QStringLiteral("python"));
    EXPECT_EQ(code, run.code);
    EXPECT_EQ(libraries, run.libraries);
}
