#include "gui/MainWindow.h"

#include "AppContext.h"
#include "DragSplitter.h"
#include "GuiTestSupport.h"
#include "ScopedEnvironment.h"
#include "gui/DesktopApp.h"
#include "gui/EngineController.h"
#include "gui/backends/BackendsPage.h"
#include "gui/console/ConsolePage.h"
#include "gui/livelog/LiveLogPage.h"
#include "gui/server/ServerPage.h"
#include "gui/widgets/CodeEditor.h"
#include "gui/widgets/RunView.h"
#include "mcp/McpHost.h"
#include "mcp/http/BearerToken.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QLabel>
#include <QLayout>
#include <QListWidget>
#include <QLocalServer>
#include <QLocalSocket>
#include <QMessageBox>
#include <QScreen>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

namespace {

class MainWindowTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto made = AppContext::create({.source = RunSource::Gui});
        ASSERT_TRUE(made.ok()) << qPrintable(made.error().message);
        context = std::move(*made);
    }

    sandbox::test::ScopedEnvironment journalOff{{"LLM_SANDBOX_JOURNAL", QByteArray("off")}};
    std::unique_ptr<AppContext> context;
};

/// Clicks the button of `role` in the next message box that opens (a modal one runs its own event loop).
void answerNextMessageBox(QMessageBox::ButtonRole role)
{
    auto *timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, role] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box) {
            return;
        }
        for (QAbstractButton *button : box->buttons()) {
            if (box->buttonRole(button) == role) {
                timer->deleteLater();
                timer->stop();
                button->click();
                return;
            }
        }
    });
    timer->start();
}

/// Docker's socket relayed through one of the test's own, which the test can take away (the engine "stops") and
/// give back: what the app sees of a restart of the engine, with the real engine behind.
class EngineRelay final
{
public:
    explicit EngineRelay(QString path) : m_path(std::move(path))
    {
        QObject::connect(&m_server, &QLocalServer::newConnection, [this] {
            while (QLocalSocket *client = m_server.nextPendingConnection()) {
                auto *engine = new QLocalSocket(client);
                engine->connectToServer(QStringLiteral("/var/run/docker.sock"));
                QObject::connect(client, &QLocalSocket::readyRead, engine,
                                 [client, engine] { engine->write(client->readAll()); });
                QObject::connect(engine, &QLocalSocket::readyRead, client,
                                 [client, engine] { client->write(engine->readAll()); });
                QObject::connect(engine, &QLocalSocket::disconnected, client, &QLocalSocket::disconnectFromServer);
                QObject::connect(client, &QLocalSocket::disconnected, client, &QObject::deleteLater);
            }
        });
    }
    bool start()
    {
        QLocalServer::removeServer(m_path);
        return m_server.listen(m_path);
    }
    void stop()
    {
        m_server.close();
        QFile::remove(m_path);
    }

private:
    QString m_path;
    QLocalServer m_server;
};

} // namespace

TEST_F(MainWindowTest, statusBarFollowsTheEngineGoingAwayAndComingBackAndSaysWhenTheJournalCannotBeWritten)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    EngineRelay relay(folder.filePath(QStringLiteral("docker.sock")));
    ASSERT_TRUE(relay.start());
    QFile damaged(folder.filePath(QStringLiteral("journal.sqlite")));
    ASSERT_TRUE(damaged.open(QIODevice::WriteOnly));
    damaged.write(QByteArray(64 * 1024, 'x'));
    damaged.close();
    const sandbox::test::ScopedEnvironment environment{
        {"DOCKER_HOST", ("unix://" + folder.filePath(QStringLiteral("docker.sock"))).toUtf8()},
        {"BACKEND", QByteArray("docker")},
        {"LLM_SANDBOX_JOURNAL", damaged.fileName().toUtf8()}};
    auto made = AppContext::create({.source = RunSource::Gui});
    ASSERT_TRUE(made.ok());
    DesktopApp desktop(**made);
    MainWindow window(desktop);
    window.show();
    auto *backendState = window.findChild<QLabel *>(QStringLiteral("backendState"));
    auto *journalState = window.findChild<QLabel *>(QStringLiteral("journalState"));
    ASSERT_TRUE(backendState && journalState);
    ASSERT_TRUE(waitUntil([&] { return backendState->text().contains(QStringLiteral("ready")); }, 30s))
        << backendState->text().toStdString();

    // The journal cannot be written: said in the status bar, with why in its tooltip.
    ASSERT_TRUE(waitUntil([&] { return journalState->isVisible(); }, 30s));
    EXPECT_TRUE(journalState->text().contains(QStringLiteral("Journal not written")));
    EXPECT_FALSE(journalState->toolTip().isEmpty());

    // The engine goes away, then comes back: no run needed for either to show.
    relay.stop();
    EXPECT_TRUE(waitUntil([&] { return backendState->text().contains(QStringLiteral("unavailable")); }, 30s))
        << backendState->text().toStdString();
    ASSERT_TRUE(relay.start());
    EXPECT_TRUE(waitUntil([&] { return backendState->text().contains(QStringLiteral("ready")); }, 30s))
        << backendState->text().toStdString();
}

