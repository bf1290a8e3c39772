// The window's ways to places without an engine (issue 37, items 7 and 16): Show Run on a busy sandbox goes to its run
// in the live log, F1 opens the documentation inside the app, and every item of the View menu has a mnemonic.
#include "OfflineApp.h"
#include "gui/DesktopApp.h"
#include "gui/MainWindow.h"
#include "gui/backends/BackendPanel.h"
#include "gui/backends/BackendsPage.h"
#include "gui/backends/SandboxTableModel.h"
#include "gui/backends/SandboxesTab.h"
#include "gui/help/DocumentationDialog.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/livelog/LiveLogPage.h"
#include "journal/JournalRecorder.h"

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QToolButton>
#include <QTranslator>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

QString currentPage(MainWindow &window)
{
    return window.findChild<QStackedWidget *>(QStringLiteral("pages"))->currentWidget()->objectName();
}

void showPage(MainWindow &window, const QString &name)
{
    auto *pages = window.findChild<QStackedWidget *>(QStringLiteral("pages"));
    for (int index = 0; index < pages->count(); ++index) {
        if (pages->widget(index)->objectName() == name) {
            window.showPage(index);
        }
    }
    ASSERT_EQ(currentPage(window), name);
}

/// The run the live log has selected.
QString selectedRun(MainWindow &window)
{
    auto *table = window.findChild<QTableView *>(QStringLiteral("liveLogTable"));
    const QModelIndexList rows = table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(LiveLogModel::RunIdRole).toString();
}

/// Counts what the desktop would have been asked to open.
class UrlRecorder final : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> opened;
public slots:
    void open(const QUrl &url) { opened.append(url); }
};

/// The View menu of `window`.
QMenu *viewMenu(MainWindow &window)
{
    for (QAction *action : window.menuBar()->actions()) {
        if (action->menu() &&
            action->menu()->actions().contains(window.findChild<QAction *>(QStringLiteral("findAction")))) {
            return action->menu();
        }
    }
    return nullptr;
}

/// Every action of `menu` and of its submenus, separators left out.
QList<QAction *> itemsOf(QMenu *menu)
{
    QList<QAction *> items;
    for (QAction *action : menu->actions()) {
        if (action->isSeparator()) {
            continue;
        }
        items.append(action);
        if (action->menu()) {
            items.append(itemsOf(action->menu()));
        }
    }
    return items;
}

/// The mnemonic of `text` ("&Find" → 'F'), or a null QChar when it has none.
QChar mnemonicOf(const QString &text)
{
    for (qsizetype at = 0; at + 1 < text.size(); ++at) {
        if (text.at(at) == QLatin1Char('&')) {
            if (text.at(at + 1) != QLatin1Char('&')) {
                return text.at(at + 1).toUpper();
            }
            ++at; // "&&" is an ampersand
        }
    }
    return {};
}

} // namespace

TEST(MainWindowMenus, showRunOnABusySandboxGoesToItsRunInTheLiveLog)
{
    guitest::OfflineApp app;
    // A run in progress in an assistant's `llm-sandbox --mcp`, in its container.
    JournalRecorder recorder(app.journalPath(), JournalRecorder::Context{QStringLiteral("docker"), {}, {}, {}});
    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = QStringLiteral("import time; time.sleep(60)");
    request.clientName = QStringLiteral("claude-ai");
    recorder.runStarted(QStringLiteral("busy-run"), request);
    recorder.runContainer(QStringLiteral("busy-run"), QStringLiteral("container-a"));
    recorder.flush();

    DesktopApp desktop(app.context());
    MainWindow window(desktop);
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto *liveLog = window.findChild<LiveLogPage *>();
    ASSERT_TRUE(QTest::qWaitFor([&] { return liveLog->model()->rowOf(QStringLiteral("busy-run")) >= 0; }, 10000));

    showPage(window, QStringLiteral("backendsPage"));
    BackendPanel *panel = window.findChild<BackendsPage *>()->panel(QStringLiteral("docker"));
    ASSERT_NE(panel, nullptr);
    // The Sandboxes tab reads the engine (which does not answer here) once; then the rows are the test's.
    QSignalSpy loaded(panel->sandboxesTab(), &SandboxesTab::sandboxesLoaded);
    panel->findChild<QTabWidget *>(QStringLiteral("backendTabs"))->setCurrentIndex(2);
    loaded.wait(5000);
    panel->sandboxesTab()->setLive(false);
    SandboxEntry sandbox;
    sandbox.container.id = QStringLiteral("container-a");
    sandbox.container.created = QDateTime::currentDateTimeUtc();
    sandbox.language = QStringLiteral("python");
    JournalRun run;
    run.id = QStringLiteral("busy-run");
    run.source = RunSource::Mcp;
    run.clientName = QStringLiteral("claude-ai");
    run.startedAt = QDateTime::currentDateTimeUtc();
    panel->sandboxesTab()->sandboxModel()->setSandboxes({sandbox}, {{QStringLiteral("container-a"), run}});

    auto *view = panel->findChild<QTableView *>(QStringLiteral("sandboxesView"));
    auto *showRun = panel->findChild<QPushButton *>(QStringLiteral("showSandboxRun"));
    ASSERT_NE(view, nullptr);
    ASSERT_NE(showRun, nullptr);
    view->selectRow(0);
    ASSERT_TRUE(showRun->isEnabled());
    showRun->click();
    EXPECT_EQ(currentPage(window), QStringLiteral("liveLogPage"));
    EXPECT_EQ(selectedRun(window), QStringLiteral("busy-run"));

    // A double-click on the row does the same.
    liveLog->findChild<QTableView *>(QStringLiteral("liveLogTable"))->clearSelection();
    showPage(window, QStringLiteral("backendsPage"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->isVisible(); }));
    const QRect row = view->visualRect(view->model()->index(0, SandboxTableModel::StateColumn));
    ASSERT_TRUE(row.isValid());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, row.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, row.center());
    EXPECT_EQ(currentPage(window), QStringLiteral("liveLogPage"));
    EXPECT_EQ(selectedRun(window), QStringLiteral("busy-run"));

    RunResult result;
    result.runId = QStringLiteral("busy-run");
    recorder.runFinished(QStringLiteral("busy-run"), result, std::nullopt);
    recorder.flush();
}

