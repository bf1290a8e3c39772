#include "gui/MainWindow.h"

#include <QComboBox>
#include <QPlainTextEdit>
#include <QPushButton>

#include <gtest/gtest.h>

using sandbox::gui::MainWindow;

TEST(MainWindow, offersEveryLanguageInThePicker)
{
    MainWindow window;
    auto *picker = window.findChild<QComboBox *>("languagePicker");
    ASSERT_NE(picker, nullptr);
    ASSERT_EQ(picker->count(), 7);
    EXPECT_EQ(picker->itemData(0).toString(), "python");
    EXPECT_EQ(picker->itemData(6).toString(), "ruby");
}

TEST(MainWindow, choosingALanguageShowsItsExample)
{
    MainWindow window;
    auto *picker = window.findChild<QComboBox *>("languagePicker");
    auto *editor = window.findChild<QPlainTextEdit *>("codeEditor");
    ASSERT_NE(editor, nullptr);
    picker->setCurrentIndex(picker->findData("ruby"));
    EXPECT_TRUE(editor->toPlainText().contains("puts"));
}

TEST(MainWindow, hasRunAndCancelButtons)
{
    MainWindow window;
    QStringList labels;
    for (auto *button : window.findChildren<QPushButton *>()) {
        labels << button->text();
    }
    EXPECT_TRUE(labels.contains("Run"));
    EXPECT_TRUE(labels.contains("Cancel"));
}
