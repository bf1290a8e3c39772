#include "gui/console/ConsolePage.h"

#include "GuiTestSupport.h"
#include "engine/ExecutionEngine.h"
#include "fakes/FakeBackend.h"
#include "gui/EngineController.h"
#include "gui/widgets/ArtifactStrip.h"
#include "gui/widgets/CodeEditor.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "lang/LanguageRegistry.h"

#include <QApplication>
#include <QBuffer>
#include <QComboBox>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QToolButton>
#include <QUrl>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

namespace {

QByteArray png()
{
    QImage image(64, 48, QImage::Format_RGB32);
    image.fill(Qt::darkCyan);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

/// The console on the in-memory backend: what each program does is scripted here, by its code.
class ConsolePageTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        engine = std::make_unique<ExecutionEngine>(backend, SandboxSettings{});
        controller = std::make_unique<EngineController>(
            [this](const QString &) -> Result<ExecutionEngine *> { return engine.get(); }, QStringLiteral("docker"));
        page = std::make_unique<ConsolePage>(*controller, thumbnails);
        page->resize(1000, 700);
        page->show();
        page->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(page.get()));
        editor = page->findChild<CodeEditor *>(QStringLiteral("codeEditor"));
        output = page->findChild<QPlainTextEdit *>(QStringLiteral("outputView"));
        ASSERT_NE(editor, nullptr);
        ASSERT_NE(output, nullptr);
    }
    void TearDown() override
    {
        page.reset();
        controller.reset();
    }

    std::shared_ptr<test::FakeBackend> backend = std::make_shared<test::FakeBackend>();
    std::unique_ptr<ExecutionEngine> engine;
    std::unique_ptr<EngineController> controller;
    ThumbnailProvider thumbnails;
    std::unique_ptr<ConsolePage> page;
    CodeEditor *editor = nullptr;
    QPlainTextEdit *output = nullptr;
};

} // namespace

TEST_F(ConsolePageTest, offersEveryLanguageAndShowsItsExample)
{
    auto *picker = page->findChild<QComboBox *>(QStringLiteral("languagePicker"));
    ASSERT_NE(picker, nullptr);
    ASSERT_EQ(picker->count(), 7);
    EXPECT_EQ(picker->itemData(0).toString(), QStringLiteral("python"));
    picker->setCurrentIndex(picker->findData(QStringLiteral("ruby")));
    EXPECT_TRUE(editor->toPlainText().contains(QStringLiteral("puts")));
}

TEST_F(ConsolePageTest, outputStreamsBeforeTheRunEndsAndTheChartAppearsAtTheEnd)
{
    // The program prints, then waits (for the test), then plots: the line must be on screen while the run is still
    // going, the chart once it has ended.
    auto gate = std::make_shared<test::FakeRunGate>();
    test::FakeRunScript script;
    script.output.append({QStringLiteral("stdout"), "first line\n"});
    script.gate = gate;
    script.outputAfterGate.append({QStringLiteral("stderr"), "done\n"});
    script.artifacts.append({QStringLiteral("figure_1.png"), png()});
    backend->setScript("plot()", script);
    editor->setPlainText(QStringLiteral("plot()"));
    auto *strip = page->findChild<ArtifactStrip *>(QStringLiteral("artifactStrip"));
    ASSERT_NE(strip, nullptr);
    page->run();
    ASSERT_TRUE(page->isRunning());

    ASSERT_TRUE(waitUntil([&] { return output->toPlainText().contains(QStringLiteral("first line")); }, 30s));
    // Seen while the program is still waiting: the output streamed.
    EXPECT_TRUE(page->isRunning());
    EXPECT_EQ(strip->count(), 0);

    gate->open();
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 30s));
    EXPECT_TRUE(output->toPlainText().contains(QStringLiteral("done")));
    ASSERT_EQ(strip->count(), 1);
    EXPECT_TRUE(strip->isVisibleTo(page.get()));
    // Its thumbnail is made off the GUI thread and then shown.
    thumbnails.waitForDone();
    ASSERT_TRUE(waitUntil([&] { return !strip->item(0)->icon().pixmap(ArtifactStrip::ThumbnailSize).isNull(); }, 10s));
    const QImage shown = strip->item(0)->icon().pixmap(ArtifactStrip::ThumbnailSize).toImage();
    EXPECT_EQ(shown.pixelColor(shown.width() / 2, shown.height() / 2), QColor(Qt::darkCyan));
}

