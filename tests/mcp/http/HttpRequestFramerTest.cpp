#include "mcp/http/HttpRequestFramer.h"

// QT_USE_QSTRINGBUILDER: "literal" + QByteArray needs the builder, which only <QString> brings in otherwise.
#include <QStringBuilder>
#include <gtest/gtest.h>

using namespace sandbox::mcp;

namespace {

const QByteArray kPing = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello";

TEST(HttpRequestFramerTest, findsTheEndOfARequestWithABody)
{
    HttpRequestFramer framer;
    const auto progress = framer.feed(kPing);
    EXPECT_FALSE(progress.rejection);
    EXPECT_EQ(progress.completed, 1);
    EXPECT_FALSE(framer.midRequest());
}

TEST(HttpRequestFramerTest, followsARequestSplitAtEveryByte)
{
    HttpRequestFramer framer;
    int completed = 0;
    for (qsizetype i = 0; i < kPing.size(); ++i) {
        const auto progress = framer.feed(QByteArrayView(kPing).sliced(i, 1));
        ASSERT_FALSE(progress.rejection) << "at byte " << i;
        completed += progress.completed;
        EXPECT_EQ(framer.midRequest(), i + 1 < kPing.size());
    }
    EXPECT_EQ(completed, 1);
}

TEST(HttpRequestFramerTest, countsPipelinedRequestsAndLeadingBlankLines)
{
    HttpRequestFramer framer;
    const auto progress =
        framer.feed(QByteArray("\r\n" + kPing + "GET /mcp HTTP/1.1\r\nHost: a\r\n\r\n" + kPing.left(20)));
    EXPECT_FALSE(progress.rejection);
    EXPECT_EQ(progress.completed, 2);
    EXPECT_TRUE(framer.midRequest());
}

TEST(HttpRequestFramerTest, bodyMayHoldAnyBytes)
{
    HttpRequestFramer framer;
    const QByteArray body("{\n\"a\": 1\n}\n\r\n\r\n", 16);
    const auto progress = framer.feed(QByteArray("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 16\r\n\r\n" + body));
    EXPECT_FALSE(progress.rejection);
    EXPECT_EQ(progress.completed, 1);
}

int rejectionOf(const QByteArray &bytes, HttpLimits limits = {})
{
    HttpRequestFramer framer(limits);
    const auto progress = framer.feed(bytes);
    return progress.rejection ? progress.rejection->status : 0;
}

TEST(HttpRequestFramerTest, refusesWhatQtsParserWouldDropSilently)
{
    EXPECT_EQ(rejectionOf("GARBAGE\r\n\r\n"), 400);
    EXPECT_EQ(rejectionOf("POST /mcp HTTP/1.1\nHost: a\n\n"), 400);
    EXPECT_EQ(rejectionOf("PUT /mcp HTTP/1.1\r\n\r\n"), 400);
    EXPECT_EQ(rejectionOf("BREW /mcp HTTP/1.1\r\nHost: a\r\n\r\n"), 501);
    EXPECT_EQ(rejectionOf("CONNECT a:443 HTTP/1.1\r\nHost: a\r\n\r\n"), 405);
    EXPECT_EQ(rejectionOf("GET /mcp HTTP/1.0\r\nHost: a\r\n\r\n"), 505);
    EXPECT_EQ(rejectionOf("GET /mcp HTTP/2\r\nHost: a\r\n\r\n"), 400);
    EXPECT_EQ(rejectionOf("GET http://a/mcp HTTP/1.1\r\nHost: a\r\n\r\n"), 400);
    EXPECT_EQ(rejectionOf("GET /mcp HTTP/1.1\r\nHost: a\r\nX: a\x01z\r\n\r\n"), 400);
    EXPECT_EQ(rejectionOf("GET /mcp HTTP/1.1\r\nHost: a\r\nX : y\r\n\r\n"), 400);
    EXPECT_EQ(rejectionOf("GET /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n"), 400);
    EXPECT_EQ(rejectionOf("GET /mcp HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"), 411);
}

TEST(HttpRequestFramerTest, enforcesSizeLimits)
{
    const HttpLimits small{.maxHeaderBytes = 100, .maxBodyBytes = 10};
    EXPECT_EQ(rejectionOf("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", small), 413);
    EXPECT_EQ(rejectionOf("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n"), 413);
    EXPECT_EQ(rejectionOf("POST /mcp HTTP/1.1\r\nHost: a\r\nX: " + QByteArray(200, 'x'), small), 431);
    EXPECT_EQ(rejectionOf("POST /mcp HTTP/1.1\r\nHost: a\r\nX: " + QByteArray(200, 'x') + "\r\n\r\n", small), 431);
    EXPECT_EQ(rejectionOf("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n", small), 0);
}

TEST(HttpRequestFramerTest, flagsExpectContinue)
{
    HttpRequestFramer framer;
    const auto progress =
        framer.feed("POST /mcp HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n");
    EXPECT_TRUE(progress.continueExpected);
    EXPECT_EQ(progress.completed, 0);
    EXPECT_EQ(framer.feed("{}").completed, 1);
}

TEST(HttpRequestFramerTest, staysRejectedAfterARejection)
{
    HttpRequestFramer framer;
    EXPECT_TRUE(framer.feed("BAD\r\n\r\n").rejection);
    EXPECT_TRUE(framer.feed(kPing).rejection);
}

} // namespace
