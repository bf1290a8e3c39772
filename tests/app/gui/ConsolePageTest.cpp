#include "gui/console/ConsolePage.h"

#include "GuiTestSupport.h"
#include "gui/EngineController.h"
#include "gui/widgets/ArtifactStrip.h"
#include "gui/widgets/CodeEditor.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

namespace {

class ConsolePageTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        engine = guitest::dockerEngine();
        ASSERT_NE(engine, nullptr);
        controller = std::make_unique<EngineController>(
            [this](const QString &) -> Result<ExecutionEngine *> { return engine.get(); }, QStringLiteral("docker"));
        page = std::make_unique<ConsolePage>(*controller);
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

    std::unique_ptr<ExecutionEngine> engine;
    std::unique_ptr<EngineController> controller;
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
    // The program prints, then sleeps inside the sandbox (far longer than delivering a line takes), then plots:
    // the line must be on screen while the run is still going, the chart once it has ended.
    editor->setPlainText(QStringLiteral("import sys, time\n"
                                        "print('first line', flush=True)\n"
                                        "time.sleep(8)\n"
                                        "import matplotlib\n"
                                        "matplotlib.use('Agg')\n"
                                        "import matplotlib.pyplot as plt\n"
                                        "plt.plot([1, 2, 3], [1, 4, 9])\n"
                                        "plt.show()\n"
                                        "print('done', file=sys.stderr)\n"));
    auto *strip = page->findChild<ArtifactStrip *>(QStringLiteral("artifactStrip"));
    ASSERT_NE(strip, nullptr);
    page->run();
    ASSERT_TRUE(page->isRunning());

    ASSERT_TRUE(waitUntil([&] { return output->toPlainText().contains(QStringLiteral("first line")); }, 120s));
    // Seen while the program is still sleeping: the output streamed.
    EXPECT_TRUE(page->isRunning());
    EXPECT_EQ(strip->count(), 0);

    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 120s));
    EXPECT_TRUE(output->toPlainText().contains(QStringLiteral("done")));
    EXPECT_GE(strip->count(), 1);
    EXPECT_TRUE(strip->isVisibleTo(page.get()));
}

TEST_F(ConsolePageTest, ctrlReturnRunsTheCode)
{
    editor->setPlainText(QStringLiteral("print(6 * 7)"));
    editor->setFocus();
    QTest::keyClick(editor, Qt::Key_Return, Qt::ControlModifier);
    EXPECT_TRUE(page->isRunning());
    EXPECT_EQ(editor->toPlainText(), QStringLiteral("print(6 * 7)")); // the key ran the code, it typed nothing
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 120s));
    EXPECT_TRUE(output->toPlainText().contains(QStringLiteral("42")));
}

TEST_F(ConsolePageTest, stopEndsALongRun)
{
    editor->setPlainText(QStringLiteral("import time\nprint('going', flush=True)\ntime.sleep(300)\n"));
    page->run();
    ASSERT_TRUE(waitUntil([&] { return output->toPlainText().contains(QStringLiteral("going")); }, 120s));
    auto *stop = page->findChild<QPushButton *>(QStringLiteral("stopButton"));
    ASSERT_TRUE(stop->isEnabled());
    QTest::mouseClick(stop, Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return !page->isRunning(); }, 60s));
    EXPECT_FALSE(stop->isEnabled());
}