TEST_F(ConsolePageTest, ctrlReturnRunsTheCode)
{
    backend->setScript("print(6 * 7)", test::FakeRunScript::printing("42\n"));
    editor->setPlainText(QStringLiteral("print(6 * 7)"));
    editor->setFocus();
    QTest::keyClick(editor, Qt::Key_Return, Qt::ControlModifier);
    EXPECT_TRUE(page->isRunning());
    EXPECT_EQ(editor->toPlainText(), QStringLiteral("print(6 * 7)")); // the key ran the code, it typed nothing
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 30s));
    EXPECT_TRUE(output->toPlainText().contains(QStringLiteral("42")));
}

TEST_F(ConsolePageTest, stopEndsALongRun)
{
    test::FakeRunScript script = test::FakeRunScript::heldBy(std::make_shared<test::FakeRunGate>());
    script.output.append({QStringLiteral("stdout"), "going\n"});
    backend->setScript("wait()", script); // until it is cancelled
    editor->setPlainText(QStringLiteral("wait()"));
    page->run();
    ASSERT_TRUE(waitUntil([&] { return output->toPlainText().contains(QStringLiteral("going")); }, 30s));
    auto *stop = page->findChild<QPushButton *>(QStringLiteral("stopButton"));
    ASSERT_TRUE(stop->isEnabled());
    QTest::mouseClick(stop, Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 60s));
    EXPECT_FALSE(stop->isEnabled());
    // Issue 37 item 8: said in the words of every page, not "Exit code 137 · stopped".
    const QString summary = page->findChild<QLabel *>(QStringLiteral("runSummary"))->text();
    EXPECT_TRUE(summary.contains(QStringLiteral("Stopped by you after"))) << summary.toStdString();
    EXPECT_FALSE(summary.contains(QStringLiteral("Exit code"))) << summary.toStdString();
}

TEST_F(ConsolePageTest, outputKeepsItsLinesWhenChartsAppear)
{
    // Issue 37, item 11: two charts below the output left it three lines high.
    page->resize(1000, 600);
    test::FakeRunScript script = test::FakeRunScript::printing("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n");
    script.artifacts.append({QStringLiteral("figure_1.png"), png()});
    script.artifacts.append({QStringLiteral("figure_2.png"), png()});
    backend->setScript("plot()", script);
    editor->setPlainText(QStringLiteral("plot()"));
    page->run();
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 30s));
    auto *strip = page->findChild<ArtifactStrip *>(QStringLiteral("artifactStrip"));
    ASSERT_TRUE(waitUntil([&] { return strip->isVisible() && output->height() > 0; }, 5s));
    QApplication::processEvents();
    EXPECT_GE(output->height(), output->fontMetrics().lineSpacing() * 8) << output->height();
    EXPECT_GE(editor->height(), editor->fontMetrics().lineSpacing() * 5) << editor->height();
}

TEST_F(ConsolePageTest, anotherLanguageClearsThePreviousResults)
{
    test::FakeRunScript script = test::FakeRunScript::printing("from python\n");
    script.artifacts.append({QStringLiteral("figure_1.png"), png()});
    backend->setScript("plot()", script);
    editor->setPlainText(QStringLiteral("plot()"));
    page->run();
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 30s));
    auto *strip = page->findChild<ArtifactStrip *>(QStringLiteral("artifactStrip"));
    ASSERT_EQ(strip->count(), 1);
    ASSERT_TRUE(output->toPlainText().contains(QStringLiteral("from python")));

    auto *picker = page->findChild<QComboBox *>(QStringLiteral("languagePicker"));
    picker->setCurrentIndex(picker->findData(QStringLiteral("r")));
    EXPECT_FALSE(output->toPlainText().contains(QStringLiteral("from python")));
    EXPECT_EQ(strip->count(), 0);
    EXPECT_FALSE(strip->isVisibleTo(page.get()));
    EXPECT_FALSE(page->findChild<QLabel *>(QStringLiteral("runSummary"))->isVisibleTo(page.get()));
}