TEST_F(MainWindowTest, navigatesBetweenTheLiveLogAndTheConsole)
{
    DesktopApp desktop(*context);
    MainWindow window(desktop);
    auto *navigation = window.findChild<QListWidget *>(QStringLiteral("navigation"));
    auto *pages = window.findChild<QStackedWidget *>(QStringLiteral("pages"));
    ASSERT_NE(navigation, nullptr);
    ASSERT_NE(pages, nullptr);
    ASSERT_GE(navigation->count(), 2);
    EXPECT_EQ(navigation->item(0)->text(), QStringLiteral("Live log"));
    EXPECT_EQ(navigation->item(1)->text(), QStringLiteral("Console"));
    navigation->setCurrentRow(1);
    EXPECT_EQ(pages->currentWidget()->objectName(), QStringLiteral("consolePage"));
}

TEST_F(MainWindowTest, pagesReachOneAnotherByIntentAndTheStatusBarOpensTheBackend)
{
    DesktopApp desktop(*context);
    MainWindow window(desktop);
    auto *pages = window.findChild<QStackedWidget *>(QStringLiteral("pages"));
    auto *liveLog = window.findChild<LiveLogPage *>();
    ASSERT_NE(liveLog, nullptr);

    // The live log's Open in Console: the Console shows the code, in its language.
    emit liveLog->runView()->openInConsoleRequested(QStringLiteral("javascript"), QStringLiteral("console.log(6*7)"),
                                                    {});
    EXPECT_EQ(pages->currentWidget()->objectName(), QStringLiteral("consolePage"));
    EXPECT_EQ(window.findChild<CodeEditor *>(QStringLiteral("codeEditor"))->toPlainText(),
              QStringLiteral("console.log(6*7)"));

    // An intent no page takes changes nothing.
    emit liveLog->navigate(ShowBackend{QStringLiteral("no-such-backend")});
    EXPECT_EQ(pages->currentWidget()->objectName(), QStringLiteral("consolePage"));

    // A click on the backend in the status bar: its page, its panel (not the one shown before).
    auto *backends = window.findChild<BackendsPage *>();
    const QString other = desktop.controller().defaultBackend() == QLatin1String("docker") ? QStringLiteral("podman")
                                                                                           : QStringLiteral("docker");
    backends->showBackend(other);
    QTest::mouseClick(window.findChild<QLabel *>(QStringLiteral("backendState")), Qt::LeftButton);
    EXPECT_EQ(pages->currentWidget()->objectName(), QStringLiteral("backendsPage"));
    EXPECT_EQ(backends->findChild<QListWidget *>(QStringLiteral("backendList"))->currentItem()->data(Qt::UserRole),
              desktop.controller().defaultBackend());
}

TEST_F(MainWindowTest, remembersTheCurrentPage)
{
    {
        DesktopApp desktop(*context);
        MainWindow window(desktop);
        window.show();
        window.showPage(1);
        window.close();
    }
    DesktopApp againDesktop(*context);
    MainWindow again(againDesktop);
    EXPECT_EQ(again.findChild<QStackedWidget *>(QStringLiteral("pages"))->currentIndex(), 1);
}

TEST_F(MainWindowTest, aWindowSavedOnALargerDisplayReopensOnThisOneNoLargerThanItHasToBe)
{
    // Issue 46, item 5: saved at 1200x780 on a larger display, it reopened off-screen on a 1024x768 one.
    const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
    {
        DesktopApp desktop(*context);
        MainWindow window(desktop);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        // Beyond this display's corner, and larger than it.
        window.setGeometry(screen.right() - 100, screen.bottom() - 80, screen.width() + 400, screen.height() + 180);
        window.close();
    }
    DesktopApp againDesktop(*context);
    MainWindow again(againDesktop);
    again.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&again));
    // As large as the display leaves room for inside its frame, or as small as the window can be where that is larger
    // (the offscreen test display is 800x600), and from the display's corner on.
    const QRect frame = again.frameGeometry();
    const QSize room = screen.size() - (frame.size() - again.size());
    const QSize least = again.layout()->totalMinimumSize();
    EXPECT_EQ(again.width(), std::max(room.width(), least.width()));
    EXPECT_EQ(again.height(), std::max(room.height(), least.height()));
    EXPECT_EQ(frame.topLeft(), screen.topLeft());
}