TEST(MainWindowMenus, f1OpensTheDocumentationThatCameWithTheAppInsideIt)
{
    guitest::OfflineApp app;
    UrlRecorder desktop;
    for (const char *scheme : {"file", "http", "https"}) {
        QDesktopServices::setUrlHandler(QLatin1String(scheme), &desktop, "open");
    }
    {
        DesktopApp services(app.context());
        MainWindow window(services);
        window.show();
        window.activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        auto *documentation = window.findChild<QAction *>(QStringLiteral("documentationAction"));
        ASSERT_NE(documentation, nullptr);
        EXPECT_EQ(documentation->shortcut(), QKeySequence(QKeySequence::HelpContents));
        EXPECT_EQ(documentation->shortcut(), QKeySequence(Qt::Key_F1));

        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &window, Qt::Key_F1);
        auto *dialog = window.findChild<QDialog *>(QStringLiteral("documentationDialog"));
        ASSERT_NE(dialog, nullptr) << "F1 opened no documentation";
        EXPECT_TRUE(dialog->isVisible());
        auto *text = dialog->findChild<QTextBrowser *>(QStringLiteral("documentationText"));
        ASSERT_NE(text, nullptr);
        // The user guide of the sources (or the installed one), at the section about the page on screen.
        EXPECT_TRUE(text->toPlainText().startsWith(QLatin1String("LLM Sandbox")))
            << qPrintable(text->toPlainText().left(80));
        EXPECT_TRUE(text->toPlainText().contains(QLatin1String("llm-sandbox --mcp")));
        EXPECT_TRUE(static_cast<DocumentationDialog *>(dialog)->source().path().endsWith(
            QLatin1String("/user/desktop-app.md")));
        EXPECT_EQ(text->textCursor().block().text(), QStringLiteral("Live log"));
        EXPECT_EQ(desktop.opened, QList<QUrl>())
            << "the documentation is shown inside the app, not handed to the desktop";
        dialog->close();
    }
    for (const char *scheme : {"file", "http", "https"}) {
        QDesktopServices::unsetUrlHandler(QLatin1String(scheme));
    }
}