TEST_F(ConsolePageTest, aTableAndAWebPageAreCalledFilesNotCharts)
{
    test::FakeRunScript script = test::FakeRunScript::printing("");
    script.artifacts.append({QStringLiteral("data.csv"), "a,b\n1,2\n"});
    script.artifacts.append({QStringLiteral("map.html"), "<html><body>map</body></html>"});
    backend->setScript("files()", script);
    editor->setPlainText(QStringLiteral("files()"));
    page->run();
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 30s));
    const QString title = page->findChild<QLabel *>(QStringLiteral("artifactsTitle"))->text();
    EXPECT_FALSE(title.contains(QLatin1String("Chart"))) << qPrintable(title);
    EXPECT_TRUE(title.contains(QLatin1String("Files (2)"))) << qPrintable(title);
    EXPECT_TRUE(title.contains(QLatin1String("1 table"))) << qPrintable(title);
    EXPECT_TRUE(title.contains(QLatin1String("1 web page"))) << qPrintable(title);
}

TEST_F(ConsolePageTest, theCodeOfEachLanguageAndTheRecentSnippetsSurviveARestart)
{
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("gui.ini")), QSettings::IniFormat);
    auto *picker = page->findChild<QComboBox *>(QStringLiteral("languagePicker"));
    backend->setScript("print(1)", test::FakeRunScript::printing("1\n"));
    editor->setPlainText(QStringLiteral("print(1)"));
    page->run();
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 30s));
    editor->setPlainText(QStringLiteral("print('draft')"));
    picker->setCurrentIndex(picker->findData(QStringLiteral("ruby")));
    editor->setPlainText(QStringLiteral("puts 'ruby draft'"));
    page->saveState(settings);
    page.reset();

    // The next start: the language and its code as they were left, the other language's code when it is chosen.
    page = std::make_unique<ConsolePage>(*controller, thumbnails);
    page->restoreState(settings);
    editor = page->findChild<CodeEditor *>(QStringLiteral("codeEditor"));
    picker = page->findChild<QComboBox *>(QStringLiteral("languagePicker"));
    EXPECT_EQ(picker->currentData().toString(), QStringLiteral("ruby"));
    EXPECT_EQ(editor->toPlainText(), QStringLiteral("puts 'ruby draft'"));
    picker->setCurrentIndex(picker->findData(QStringLiteral("python")));
    EXPECT_EQ(editor->toPlainText(), QStringLiteral("print('draft')"));
    EXPECT_EQ(page->recentSnippets(QStringLiteral("python")), QStringList{QStringLiteral("print(1)")});

    // A recent snippet comes back from the menu; Ctrl+Z gives the draft back.
    auto *recent = page->findChild<QPushButton *>(QStringLiteral("recentSnippets"));
    ASSERT_NE(recent, nullptr);
    ASSERT_TRUE(recent->isEnabled());
    ASSERT_EQ(recent->menu()->actions().size(), 1);
    recent->menu()->actions().first()->trigger();
    EXPECT_EQ(editor->toPlainText(), QStringLiteral("print(1)"));
    editor->undo();
    EXPECT_EQ(editor->toPlainText(), QStringLiteral("print('draft')"));
}

TEST_F(ConsolePageTest, openCodeShowsARecordedRunsCodeAndLanguage)
{
    editor->setPlainText(QStringLiteral("print('mine')"));
    page->openCode(QStringLiteral("javascript"), QStringLiteral("console.log(2)"), {QStringLiteral("lodash")});
    auto *picker = page->findChild<QComboBox *>(QStringLiteral("languagePicker"));
    EXPECT_EQ(picker->currentData().toString(), QStringLiteral("javascript"));
    EXPECT_EQ(editor->toPlainText(), QStringLiteral("console.log(2)"));
    EXPECT_EQ(page->findChild<QLineEdit *>(QStringLiteral("libraries"))->text(), QStringLiteral("lodash"));
    EXPECT_EQ(page->draft(QStringLiteral("python")), QStringLiteral("print('mine')")); // the user's code stays
}

