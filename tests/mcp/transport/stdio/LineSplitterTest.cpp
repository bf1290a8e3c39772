#include "mcp/transport/stdio/LineSplitter.h"

#include <QList>
#include <gtest/gtest.h>

using namespace sandbox::mcp;

namespace {

class LineSplitterTest : public ::testing::Test
{
protected:
    void feed(QByteArrayView data)
    {
        splitter.feed(
            data, [this](const QByteArray &line) { lines.append(line); }, [this] { ++oversize; });
    }
    void finish()
    {
        splitter.finish([this](const QByteArray &line) { lines.append(line); });
    }

    LineSplitter splitter{16};
    QList<QByteArray> lines;
    int oversize = 0;
};

TEST_F(LineSplitterTest, splitsOnNewlinesAndStripsCarriageReturns)
{
    feed("a\nbb\r\nccc\n");
    EXPECT_EQ(lines, (QList<QByteArray>{"a", "bb", "ccc"}));
}

TEST_F(LineSplitterTest, joinsALineSplitAcrossReads)
{
    feed("ab");
    feed("cd");
    EXPECT_TRUE(lines.isEmpty());
    feed("e\nf");
    EXPECT_EQ(lines, (QList<QByteArray>{"abcde"}));
}

TEST_F(LineSplitterTest, skipsBlankLines)
{
    feed("\n  \n\r\nx\n");
    EXPECT_EQ(lines, (QList<QByteArray>{"x"}));
}

TEST_F(LineSplitterTest, lastLineWithoutNewlineCountsAtEndOfInput)
{
    feed("a\nlast");
    finish();
    EXPECT_EQ(lines, (QList<QByteArray>{"a", "last"}));
}

TEST_F(LineSplitterTest, overlongLineIsDroppedOnceAndReadingResumesAfterIt)
{
    feed("0123456789");
    feed("0123456789");
    feed("0123456789\nok\n");
    EXPECT_EQ(oversize, 1);
    EXPECT_EQ(lines, (QList<QByteArray>{"ok"}));
}

TEST_F(LineSplitterTest, overlongLineInOneReadIsDropped)
{
    feed("short\n0123456789012345678901234\nnext\n");
    EXPECT_EQ(oversize, 1);
    EXPECT_EQ(lines, (QList<QByteArray>{"short", "next"}));
}

} // namespace
