// The window without a mouse: from the start, Ctrl+1 … Ctrl+7 show the pages, Tab goes from the navigation into the
// page shown and on through it and out again: no page without a control to reach, none that keeps the focus.
#include "OfflineApp.h"
#include "gui/DesktopApp.h"
#include "gui/MainWindow.h"
#include "gui/Page.h"

#include <QApplication>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QTest>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

QString describe(const QWidget *widget)
{
    return widget
               ? QStringLiteral("%1 (%2)").arg(widget->objectName(), QLatin1String(widget->metaObject()->className()))
               : QStringLiteral("nothing");
}

/// An editor where Tab types (the console's code): Ctrl+Tab leaves it.
bool typesTab(const QWidget *widget)
{
    const auto *edit = qobject_cast<const QPlainTextEdit *>(widget);
    return edit && !edit->isReadOnly() && !edit->tabChangesFocus();
}

} // namespace

TEST(KeyboardNavigation, ctrlNumberShowsEachPageAndTabGoesIntoItAndOut)
{
    guitest::OfflineApp app;
    DesktopApp desktop(app.context());
    MainWindow window(desktop);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto *pages = window.findChild<QStackedWidget *>(QStringLiteral("pages"));
    auto *navigation = window.findChild<QWidget *>(QStringLiteral("navigation"));
    ASSERT_EQ(pages->count(), 7);
    // From the start the keyboard has a place in the window.
    ASSERT_NE(QApplication::focusWidget(), nullptr);

    for (int index = 0; index < pages->count(); ++index) {
        QWidget *page = pages->widget(index);
        // After the first page, the focus is inside the page that goes away (see the end of the loop).
        QWidget *before = QApplication::focusWidget();
        ASSERT_NE(before, nullptr) << "before Ctrl+" << index + 1;
        QTest::keyClick(before, Qt::Key(Qt::Key_1 + index), Qt::ControlModifier);
        ASSERT_EQ(pages->currentIndex(), index) << "Ctrl+" << index + 1;
        // The focus not lost with the page that went away: keys go somewhere visible.
        QWidget *focus = QApplication::focusWidget();
        ASSERT_NE(focus, nullptr) << "after Ctrl+" << index + 1;
        EXPECT_TRUE(focus->isVisible()) << "after Ctrl+" << index + 1 << ": " << qPrintable(describe(focus));

        navigation->setFocus(Qt::OtherFocusReason);
        QTest::keyClick(navigation, Qt::Key_Tab);
        focus = QApplication::focusWidget();
        EXPECT_TRUE(page->isAncestorOf(focus))
            << qPrintable(page->objectName()) << ": Tab from the navigation went to " << qPrintable(describe(focus));
        // On through the page and out of it.
        int presses = 0;
        while (page->isAncestorOf(QApplication::focusWidget()) && presses < 60) {
            QWidget *current = QApplication::focusWidget();
            QTest::keyClick(current, Qt::Key_Tab, typesTab(current) ? Qt::ControlModifier : Qt::NoModifier);
            ++presses;
        }
        EXPECT_FALSE(page->isAncestorOf(QApplication::focusWidget()))
            << qPrintable(page->objectName()) << " keeps the focus in "
            << qPrintable(describe(QApplication::focusWidget()));
        // Back into the page: the next Ctrl+N hides the page that has the focus.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab, Qt::ShiftModifier);
        EXPECT_TRUE(page->isAncestorOf(QApplication::focusWidget()))
            << qPrintable(page->objectName()) << ": Shift+Tab went to "
            << qPrintable(describe(QApplication::focusWidget()));
    }
}