TEST_F(ConsolePageTest, theLibrariesFieldKeepsItsRoomInA1024PixelWindow)
{
    // Issue 37, item 12: in one row with everything else the field had a few pixels once the navigation took its part.
    page->resize(1024 - 180, 600);
    QApplication::processEvents();
    auto *libraries = page->findChild<QLineEdit *>(QStringLiteral("libraries"));
    EXPECT_GE(libraries->width(), libraries->fontMetrics().horizontalAdvance(QStringLiteral("requests, numpy==1.26")))
        << libraries->width();
    for (auto *button : {page->findChild<QPushButton *>(QStringLiteral("runButton")),
                         page->findChild<QPushButton *>(QStringLiteral("stopButton"))}) {
        EXPECT_FALSE(button->geometry().intersects(libraries->geometry()));
        EXPECT_LE(button->geometry().right(), page->width());
    }
}

// Issue 46, item 10: a failed install says in one sentence what failed and why; pip's retries wait behind a toggle and
// widen nothing.
TEST_F(ConsolePageTest, aFailedInstallIsOneSentenceWithTheInstallersLogBehindAToggle)
{
    QString log = QStringLiteral("; the code was not run. ");
    for (int retry = 1; retry <= 4; ++retry) {
        log +=
            QStringLiteral("WARNING: Retrying (Retry(total=%1, connect=None, read=None, redirect=None, status=None)) "
                           "after connection broken by 'NewConnectionError': /simple/nosuchpackage-%2/\n")
                .arg(4 - retry)
                .arg(QString(400, u'x'));
    }
    log += QStringLiteral("ERROR: Could not find a version that satisfies the requirement nosuchpackage (from "
                          "versions: none)\nERROR: No matching distribution found for nosuchpackage");
    const Error failure{QStringLiteral("Installing nosuchpackage with pip failed (exit code 1)") + log,
                        ErrorCode::InstallFailed};
    EngineController failing([&](const QString &) -> Result<ExecutionEngine *> { return failure; },
                             QStringLiteral("docker"));
    ConsolePage console(failing, thumbnails);
    console.resize(1000, 700);
    console.show();
    const int width = console.minimumSizeHint().width();
    console.openCode(QStringLiteral("python"), QStringLiteral("import nosuchpackage"));
    QTest::mouseClick(console.findChild<QPushButton *>(QStringLiteral("runButton")), Qt::LeftButton);
    auto *summary = console.findChild<QLabel *>(QStringLiteral("runSummary"));
    ASSERT_TRUE(waitUntil([&] { return summary->isVisible(); }, 10s));

    const QString sentence = summary->text();
    EXPECT_TRUE(sentence.contains(QStringLiteral("Installing nosuchpackage with pip failed (exit code 1); the code was "
                                                 "not run. The installer said: No matching distribution found for "
                                                 "nosuchpackage")))
        << sentence.toStdString();
    EXPECT_FALSE(sentence.contains(QStringLiteral("Retrying"))) << sentence.toStdString();
    auto *toggle = console.findChild<QToolButton *>(QStringLiteral("errorDetailsToggle"));
    auto *details = console.findChild<QPlainTextEdit *>(QStringLiteral("errorDetails"));
    ASSERT_TRUE(toggle && details);
    EXPECT_TRUE(toggle->isVisible());
    EXPECT_FALSE(details->isVisible());
    QTest::mouseClick(toggle, Qt::LeftButton);
    EXPECT_TRUE(details->isVisible());
    EXPECT_TRUE(details->toPlainText().contains(QStringLiteral("Retry(total=3"))) << "the whole log, on request";
    EXPECT_LE(console.minimumSizeHint().width(), width) << "the page is as wide as before";
}

