#include "backend/DockerJsonProgress.h"

#include <gtest/gtest.h>

using namespace sandbox;

namespace {

/// What `docker push` streams, as Docker 20.10 sends it (abridged).
const QByteArray kPushStream =
    R"({"status":"The push refers to repository [127.0.0.1:5000/llm-sandbox/python]"}
{"status":"Preparing","progressDetail":{},"id":"554e01f51c9a"}
{"status":"Waiting","progressDetail":{},"id":"554e01f51c9a"}
{"status":"Pushing","progressDetail":{"current":512,"total":2048},"progress":"[====>    ]","id":"554e01f51c9a"}
{"status":"Pushing","progressDetail":{"current":2048,"total":2048},"progress":"[=========>]","id":"554e01f51c9a"}
{"status":"Pushed","progressDetail":{},"id":"554e01f51c9a"}
{"status":"f97bd24d184e: digest: sha256:4ae8 size: 2203"}
{"progressDetail":{},"aux":{"Tag":"f97bd24d184e","Digest":"sha256:4ae8","Size":2203}}
)";

} // namespace

TEST(DockerJsonProgressTest, layersStyleReportsEachLayerStepWithoutByteCounts)
{
    QStringList lines;
    DockerJsonProgress stream([&](const QString &line) { lines << line; }, DockerJsonProgress::Style::Layers);
    // Chunks split messages anywhere, as the engine's writes and curl's reads do.
    for (qsizetype at = 0; at < kPushStream.size(); at += 7) {
        stream.feed(kPushStream.mid(at, 7));
    }
    stream.finish();
    EXPECT_EQ(lines, (QStringList{QStringLiteral("The push refers to repository [127.0.0.1:5000/llm-sandbox/python]"),
                                  QStringLiteral("554e01f51c9a: Preparing"), QStringLiteral("554e01f51c9a: Waiting"),
                                  QStringLiteral("554e01f51c9a: Pushed"),
                                  QStringLiteral("f97bd24d184e: digest: sha256:4ae8 size: 2203")}));
    EXPECT_TRUE(stream.error().isEmpty());
}

TEST(DockerJsonProgressTest, plainStyleKeepsBuildOutputAsItComes)
{
    QStringList lines;
    DockerJsonProgress stream([&](const QString &line) { lines << line; });
    stream.feed(R"({"stream":"Step 1/2 : FROM scratch\n"})"
                "\n"
                R"({"status":"Downloading","progressDetail":{"current":1,"total":2},"id":"ab"})");
    stream.finish(); // the last message has no newline
    EXPECT_EQ(lines, (QStringList{QStringLiteral("Step 1/2 : FROM scratch"), QStringLiteral("Downloading")}));
}

TEST(DockerJsonProgressTest, errorDetailIsTheStreamsError)
{
    QStringList lines;
    DockerJsonProgress stream([&](const QString &line) { lines << line; }, DockerJsonProgress::Style::Layers);
    stream.feed(R"json({"status":"Preparing","progressDetail":{},"id":"aa"}
{"errorDetail":{"message":"Get \"http://127.0.0.1:1/v2/\": connection refused"},"error":"short form"}
)json");
    stream.finish();
    EXPECT_EQ(stream.error(), QStringLiteral("Get \"http://127.0.0.1:1/v2/\": connection refused"));
    EXPECT_EQ(lines, QStringList{QStringLiteral("aa: Preparing")});
}

TEST(DockerJsonProgressTest, errorWithoutDetailIsKept)
{
    DockerJsonProgress stream(nullptr);
    stream.feed(R"({"error":"The command '/bin/sh -c false' returned a non-zero code: 1"})");
    stream.finish();
    EXPECT_EQ(stream.error(), QStringLiteral("The command '/bin/sh -c false' returned a non-zero code: 1"));
}
