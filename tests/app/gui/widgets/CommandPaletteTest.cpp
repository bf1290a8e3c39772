// The command palette (Ctrl+K) of the real window: it offers the menus' enabled actions, filters them as one types,
// runs the chosen one with Enter and closes with Escape.
#include "gui/widgets/CommandPalette.h"

#include "OfflineApp.h"
#include "gui/DesktopApp.h"
#include "gui/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QIcon>
#include <QLineEdit>
#include <QListView>
#include <QPainter>
#include <QStackedWidget>
#include <QTest>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

class CommandPaletteTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_window = std::make_unique<MainWindow>(m_desktop);
        m_window->show();
        m_window->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(m_window.get()));
        m_palette = m_window->findChild<CommandPalette *>(QStringLiteral("commandPalette"));
        ASSERT_NE(m_palette, nullptr);
    }

    /// Ctrl+K wherever the focus is in the window.
    void openPalette()
    {
        QWidget *focus = QApplication::focusWidget() ? QApplication::focusWidget() : m_window.get();
        QTest::keyClick(focus, Qt::Key_K, Qt::ControlModifier);
        ASSERT_TRUE(m_palette->isVisible());
        ASSERT_TRUE(m_palette->searchField()->hasFocus());
    }

    QString currentPage() const
    {
        return m_window->findChild<QStackedWidget *>(QStringLiteral("pages"))->currentWidget()->objectName();
    }

    void showPage(const QString &name)
    {
        auto *pages = m_window->findChild<QStackedWidget *>(QStringLiteral("pages"));
        for (int index = 0; index < pages->count(); ++index) {
            if (pages->widget(index)->objectName() == name) {
                m_window->showPage(index);
            }
        }
        ASSERT_EQ(currentPage(), name);
    }

    guitest::OfflineApp m_app;
    DesktopApp m_desktop{m_app.context()};
    std::unique_ptr<MainWindow> m_window;
    CommandPalette *m_palette = nullptr;
};

} // namespace

TEST_F(CommandPaletteTest, offersTheMenusActionsWithoutMnemonics)
{
    auto *action = m_window->findChild<QAction *>(QStringLiteral("commandPaletteAction"));
    ASSERT_NE(action, nullptr);
    EXPECT_EQ(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_K));
    openPalette();
    const QStringList commands = m_palette->shownCommands();
    for (const char *command :
         {"Settings…", "Connect an Assistant…", "Quit", "Run", "Go to Live log", "Go to History", "Go to MCP server",
          "Find in Page", "Theme: Dark", "Documentation", "About LLM Sandbox"}) {
        EXPECT_TRUE(commands.contains(QString::fromUtf8(command)))
            << command << " in " << qPrintable(commands.join('|'));
    }
    // Not itself, nor Stop All Runs while nothing runs.
    EXPECT_FALSE(commands.contains(QStringLiteral("Command Palette…")));
    EXPECT_FALSE(commands.contains(QStringLiteral("Stop All Runs")));
    EXPECT_EQ(commands.count(QStringLiteral("Run")), 1); // in the Run menu and the window's actions: once
}

TEST_F(CommandPaletteTest, everyCommandHasRoomForAnIconSoTheTextsStartInOneColumn)
{
    // Settings… has no icon, Go to History has its page's: without an empty icon for the first, its text stood an
    // icon's width further left.
    openPalette();
    const QAbstractItemModel *commands = m_palette->findChild<QListView *>(QStringLiteral("commandList"))->model();
    ASSERT_GT(commands->rowCount(), 2);
    for (int row = 0; row < commands->rowCount(); ++row) {
        const QModelIndex index = commands->index(row, 0);
        EXPECT_FALSE(index.data(Qt::DecorationRole).value<QIcon>().isNull()) << qPrintable(index.data().toString());
    }
}

TEST_F(CommandPaletteTest, opensCentredAtTheTopOfTheWindow)
{
    m_window->resize(1200, 780);
    openPalette();
    QTest::keyClicks(m_palette->searchField(), QStringLiteral("go"));
    const QRect window = m_window->geometry();
    const QRect palette = m_palette->geometry();
    EXPECT_LE(std::abs(palette.center().x() - window.center().x()), 2);
    EXPECT_GT(palette.top(), window.top());
    EXPECT_LT(palette.top(), window.top() + window.height() / 6);
    EXPECT_LT(palette.width(), window.width());
    EXPECT_LT(palette.bottom(), window.bottom());
    // LLM_SANDBOX_SHOT: where to save a picture of the window with the palette open (to look at, not compared).
    if (const QString shot = qEnvironmentVariable("LLM_SANDBOX_SHOT"); !shot.isEmpty()) {
        QPixmap picture = m_window->grab();
        QPainter painter(&picture);
        painter.drawPixmap(m_window->mapFromGlobal(palette.topLeft()), m_palette->grab());
        painter.end();
        EXPECT_TRUE(picture.save(shot));
    }
}

