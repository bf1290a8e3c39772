#include "gui/widgets/RunView.h"

#include "gui/widgets/ArtifactStrip.h"
#include "gui/widgets/CodeEditor.h"
#include "gui/widgets/McpExchangeView.h"
#include "gui/widgets/ThumbnailProvider.h"

#include <QBuffer>
#include <QDesktopServices>
#include <QFile>
#include <QFormLayout>
#include <QImage>
#include <QJsonArray>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
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

    /// The first row of pixels with a glyph's ink in WIDGET as drawn, -1 without any.
    static int firstInkedRow(QWidget &widget)
    {
        const QImage image = widget.grab().toImage();
        const QRgb background = image.pixel(0, 0);
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                if (image.pixel(x, y) != background) {
                    return y;
                }
            }
        }
        return -1;
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
    EXPECT_TRUE(m_view.findChild<QLabel *>(QStringLiteral("runTitle"))->text().contains(QStringLiteral("Succeeded")));
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
    EXPECT_TRUE(
        m_view.findChild<QLabel *>(QStringLiteral("runTitle"))->text().contains(QStringLiteral("Failed (exit 3)")));
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

TEST_F(RunViewTest, aRunningMcpCallShowsItsArgumentsAsAFormWithTheCodeAsWritten)
{
    m_view.resize(900, 600);
    m_view.show();
    JournalRunUpdate first;
    first.whole = true;
    first.run = running(); // over MCP, not answered yet: the journal has no exchange for it
    m_view.applyUpdate(first);

    m_view.showTab(RunView::McpTab);
    EXPECT_TRUE(m_view.isTabShown(RunView::McpTab)) << "the call's arguments are known while it runs";
    auto *code = m_view.findChild<CodeEditor *>(QStringLiteral("mcpArgumentCode"));
    ASSERT_NE(code, nullptr);
    EXPECT_EQ(code->toPlainText(), QStringLiteral("print('a')\nprint('b')")) << "real line breaks, not \\n";
    EXPECT_TRUE(text("runMcpResponse")->isHidden() || text("runMcpResponse")->toPlainText().contains("not answered"));
}

TEST_F(RunViewTest, mcpResultShowsJsonTextIndentedAndImagesInline)
{
    QImage image(40, 30, QImage::Format_RGB32);
    image.fill(Qt::magenta);
    QByteArray png;
    QBuffer buffer(&png);
    ASSERT_TRUE(buffer.open(QIODevice::WriteOnly));
    ASSERT_TRUE(image.save(&buffer, "PNG"));
    JournalRun run = running();
    run.status = RunStatus::Finished;
    run.exitCode = 0;
    run.stopReason = StopReason::Exited;
    run.mcpRequest =
        QJsonObject{{"jsonrpc", "2.0"},
                    {"id", 3},
                    {"method", "tools/call"},
                    {"params", QJsonObject{{"name", "execute_code"},
                                           {"arguments", QJsonObject{{"code", "print('a')\nprint('b')"},
                                                                     {"language", "python"},
                                                                     {"libraries", QJsonArray{"numpy"}}}}}}};
    run.mcpResponse = QJsonObject{
        {"jsonrpc", "2.0"},
        {"id", 3},
        {"result",
         QJsonObject{{"content",
                      QJsonArray{QJsonObject{{"type", "text"}, {"text", "{\"exit_code\":0,\"stdout\":\"a\\nb\\n\"}"}},
                                 QJsonObject{{"type", "image"},
                                             {"mimeType", "image/png"},
                                             {"data", QString::fromLatin1(png.toBase64())}}}}}}};
    m_view.resize(900, 600);
    m_view.show();
    m_view.showRun(run);
    m_view.showTab(RunView::McpTab);
    ASSERT_TRUE(m_view.isTabShown(RunView::McpTab));

    EXPECT_EQ(m_view.findChild<CodeEditor *>(QStringLiteral("mcpArgumentCode"))->toPlainText(),
              QStringLiteral("print('a')\nprint('b')"));
    // The text item is a JSON object: a form, its output with real line breaks.
    auto *exitCode = m_view.findChild<QLabel *>(QStringLiteral("mcpField_exit_code"));
    ASSERT_NE(exitCode, nullptr);
    EXPECT_EQ(exitCode->text(), QStringLiteral("0"));
    ASSERT_NE(text("mcpField_stdout"), nullptr);
    EXPECT_EQ(text("mcpField_stdout")->toPlainText(), QStringLiteral("a\nb\n"));
    auto *shown = m_view.findChild<QLabel *>(QStringLiteral("mcpResultImage"));
    ASSERT_NE(shown, nullptr);
    m_thumbnails.waitForDone();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !shown->pixmap().isNull(); }));
    EXPECT_EQ(shown->pixmap().toImage().pixelColor(5, 5), QColor(Qt::magenta));
}