TEST(MainWindowMenus, everyItemOfTheViewMenuHasItsOwnMnemonicInEnglishAndChinese)
{
    for (const char *language : {"en", "zh_CN"}) {
        QTranslator translation;
        if (QLatin1String(language) != QLatin1String("en")) {
            ASSERT_TRUE(translation.load(QLocale(QString::fromLatin1(language)), QStringLiteral("llm-sandbox"),
                                         QStringLiteral("_"), QStringLiteral(":/i18n")));
            QCoreApplication::installTranslator(&translation);
        }
        {
            guitest::OfflineApp app;
            DesktopApp desktop(app.context());
            MainWindow window(desktop);
            QMenu *view = viewMenu(window);
            ASSERT_NE(view, nullptr);
            // The menu itself, its items, and the items of each submenu among them.
            QList<QList<QAction *>> menus{window.menuBar()->actions()};
            QList<QAction *> own;
            for (QAction *action : view->actions()) {
                if (!action->isSeparator()) {
                    own.append(action);
                }
            }
            menus.append(own);
            for (QAction *action : own) {
                if (action->menu()) {
                    menus.append(itemsOf(action->menu()));
                }
            }
            const QList<QAction *> all = itemsOf(view);
            EXPECT_GE(all.size(), 8) << "the pages, Find in Page, the theme and its three choices";
            for (QAction *action : all) {
                EXPECT_FALSE(mnemonicOf(action->text()).isNull()) << language << ": " << qPrintable(action->text());
            }
            for (const QList<QAction *> &menu : menus) {
                QSet<QChar> taken;
                for (QAction *action : menu) {
                    const QChar mnemonic = mnemonicOf(action->text());
                    EXPECT_FALSE(!mnemonic.isNull() && taken.contains(mnemonic))
                        << language << ": " << qPrintable(action->text()) << " shares its mnemonic";
                    taken.insert(mnemonic);
                }
            }
        }
        QCoreApplication::removeTranslator(&translation);
    }
}

TEST(MainWindowMenus, theGuideOpensItsOwnPagesAtTheirSectionsAndNothingElse)
{
    guitest::OfflineApp app;
    QTemporaryDir root;
    ASSERT_TRUE(QDir(root.path()).mkpath(QStringLiteral("docs/user")));
    const auto write = [&](const QString &path, const QByteArray &text) {
        QFile file(root.filePath(path));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text);
    };
    write(QStringLiteral("docs/user/index.md"), "# User guide\n\n- [The desktop app](desktop-app.md)\n");
    write(QStringLiteral("docs/user/desktop-app.md"),
          "# The desktop app\n\nIntro.\n\n## Live log\n\n" + QByteArray("Text.\n\n").repeated(200) +
              "## Console\n\nSee [the contents](index.md), [security](../security.md), [a secret](../../secret.md), "
              "[passwd](/etc/passwd), [the web](https://example.org/guide) and [the live log](#live-log).\n\n" +
              QByteArray("More.\n\n").repeated(200));
    write(QStringLiteral("docs/security.md"), "# Security\n");
    write(QStringLiteral("secret.md"), "# Not documentation\n");
    UrlRecorder desktop;
    for (const char *scheme : {"file", "http", "https"}) {
        QDesktopServices::setUrlHandler(QLatin1String(scheme), &desktop, "open");
    }

    DocumentationDialog dialog(root.filePath(QStringLiteral("docs/user")), QStringLiteral("desktop-app.md"),
                               QStringLiteral("Console"));
    dialog.show();
    auto *text = dialog.findChild<QTextBrowser *>(QStringLiteral("documentationText"));
    ASSERT_NE(text, nullptr);
    EXPECT_TRUE(dialog.source().path().endsWith(QLatin1String("/docs/user/desktop-app.md")));
    // Opened at the section about the page on screen, scrolled to it.
    EXPECT_EQ(text->textCursor().block().text(), QStringLiteral("Console"));
    EXPECT_TRUE(QTest::qWaitFor([&] { return text->verticalScrollBar()->value() > 0; }));

    const auto click = [&](const char *link) {
        emit text->anchorClicked(QUrl(QString::fromUtf8(link)));
    };
    const auto page = [&] {
        return QFileInfo(dialog.source().toLocalFile()).fileName();
    };
    click("../../secret.md");
    click("/etc/passwd");
    EXPECT_EQ(page(), QStringLiteral("desktop-app.md")) << "nothing outside the documents opens";
    click("https://example.org/guide");
    EXPECT_EQ(desktop.opened, QList<QUrl>{QUrl(QStringLiteral("https://example.org/guide"))});
    click("#live-log");
    EXPECT_EQ(text->textCursor().block().text(), QStringLiteral("Live log"));
    click("../security.md");
    EXPECT_EQ(page(), QStringLiteral("security.md"));
    QTest::mouseClick(dialog.findChild<QToolButton *>(QStringLiteral("documentationBack")), Qt::LeftButton);
    EXPECT_EQ(page(), QStringLiteral("desktop-app.md"));
    QTest::mouseClick(dialog.findChild<QToolButton *>(QStringLiteral("documentationContents")), Qt::LeftButton);
    EXPECT_EQ(page(), QStringLiteral("index.md"));
    EXPECT_TRUE(text->toPlainText().startsWith(QLatin1String("User guide")));
    EXPECT_EQ(desktop.opened.size(), 1) << "only the web link went to the desktop";
    for (const char *scheme : {"file", "http", "https"}) {
        QDesktopServices::unsetUrlHandler(QLatin1String(scheme));
    }
}

#include "MainWindowMenusTest.moc"
