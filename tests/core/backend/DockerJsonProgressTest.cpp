#include "backend/DockerJsonProgress.h"

#include "backend/DockerBackend.h"

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

TEST(DockerPushErrorTest, unreachableRegistryIsNamedWithWhereItsNameComesFrom)
{
    const QString message = DockerBackend::pushErrorMessage(
        QStringLiteral("127.0.0.1:1/llm-sandbox/python:abc"),
        QStringLiteral("Get \"http://127.0.0.1:1/v2/\": dial tcp 127.0.0.1:1: connect: connection refused"));
    EXPECT_TRUE(message.startsWith(QStringLiteral("Get \"http://127.0.0.1:1/v2/\"")));
    EXPECT_TRUE(message.contains(QStringLiteral("The registry 127.0.0.1:1 could not be reached")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("LLM_SANDBOX_REGISTRY")));
}

TEST(DockerPushErrorTest, missingImageSaysWhichNameTheEngineLacks)
{
    const QString message = DockerBackend::pushErrorMessage(
        QStringLiteral("reg.example:5000/llm-sandbox/python:abc"),
        QStringLiteral("An image does not exist locally with the tag: reg.example:5000/llm-sandbox/python"));
    EXPECT_TRUE(
        message.contains(QStringLiteral("The engine has no image named reg.example:5000/llm-sandbox/python:abc")))
        << message.toStdString();
}

TEST(DockerPushErrorTest, plainHttpRegistryPointsAtInsecureRegistries)
{
    const QString message = DockerBackend::pushErrorMessage(
        QStringLiteral("reg.example:5000/llm-sandbox/python:abc"),
        QStringLiteral("Get \"https://reg.example:5000/v2/\": http: server gave HTTP response to HTTPS client"));
    EXPECT_TRUE(message.contains(QStringLiteral("insecure-registries"))) << message.toStdString();
}

TEST(DockerPushErrorTest, refusedPushWithoutLoginSaysHowToLogIn)
{
    const QString message = DockerBackend::pushErrorMessage(QStringLiteral("reg.example/llm-sandbox/python:abc"),
                                                            QStringLiteral("unauthorized: authentication required"));
    EXPECT_TRUE(message.contains(QStringLiteral("The registry reg.example refused the push: it needs a login")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("llm-sandbox images login reg.example"))) << message.toStdString();
}

TEST(DockerPushErrorTest, missingBasicAuthCredentialsIsARefusal)
{
    const QString message = DockerBackend::pushErrorMessage(QStringLiteral("127.0.0.1:5000/llm-sandbox/ruby:abc"),
                                                            QStringLiteral("no basic auth credentials"));
    EXPECT_TRUE(message.contains(QStringLiteral("it needs a login"))) << message.toStdString();
}

TEST(DockerPushErrorTest, refusedPushWithLoginBlamesTheStoredLogin)
{
    const QString message =
        DockerBackend::pushErrorMessage(QStringLiteral("reg.example/llm-sandbox/python:abc"),
                                        QStringLiteral("unauthorized: authentication required"), true);
    EXPECT_TRUE(message.contains(QStringLiteral("refused the push with the login stored for it")))
        << message.toStdString();
}

TEST(DockerLoginErrorTest, refusedLoginSaysWrongPasswordAndNamesTheUser)
{
    const RegistryCredentials login{.username = QStringLiteral("alice"), .password = "x", .serverAddress = "r:5000"};
    const QString message = DockerBackend::loginErrorMessage(
        login, QStringLiteral("login attempt to http://r:5000/v2/ failed with status: 401 Unauthorized"));
    EXPECT_TRUE(message.contains(QStringLiteral("The registry r:5000 refused the login of alice: wrong username or "
                                                "password")))
        << message.toStdString();
}

TEST(DockerLoginErrorTest, unreachableRegistryIsSaidSo)
{
    const RegistryCredentials login{.username = QStringLiteral("alice"), .password = "x", .serverAddress = "r:1"};
    const QString message = DockerBackend::loginErrorMessage(
        login, QStringLiteral("Get \"https://r:1/v2/\": dial tcp 127.0.0.1:1: connect: connection refused"));
    EXPECT_TRUE(message.contains(QStringLiteral("The registry r:1 could not be reached"))) << message.toStdString();
}

TEST(DockerPushErrorTest, otherMessagesPassThrough)
{
    EXPECT_EQ(DockerBackend::pushErrorMessage(QStringLiteral("r/x:1"), QStringLiteral("disk full")),
              QStringLiteral("disk full"));
}