TEST_F(RunViewTest, copyAsCommandGivesShellWordsThatMeanTheCall)
{
    JournalRun run = running();
    run.backend = QStringLiteral("docker");
    run.code = QStringLiteral("print('it''s')\nprint(\"$HOME `x` \\\\\")");
    run.libraries = {QStringLiteral("numpy")};
    run.timeoutMs = 30'000;

    const QString command = McpExchangeView::runCommand(run);
    EXPECT_TRUE(command.startsWith(
        QStringLiteral("llm-sandbox run --backend docker --lang python --lib numpy --timeout 30 --code '")))
        << command.toStdString();
    const QString inspector = McpExchangeView::inspectorCommand(run);
    EXPECT_TRUE(inspector.startsWith(QStringLiteral(
        "npx @modelcontextprotocol/inspector --cli llm-sandbox --mcp --method tools/call --tool-name execute_code")))
        << inspector.toStdString();
    EXPECT_TRUE(inspector.contains(QStringLiteral("--tool-arg 'libraries=[\"numpy\"]'"))) << inspector.toStdString();

    // What a shell makes of the command line: the very words, the code byte for byte.
    auto words = [](const QString &line) {
        QProcess shell;
        shell.start(QStringLiteral("/bin/sh"),
                    {QStringLiteral("-c"), QStringLiteral("set -- %1; printf '%s\\0' \"$@\"").arg(line)});
        EXPECT_TRUE(shell.waitForFinished(10'000));
        QStringList result = QString::fromUtf8(shell.readAllStandardOutput()).split(QChar(0));
        result.removeLast();
        return result;
    };
    const QStringList runWords = words(command);
    ASSERT_FALSE(runWords.isEmpty());
    EXPECT_EQ(runWords.last(), run.code);
    const QStringList inspectorWords = words(inspector);
    EXPECT_TRUE(inspectorWords.contains(QStringLiteral("code=") + run.code));
    EXPECT_EQ(McpExchangeView::shellQuoted(QStringLiteral("plain-word")), QStringLiteral("plain-word"));
    EXPECT_EQ(McpExchangeView::shellQuoted(QString()), QStringLiteral("''"));
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

namespace {

/// Takes the file URLs the view asks the desktop to open, instead of a file manager.
class UrlCatcher : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> opened;
public slots:
    void open(const QUrl &url) { opened << url; }
};

} // namespace

TEST_F(RunViewTest, showsTheFoldersARunReadAndOpensTheFolderOfAFileItSavedNeverTheFile)
{
    JournalRun run = running();
    run.status = RunStatus::Finished;
    run.exitCode = 0;
    run.stopReason = StopReason::Exited;
    run.sharedFolders = {SharedFolderUse{QStringLiteral("sales"), true, 2, 35, 0}};
    // A name a sandbox chose: shown as text, never read as markup.
    run.savedResults = {SavedResult{.folderName = QStringLiteral("sales"),
                                    .folderPath = m_dir.path(),
                                    .fileName = QStringLiteral("<img src=x.png>.csv"),
                                    .bytes = 12,
                                    .sha256 = QStringLiteral("ab"),
                                    .savedAt = QDateTime::currentDateTimeUtc()}};
    m_view.resize(900, 600);
    m_view.show();
    m_view.showRun(run);

    auto *saved = m_view.findChild<QLabel *>(QStringLiteral("runSavedFiles"));
    ASSERT_NE(saved, nullptr);
    EXPECT_TRUE(saved->isVisible());
    EXPECT_TRUE(saved->text().contains(QStringLiteral("/data/sales/&lt;img src=x.png&gt;.csv")))
        << qPrintable(saved->text());
    bool foldersShown = false;
    bool savedShown = false;
    for (const QLabel *label : m_view.findChildren<QLabel *>()) {
        foldersShown |= label->text().contains(QStringLiteral("sales (results may be saved, 2 file"));
        if (label->text().contains(QStringLiteral("<img src=x.png>.csv →"))) {
            savedShown = true;
            EXPECT_EQ(label->textFormat(), Qt::PlainText);
        }
    }
    EXPECT_TRUE(foldersShown);
    EXPECT_TRUE(savedShown);

    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
    emit saved->linkActivated(QStringLiteral("0"));
    emit saved->linkActivated(QStringLiteral("7")); // no such file: nothing opens
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    EXPECT_EQ(catcher.opened, QList<QUrl>{QUrl::fromLocalFile(m_dir.path())}) << "the folder, never the file";

    run.savedResults.clear();
    m_view.showRun(run);
    EXPECT_FALSE(saved->isVisible());
}

TEST_F(RunViewTest, aDetailsLabelStandsBesideTheFirstLineOfAValueOfSeveral)
{
    // Two folders make the Shared folders value two lines; its label was centred on them, between the lines, and read
    // as a label of neither (its text 5 px below the first line's here, 6 px in the screenshots).
    JournalRun run = running();
    run.status = RunStatus::Finished;
    run.exitCode = 0;
    run.stopReason = StopReason::Exited;
    run.sharedFolders = {SharedFolderUse{QStringLiteral("sales"), false, 1, 62, 0},
                         SharedFolderUse{QStringLiteral("results"), true, 0, 0, 0}};
    m_view.resize(900, 600);
    m_view.show();
    m_view.showRun(run);
    m_view.showTab(RunView::DetailsTab);

    QLabel *value = nullptr;
    for (QLabel *label : m_view.findChildren<QLabel *>()) {
        if (label->text().startsWith(QStringLiteral("sales (read only"))) {
            value = label;
        }
    }
    ASSERT_NE(value, nullptr);
    ASSERT_TRUE(QTest::qWaitFor([&] { return value->isVisible() && value->height() > 0; }));
    QWidget *label = nullptr;
    for (const QFormLayout *form : m_view.findChildren<QFormLayout *>()) {
        label = label ? label : form->labelForField(value);
    }
    ASSERT_NE(label, nullptr);
    EXPECT_GT(value->height(), 2 * value->fontMetrics().height() - 2) << "two lines";
    EXPECT_EQ(label->geometry().top() + firstInkedRow(*label), value->geometry().top() + firstInkedRow(*value));
}

#include "RunViewTest.moc"

TEST_F(RunViewTest, librariesFromTheLibraryCacheSaySoInTheDetails)
{
    JournalRun run = running();
    run.status = RunStatus::Finished;
    run.exitCode = 0;
    run.stopReason = StopReason::Exited;
    run.libraries = {QStringLiteral("numpy"), QStringLiteral("pandas")};
    m_view.resize(900, 600);
    m_view.show();
    const auto shown = [this](const QString &text) {
        const QList<QLabel *> labels = m_view.findChildren<QLabel *>();
        return std::any_of(labels.cbegin(), labels.cend(), [&](const QLabel *label) { return label->text() == text; });
    };

    // Installed for the run: the libraries alone.
    m_view.showRun(run);
    EXPECT_TRUE(shown(QStringLiteral("numpy, pandas")));
    EXPECT_FALSE(shown(QStringLiteral("numpy, pandas (from the cache)")));

    // Unpacked from the library cache (another process may have installed them).
    run.librariesCached = true;
    m_view.showRun(run);
    EXPECT_TRUE(shown(QStringLiteral("numpy, pandas (from the cache)")));
    EXPECT_FALSE(shown(QStringLiteral("numpy, pandas")));
}