TEST_F(MainWindowTest, ctrlReturnRunsTheConsolesCodeFromAnywhereInTheWindow)
{
    DesktopApp desktop(*context);
    MainWindow window(desktop);
    window.show();
    window.showPage(0);
    QApplication::setActiveWindow(&window);
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    auto *console = window.findChild<ConsolePage *>(QStringLiteral("consolePage"));
    auto *editor = console->findChild<CodeEditor *>(QStringLiteral("codeEditor"));
    editor->setPlainText(QStringLiteral("print('from the shortcut')"));

    QTest::keyClick(&window, Qt::Key_Return, Qt::ControlModifier);

    EXPECT_TRUE(console->isRunning());
    EXPECT_EQ(window.findChild<QStackedWidget *>(QStringLiteral("pages"))->currentWidget(), console);
    EXPECT_EQ(window.controller().runningCount(), 1);
    ASSERT_TRUE(waitUntil([&] { return !console->isRunning(); }, 120s));
}

TEST_F(MainWindowTest, everyPageKeepsItsOwnStateTheHistorysSplitterAndTheGallerysFiltersToo)
{
    QList<int> sizes;
    Qt::Orientation dragged = Qt::Horizontal;
    {
        DesktopApp desktop(*context);
        MainWindow window(desktop);
        window.resize(1200, 800);
        window.show();
        window.showPage(2);
        auto *splitter = window.findChild<QSplitter *>(QStringLiteral("historySplitter"));
        ASSERT_NE(splitter, nullptr);
        sandbox::gui::guitest::dragSplitter(*splitter, 250);
        sizes = splitter->sizes();
        ASSERT_NEAR(sizes[0], 250, 2);
        dragged = splitter->orientation();
        auto *type = window.findChild<QComboBox *>(QStringLiteral("galleryTypeFilter"));
        type->setCurrentIndex(type->findData(QStringLiteral("image/svg+xml")));
        window.close();
    }
    DesktopApp againDesktop(*context);
    MainWindow again(againDesktop);
    again.show();
    auto *navigation = again.findChild<QListWidget *>(QStringLiteral("navigation"));
    ASSERT_EQ(navigation->count(), 7);
    EXPECT_EQ(navigation->item(2)->text(), QStringLiteral("History"));
    EXPECT_EQ(navigation->item(3)->text(), QStringLiteral("Gallery"));
    EXPECT_EQ(navigation->item(4)->text(), QStringLiteral("Statistics"));
    EXPECT_EQ(navigation->item(5)->text(), QStringLiteral("Backends"));
    EXPECT_EQ(navigation->item(6)->text(), QStringLiteral("MCP server"));
    const QList<int> restored = again.findChild<QSplitter *>(QStringLiteral("historySplitter"))->sizes();
    ASSERT_EQ(restored.size(), 2);
    ASSERT_EQ(again.findChild<QSplitter *>(QStringLiteral("historySplitter"))->orientation(), dragged);
    EXPECT_NEAR(restored[0], sizes[0], 20) << "the history's splitter was not restored";
    EXPECT_EQ(again.findChild<QComboBox *>(QStringLiteral("galleryTypeFilter"))->currentData().toString(),
              QStringLiteral("image/svg+xml"));
}

TEST_F(MainWindowTest, quittingWithTheMcpServerRunningAsksFirstAndStopsIt)
{
    const sandbox::test::ScopedEnvironment token{
        {mcp::BearerToken::kEnvironmentVariable, mcp::BearerToken::generate()}};
    DesktopApp desktop(*context);
    MainWindow window(desktop);
    window.show();
    auto *page = window.findChild<ServerPage *>(QStringLiteral("serverPage"));
    ASSERT_NE(page, nullptr);
    page->findChild<QSpinBox *>(QStringLiteral("serverPort"))->setValue(guitest::freePort());
    page->start();
    ASSERT_TRUE(waitUntil([&] { return window.server().state() == mcp::McpHost::State::Running; }, 10s));

    // Cancelled: the window stays open and the server keeps running.
    answerNextMessageBox(QMessageBox::RejectRole);
    EXPECT_FALSE(window.close());
    EXPECT_TRUE(window.isVisible());
    EXPECT_EQ(window.server().state(), mcp::McpHost::State::Running);

    // Confirmed: the window closes and the server stops.
    answerNextMessageBox(QMessageBox::AcceptRole);
    EXPECT_TRUE(window.close());
    EXPECT_TRUE(waitUntil([&] { return window.server().state() == mcp::McpHost::State::Stopped; }, 30s));
}
