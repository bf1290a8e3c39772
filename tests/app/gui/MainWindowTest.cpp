#include "AppContext.h"
#include "gui/MainWindow.h"

#include <QComboBox>
#include <QPlainTextEdit>
#include <QPushButton>

#include <gtest/gtest.h>

using sandbox::gui::MainWindow;

namespace {

std::unique_ptr<sandbox::AppContext> makeContext()
{
    auto context = sandbox::AppContext::create({.source = QStringLiteral("gui")});
    EXPECT_TRUE(context.ok());
    return std::move(*context);
}

} // namespace

TEST(MainWindow, offersEveryLanguageInThePicker)
{
    auto context = makeContext();
    MainWindow window(*context);
    auto *picker = window.findChild<QComboBox *>("languagePicker");
    ASSERT_NE(picker, nullptr);
    ASSERT_EQ(picker->count(), 7);
    EXPECT_EQ(picker->itemData(0).toString(), "python");
    EXPECT_EQ(picker->itemData(6).toString(), "ruby");
}

TEST(MainWindow, choosingALanguageShowsItsExample)
{
    auto context = makeContext();
    MainWindow window(*context);
    auto *picker = window.findChild<QComboBox *>("languagePicker");
    auto *editor = window.findChild<QPlainTextEdit *>("codeEditor");
    ASSERT_NE(editor, nullptr);
    picker->setCurrentIndex(picker->findData("ruby"));
    EXPECT_TRUE(editor->toPlainText().contains("puts"));
}

TEST(MainWindow, hasRunAndCancelButtons)
{
    auto context = makeContext();
    MainWindow window(*context);
    QStringList labels;
    for (auto *button : window.findChildren<QPushButton *>()) {
        labels << button->text();
    }
    EXPECT_TRUE(labels.contains("Run"));
    EXPECT_TRUE(labels.contains("Cancel"));
}