TEST_F(CommandPaletteTest, typingFiltersByEveryWordInAnyOrder)
{
    openPalette();
    const qsizetype all = m_palette->shownCommands().size();
    QTest::keyClicks(m_palette->searchField(), QStringLiteral("HIST"));
    EXPECT_EQ(m_palette->shownCommands(), QStringList{QStringLiteral("Go to History")});

    m_palette->searchField()->clear();
    QTest::keyClicks(m_palette->searchField(), QStringLiteral("page find"));
    EXPECT_EQ(m_palette->shownCommands(), QStringList{QStringLiteral("Find in Page")});

    m_palette->searchField()->clear();
    QTest::keyClicks(m_palette->searchField(), QStringLiteral("no such command"));
    EXPECT_TRUE(m_palette->shownCommands().isEmpty());
    // Enter with nothing to run: nothing happens, the palette stays for another try.
    QTest::keyClick(m_palette->searchField(), Qt::Key_Return);
    EXPECT_TRUE(m_palette->isVisible());

    m_palette->searchField()->clear();
    EXPECT_EQ(m_palette->shownCommands().size(), all);
}

TEST_F(CommandPaletteTest, enterRunsTheChosenCommandAndCloses)
{
    ASSERT_EQ(currentPage(), QStringLiteral("liveLogPage"));
    openPalette();
    QTest::keyClicks(m_palette->searchField(), QStringLiteral("go to hist"));
    QTest::keyClick(m_palette->searchField(), Qt::Key_Return);
    EXPECT_FALSE(m_palette->isVisible());
    EXPECT_EQ(currentPage(), QStringLiteral("historyPage"));

    // Down chooses the next one: "Go to Live log", "Go to Console", ...
    openPalette();
    QTest::keyClicks(m_palette->searchField(), QStringLiteral("go to"));
    ASSERT_EQ(m_palette->shownCommands().value(1), QStringLiteral("Go to Console"));
    QTest::keyClick(m_palette->searchField(), Qt::Key_Down);
    QTest::keyClick(m_palette->searchField(), Qt::Key_Enter);
    EXPECT_FALSE(m_palette->isVisible());
    EXPECT_EQ(currentPage(), QStringLiteral("consolePage"));
}

TEST_F(CommandPaletteTest, escapeClosesWithoutRunningAnything)
{
    openPalette();
    QTest::keyClicks(m_palette->searchField(), QStringLiteral("go to hist"));
    QTest::keyClick(m_palette->searchField(), Qt::Key_Escape);
    EXPECT_FALSE(m_palette->isVisible());
    EXPECT_EQ(currentPage(), QStringLiteral("liveLogPage"));
}

TEST_F(CommandPaletteTest, disabledActionsAreNotOffered)
{
    // Stop: no run to stop.
    auto *stop = m_window->findChild<QWidget *>(QStringLiteral("consolePage"))
                     ->findChild<QAction *>(QStringLiteral("stopAction"));
    ASSERT_NE(stop, nullptr);
    ASSERT_FALSE(stop->isEnabled());
    openPalette();
    EXPECT_FALSE(m_palette->shownCommands().contains(QStringLiteral("Stop")));
    EXPECT_TRUE(m_palette->shownCommands().contains(QStringLiteral("Find in Page")));
    QTest::keyClick(m_palette->searchField(), Qt::Key_Escape);

    // The console has no search field: no Find in Page there.
    showPage(QStringLiteral("consolePage"));
    openPalette();
    EXPECT_FALSE(m_palette->shownCommands().contains(QStringLiteral("Find in Page")));
    QTest::keyClick(m_palette->searchField(), Qt::Key_Escape);

    // Enabled again, offered again.
    stop->setEnabled(true);
    openPalette();
    EXPECT_TRUE(m_palette->shownCommands().contains(QStringLiteral("Stop")));
    stop->setEnabled(false);
}

TEST_F(CommandPaletteTest, offersTheCurrentPagesOwnActions)
{
    showPage(QStringLiteral("galleryPage"));
    openPalette();
    EXPECT_TRUE(m_palette->shownCommands().contains(QStringLiteral("Copy Image")));
    QTest::keyClick(m_palette->searchField(), Qt::Key_Escape);
    showPage(QStringLiteral("liveLogPage"));
    openPalette();
    EXPECT_FALSE(m_palette->shownCommands().contains(QStringLiteral("Copy Image")));
}

TEST(CommandPaletteText, mnemonicsAreLeftOut)
{
    EXPECT_EQ(CommandPalette::withoutMnemonic(QStringLiteral("&Settings…")), QStringLiteral("Settings…"));
    EXPECT_EQ(CommandPalette::withoutMnemonic(QStringLiteral("About &Qt")), QStringLiteral("About Qt"));
    EXPECT_EQ(CommandPalette::withoutMnemonic(QStringLiteral("设置(&S)…")), QStringLiteral("设置…"));
    EXPECT_EQ(CommandPalette::withoutMnemonic(QStringLiteral("Save && Quit")), QStringLiteral("Save & Quit"));
}
