// Ctrl+F in the real window goes to the current page's search field, wherever the focus was.
#include "OfflineApp.h"
#include "gui/DesktopApp.h"
#include "gui/MainWindow.h"
#include "gui/Page.h"

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QStackedWidget>
#include <QTest>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

/// Shows the page `name` of `window`; returns it.
QWidget *showPage(MainWindow &window, const QString &name)
{
    auto *pages = window.findChild<QStackedWidget *>(QStringLiteral("pages"));
    for (int index = 0; index < pages->count(); ++index) {
        if (pages->widget(index)->objectName() == name) {
            window.showPage(index);
        }
    }
    return pages->currentWidget();
}

} // namespace

TEST(FindShortcut, ctrlFGoesToTheSearchFieldOfEveryPageThatHasOne)
{
    guitest::OfflineApp app;
    DesktopApp desktop(app.context());
    MainWindow window(desktop);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto *find = window.findChild<QAction *>(QStringLiteral("findAction"));
    ASSERT_NE(find, nullptr);
    EXPECT_EQ(find->shortcut(), QKeySequence(QKeySequence::Find));

    for (const auto &[page, field] : {std::pair{"liveLogPage", "liveLogSearch"},
                                      {"historyPage", "historyTextFilter"},
                                      {"galleryPage", "gallerySearch"}}) {
        QWidget *shown = showPage(window, QLatin1String(page));
        ASSERT_EQ(shown->objectName(), QLatin1String(page));
        auto *search = shown->findChild<QLineEdit *>(QLatin1String(field));
        ASSERT_NE(search, nullptr) << page;
        search->setText(QStringLiteral("python"));
        // The focus elsewhere on the page (the navigation), as after a click.
        window.findChild<QWidget *>(QStringLiteral("navigation"))->setFocus();
        ASSERT_FALSE(search->hasFocus());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_F, Qt::ControlModifier);
        EXPECT_TRUE(search->hasFocus()) << page;
        // Its text selected: typing replaces it.
        EXPECT_EQ(search->selectedText(), QStringLiteral("python")) << page;
        search->clear();
    }
    // A page without a search field: nothing to go to.
    showPage(window, QStringLiteral("consolePage"));
    EXPECT_FALSE(find->isEnabled());
    showPage(window, QStringLiteral("liveLogPage"));
    EXPECT_TRUE(find->isEnabled());
}

TEST(FindShortcut, findInPageIsOffEveryPageWithoutASearchField)
{
    guitest::OfflineApp app;
    DesktopApp desktop(app.context());
    MainWindow window(desktop);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto *find = window.findChild<QAction *>(QStringLiteral("findAction"));
    auto *pages = window.findChild<QStackedWidget *>(QStringLiteral("pages"));
    QStringList searchable;
    // Twice round, so that every page is also shown after one with (and one without) a search field.
    for (int round = 0; round < 2; ++round) {
        for (int index = 0; index < pages->count(); ++index) {
            window.showPage(index);
            auto *page = qobject_cast<Page *>(pages->currentWidget());
            ASSERT_NE(page, nullptr);
            // Enabled exactly where Ctrl+F has a field to go to: never a shortcut that silently does nothing.
            EXPECT_EQ(find->isEnabled(), page->findField() != nullptr) << qPrintable(page->objectName());
            if (round == 0 && page->findField()) {
                searchable << page->objectName();
            }
        }
    }
    // The lists worth searching: the runs (live log, History) and the pictures. The Backends page's sandboxes and the
    // MCP server's clients are a handful of rows each: no search field, no Find.
    EXPECT_EQ(searchable, (QStringList{QStringLiteral("liveLogPage"), QStringLiteral("historyPage"),
                                       QStringLiteral("galleryPage")}));
}
