#include "gui/MainWindow.h"

#include "AppContext.h"
#include "GuiTestSupport.h"
#include "ScopedEnvironment.h"
#include "gui/EngineController.h"
#include "gui/console/ConsolePage.h"
#include "gui/widgets/CodeEditor.h"

#include <QComboBox>
#include <QListWidget>
#include <QSplitter>
#include <QStackedWidget>
#include <QTest>
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
        auto made = AppContext::create({.source = QStringLiteral("gui")});
        ASSERT_TRUE(made.ok()) << qPrintable(made.error().message);
        context = std::move(*made);
    }

    sandbox::test::ScopedEnvironment journalOff{{"LLM_SANDBOX_JOURNAL", QByteArray("off")}};
    std::unique_ptr<AppContext> context;
};

} // namespace

TEST_F(MainWindowTest, navigatesBetweenTheLiveLogAndTheConsole)
{
    MainWindow window(*context);
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

TEST_F(MainWindowTest, remembersTheCurrentPage)
{
    {
        MainWindow window(*context);
        window.show();
        window.showPage(1);
        window.close();
    }
    MainWindow again(*context);
    EXPECT_EQ(again.findChild<QStackedWidget *>(QStringLiteral("pages"))->currentIndex(), 1);
}

TEST_F(MainWindowTest, ctrlReturnRunsTheConsolesCodeFromAnywhereInTheWindow)
{
    MainWindow window(*context);
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
    {
        MainWindow window(*context);
        window.resize(1200, 800);
        window.show();
        window.showPage(2);
        auto *splitter = window.findChild<QSplitter *>(QStringLiteral("historySplitter"));
        ASSERT_NE(splitter, nullptr);
        splitter->setSizes({250, 750});
        sizes = splitter->sizes();
        auto *type = window.findChild<QComboBox *>(QStringLiteral("galleryTypeFilter"));
        type->setCurrentIndex(type->findData(QStringLiteral("image/svg+xml")));
        window.close();
    }
    MainWindow again(*context);
    again.show();
    auto *navigation = again.findChild<QListWidget *>(QStringLiteral("navigation"));
    ASSERT_EQ(navigation->count(), 6);
    EXPECT_EQ(navigation->item(2)->text(), QStringLiteral("History"));
    EXPECT_EQ(navigation->item(3)->text(), QStringLiteral("Gallery"));
    EXPECT_EQ(navigation->item(4)->text(), QStringLiteral("Statistics"));
    EXPECT_EQ(navigation->item(5)->text(), QStringLiteral("Backends"));
    const QList<int> restored = again.findChild<QSplitter *>(QStringLiteral("historySplitter"))->sizes();
    ASSERT_EQ(restored.size(), 2);
    EXPECT_NEAR(restored[0], sizes[0], 20) << "the history's splitter was not restored";
    EXPECT_EQ(again.findChild<QComboBox *>(QStringLiteral("galleryTypeFilter"))->currentData().toString(),
              QStringLiteral("image/svg+xml"));
}