TEST_F(ConsolePageTest, theLibrariesPlaceholderNamesLibrariesOfTheLanguageChosen)
{
    // Every language offered Python's "requests, numpy==1.26". Each example now is what that language's install
    // takes: names its installer accepts (LibraryInstaller::namePattern), in its own notation.
    auto *picker = page->findChild<QComboBox *>(QStringLiteral("languagePicker"));
    auto *libraries = page->findChild<QLineEdit *>(QStringLiteral("libraries"));
    ASSERT_NE(picker, nullptr);
    ASSERT_NE(libraries, nullptr);
    QSet<QString> placeholders;
    for (int index = 0; index < picker->count(); ++index) {
        picker->setCurrentIndex(index);
        const auto language = LanguageRegistry::instance().find(picker->itemData(index).toString());
        ASSERT_TRUE(language);
        const QString placeholder = libraries->placeholderText();
        ASSERT_TRUE(placeholder.startsWith(QLatin1String("e.g. "))) << qPrintable(placeholder);
        const QRegularExpression accepted(language->libraries.namePattern);
        const QStringList names = placeholder.mid(5).split(QStringLiteral(", "));
        EXPECT_GE(names.size(), 2) << qPrintable(placeholder);
        for (const QString &name : names) {
            EXPECT_TRUE(accepted.match(name).hasMatch()) << qPrintable(language->name + ": " + name);
            EXPECT_FALSE(language->preinstalledLibraries.contains(name.section(QLatin1Char('='), 0, 0)))
                << qPrintable(language->name + ": " + name + " needs no install");
        }
        placeholders.insert(placeholder);
    }
    EXPECT_EQ(placeholders.size(), picker->count()) << "one example per language";
}

TEST_F(ConsolePageTest, runningKeepsTheFocusInTheEditor)
{
    // Run took the focus to the Libraries field: the Run button that had it was disabled while the code ran.
    backend->setScript("print(1)", test::FakeRunScript::printing("1\n"));
    editor->setPlainText(QStringLiteral("print(1)"));
    editor->setFocus();
    ASSERT_TRUE(waitUntil([&] { return editor->hasFocus(); }, 5s));
    auto *run = page->findChild<QPushButton *>(QStringLiteral("runButton"));
    ASSERT_NE(run, nullptr);
    QTest::mouseClick(run, Qt::LeftButton);
    EXPECT_TRUE(page->isRunning());
    EXPECT_EQ(QApplication::focusWidget(), editor);
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 30s));
    EXPECT_EQ(QApplication::focusWidget(), editor);

    // From the keyboard too: Run reached with Tab and pressed with Space leaves the focus in the editor.
    run->setFocus();
    QTest::keyClick(run, Qt::Key_Space);
    EXPECT_TRUE(page->isRunning());
    EXPECT_EQ(QApplication::focusWidget(), editor);
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 30s));
}

TEST_F(ConsolePageTest, anEngineThatIsDownIsSaidWithItsCommandsAsCode)
{
    // The hint showed `dockerd` and `systemctl start docker` with their backticks.
    EngineController down(
        [](const QString &) -> Result<ExecutionEngine *> {
            return Error{QStringLiteral("Cannot reach the container engine at unix:///x.sock. Start it (e.g. "
                                        "`dockerd` or `systemctl start docker`), or set DOCKER_HOST <here>."),
                         ErrorCode::EngineUnreachable};
        },
        QStringLiteral("docker"));
    ConsolePage console(down, thumbnails);
    console.findChild<CodeEditor *>(QStringLiteral("codeEditor"))->setPlainText(QStringLiteral("print(1)"));
    console.run();
    ASSERT_TRUE(waitUntil([&] { return !console.isRunning(); }, 10s));
    const QString summary = console.findChild<QLabel *>(QStringLiteral("runSummary"))->text();
    QTextDocument shown;
    shown.setHtml(summary);
    EXPECT_FALSE(shown.toPlainText().contains(QLatin1Char('`'))) << qPrintable(summary);
    EXPECT_TRUE(shown.toPlainText().contains(QLatin1String("(e.g. dockerd or systemctl start docker), or set "
                                                           "DOCKER_HOST <here>.")))
        << qPrintable(shown.toPlainText());
    EXPECT_TRUE(summary.contains(QLatin1String("<code>systemctl start docker</code>"))) << qPrintable(summary);
}

