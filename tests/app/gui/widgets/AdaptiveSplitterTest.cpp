// Issue 46, item 8: the run pane goes beside the table where the page has room and under it where it has not, and the
// split the user chose is kept for each orientation, across resizes and in the next window (by share of the page).
#include "gui/widgets/AdaptiveSplitter.h"

#include "DragSplitter.h"

#include <QLabel>
#include <QTest>
#include <gtest/gtest.h>

using namespace sandbox::gui;
using sandbox::gui::guitest::dragSplitter;

namespace {

/// A splitter with two panes, shown at `size`.
struct Split
{
    explicit Split(QSize size)
    {
        splitter.addWidget(new QLabel(QStringLiteral("runs")));
        splitter.addWidget(new QLabel(QStringLiteral("run")));
        splitter.setChildrenCollapsible(false);
        splitter.resize(size);
        splitter.show();
    }
    AdaptiveSplitter splitter;
};

} // namespace

TEST(AdaptiveSplitter, keepsTheUsersSplitForEachOrientationAcrossTurnsAndWindows)
{
    QByteArray saved;
    {
        Split split(QSize(1200, 800));
        AdaptiveSplitter &splitter = split.splitter;
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&splitter));
        EXPECT_FALSE(splitter.place(Qt::Horizontal, 600, 400));
        EXPECT_NEAR(splitter.sizes().at(0), 600 * (1200 - splitter.handleWidth()) / 1000.0, 2) << "the default share";
        EXPECT_FALSE(splitter.placedByUser());
        splitter.place(Qt::Horizontal, 700, 300);
        EXPECT_NEAR(splitter.sizes().at(0), 700 * (1200 - splitter.handleWidth()) / 1000.0, 2)
            << "until the user moves it, the split follows what the page asks for (its columns widened)";

        dragSplitter(splitter, 300);
        ASSERT_NEAR(splitter.sizes().at(0), 300, 2);
        EXPECT_TRUE(splitter.placedByUser());
        EXPECT_FALSE(splitter.place(Qt::Horizontal, 700, 300)) << "placed again in the same orientation";
        EXPECT_NEAR(splitter.sizes().at(0), 300, 2) << "the user's split stays";

        // Narrow: the run goes under, with the default split for that orientation, which the user changes too.
        EXPECT_TRUE(splitter.place(Qt::Vertical, 2, 3));
        EXPECT_EQ(splitter.orientation(), Qt::Vertical);
        EXPECT_FALSE(splitter.placedByUser());
        EXPECT_NEAR(splitter.sizes().at(0), (800 - splitter.handleWidth()) * 2 / 5.0, 2);
        dragSplitter(splitter, 560);
        ASSERT_NEAR(splitter.sizes().at(0), 560, 2);

        // Wide again: the split the user left beside, not the default, and under again the one left under.
        EXPECT_TRUE(splitter.place(Qt::Horizontal, 600, 400));
        EXPECT_NEAR(splitter.sizes().at(0), 300, 3);
        EXPECT_TRUE(splitter.place(Qt::Vertical, 2, 3));
        EXPECT_NEAR(splitter.sizes().at(0), 560, 3);
        saved = splitter.saveSplits();
    }
    // The next window, as wide and twice as wide: each orientation gets the user's split, in proportion.
    Split same(QSize(1200, 800));
    ASSERT_TRUE(same.splitter.restoreSplits(saved));
    same.splitter.place(Qt::Horizontal, 600, 400);
    EXPECT_NEAR(same.splitter.sizes().at(0), 300, 3);
    EXPECT_TRUE(same.splitter.placedByUser());
    Split wider(QSize(2400, 800));
    ASSERT_TRUE(wider.splitter.restoreSplits(saved));
    wider.splitter.place(Qt::Vertical, 2, 3);
    EXPECT_NEAR(wider.splitter.sizes().at(0), 560, 3);
    wider.splitter.place(Qt::Horizontal, 600, 400);
    EXPECT_NEAR(wider.splitter.sizes().at(0), 600, 6);
}

TEST(AdaptiveSplitter, anOlderSplitterStateOrAShareOutOfRangeIsIgnored)
{
    Split split(QSize(1000, 600));
    QSplitter older;
    older.addWidget(new QLabel);
    older.addWidget(new QLabel);
    EXPECT_FALSE(split.splitter.restoreSplits(older.saveState()));
    EXPECT_TRUE(split.splitter.restoreSplits(R"({"beside": 7, "under": -1})"));
    split.splitter.place(Qt::Horizontal, 1, 1);
    EXPECT_FALSE(split.splitter.placedByUser());
    EXPECT_NEAR(split.splitter.sizes().at(0), (1000 - split.splitter.handleWidth()) / 2.0, 2);
}