TEST_F(ConsolePageTest, aFolderDroppedOnTheConsoleIsSharedWithTheNextRunOnly)
{
    // Issue 47: files dropped on the Console share their folder, read-only, with the next run (RunRequest).
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString data = QDir(dir.path()).canonicalPath() + QStringLiteral("/Sales Data");
    ASSERT_TRUE(QDir().mkpath(data));
    QFile csv(data + QStringLiteral("/sales.csv"));
    ASSERT_TRUE(csv.open(QIODevice::WriteOnly));
    csv.write("month,total\n1,10\n");
    csv.close();
    // A folder of the settings keeps its name: the dropped one takes another.
    page->setSharedFolders(
        {SharedFolder{.path = QDir(dir.path()).canonicalPath(), .name = QStringLiteral("Sales-Data")}});

    QMimeData dropped;
    dropped.setUrls({QUrl::fromLocalFile(csv.fileName())});
    dropped.setText(csv.fileName()); // as file managers do: the editor would insert it
    QWidget *target = editor->viewport();
    const QPointF at(target->width() / 2.0, target->height() / 2.0);
    QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, &dropped, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(at, Qt::CopyAction, &dropped, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
    EXPECT_TRUE(drop.isAccepted());
    EXPECT_FALSE(editor->toPlainText().contains(csv.fileName())) << "the path was not typed into the code";

    ASSERT_EQ(page->nextRunFolders().size(), 1);
    EXPECT_EQ(page->nextRunFolders().first().path, data);
    EXPECT_EQ(page->nextRunFolders().first().name, QStringLiteral("Sales-Data-2"));
    EXPECT_FALSE(page->nextRunFolders().first().writable);
    auto *chips = page->findChild<QWidget *>(QStringLiteral("nextRunFolders"));
    ASSERT_NE(chips, nullptr);
    EXPECT_TRUE(chips->isVisible());
    QStringList texts;
    for (QLabel *label : chips->findChildren<QLabel *>()) {
        texts << label->text();
    }
    EXPECT_EQ(texts, QStringList{QStringLiteral("Shared for the next run: /data/Sales-Data-2 (read only)")});

    // The same folder dropped again (on the page this time) is not shared twice.
    QDragEnterEvent enterPage(QPoint(5, 5), Qt::CopyAction, &dropped, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(page.get(), &enterPage);
    EXPECT_TRUE(enterPage.isAccepted());
    QDropEvent again(QPointF(5, 5), Qt::CopyAction, &dropped, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(page.get(), &again);
    EXPECT_EQ(page->nextRunFolders().size(), 1);
    auto *problem = page->findChild<QLabel *>(QStringLiteral("dropProblem"));
    ASSERT_NE(problem, nullptr);
    EXPECT_TRUE(problem->text().contains(QLatin1String("is already shared as /data/Sales-Data-2")))
        << qPrintable(problem->text());

    QList<SharedFolder> sent;
    QObject::connect(controller.get(), &EngineController::runStarted, page.get(),
                     [&sent](quint64, const QString &, const RunRequest &request) { sent = request.sharedFolders; });
    backend->setScript("print(1)", test::FakeRunScript::printing("1\n"));
    editor->setPlainText(QStringLiteral("print(1)"));
    page->run();
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 30s));
    ASSERT_EQ(sent.size(), 1);
    EXPECT_EQ(sent.first().mountPath(), QStringLiteral("/data/Sales-Data-2"));
    EXPECT_TRUE(page->nextRunFolders().isEmpty()) << "for the next run only";
    EXPECT_FALSE(chips->isVisible());

    // A folder another page passes on (dropped on the live log) is shared the same way. A chip's button takes its
    // folder back; the home folder itself is refused in one sentence.
    EXPECT_TRUE(page->open(ShareForNextRun{{data}}));
    ASSERT_EQ(page->nextRunFolders().size(), 1);
    EXPECT_EQ(page->nextRunFolders().first().path, data);
    auto *remove = chips->findChild<QToolButton *>(QStringLiteral("removeNextRunFolder"));
    ASSERT_NE(remove, nullptr);
    QTest::mouseClick(remove, Qt::LeftButton);
    EXPECT_TRUE(page->nextRunFolders().isEmpty());
    EXPECT_FALSE(page->shareForNextRun({QUrl::fromLocalFile(QDir::homePath())}));
    EXPECT_TRUE(problem->text().contains(QLatin1String("cannot be shared with sandboxes")))
        << qPrintable(problem->text());
}

// Issue 48: the Network field is what the next run asks to reach; its placeholder names the ceiling, and a host beyond
// it is the engine's error, said as every other.
TEST_F(ConsolePageTest, theNetworkFieldIsWhatTheRunAsksForWithinTheCeilingItsPlaceholderNames)
{
    auto *network = page->findChild<QLineEdit *>(QStringLiteral("network"));
    ASSERT_NE(network, nullptr);
    EXPECT_EQ(network->placeholderText(), QStringLiteral("Nothing is allowed: Settings → Network"));
    auto allowed = NetworkAllowList::parse(QStringLiteral("api.test, *.example.org:8443"));
    ASSERT_TRUE(allowed);
    page->setNetworkAllow(*allowed);
    EXPECT_EQ(network->placeholderText(), QStringLiteral("Hosts for this run, within api.test, *.example.org:8443"));
    page->setNetworkAllow(*NetworkAllowList::parse(QStringLiteral("registries")));
    EXPECT_EQ(network->placeholderText(), QStringLiteral("Hosts for this run, within the package registries"));
    // Beside the libraries, with room of its own in a 1024-pixel window.
    page->resize(1024 - 180, 600);
    QApplication::processEvents();
    auto *libraries = page->findChild<QLineEdit *>(QStringLiteral("libraries"));
    EXPECT_EQ(network->y(), libraries->y());
    EXPECT_GE(network->width(), network->fontMetrics().horizontalAdvance(QStringLiteral("api.example.org")));

    // The engine's ceiling is nothing (SandboxSettings{}): a run that asks is refused, in the summary.
    QStringList asked;
    QObject::connect(controller.get(), &EngineController::runStarted, page.get(),
                     [&asked](quint64, const QString &, const RunRequest &request) { asked = request.network; });
    QTest::keyClicks(network, QStringLiteral("api.test,  *.example.org:8443"));
    EXPECT_EQ(page->nextRunNetwork(), (QStringList{QStringLiteral("api.test"), QStringLiteral("*.example.org:8443")}));
    backend->setScript("print(1)", test::FakeRunScript::printing("1\n"));
    editor->setPlainText(QStringLiteral("print(1)"));
    page->run();
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 30s));
    auto *summary = page->findChild<QLabel *>(QStringLiteral("runSummary"));
    ASSERT_NE(summary, nullptr);
    EXPECT_TRUE(summary->isVisible());
    const QString said = QTextDocument(summary->text()).toPlainText();
    EXPECT_TRUE(said.contains(QStringLiteral("api.test"))) << qPrintable(said);
    EXPECT_FALSE(output->toPlainText().contains(QStringLiteral("1"))) << "the code did not run";
    if (!asked.isEmpty()) {
        EXPECT_EQ(asked, (QStringList{QStringLiteral("api.test"), QStringLiteral("*.example.org:8443")}));
    }

    // Without hosts the run has no network and runs as ever.
    network->clear();
    EXPECT_TRUE(page->nextRunNetwork().isEmpty());
    page->run();
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 30s));
    EXPECT_TRUE(asked.isEmpty());
    EXPECT_TRUE(output->toPlainText().contains(QStringLiteral("1")));
}
