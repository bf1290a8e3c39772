#include "DockerTestSupport.h"

#include "backend/DockerBackend.h"
#include "session/ExecutionEngine.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace sandbox;

TEST(DockerBackend, probeReportsTheEngineVersion)
{
    auto backend = test::dockerBackend();
    auto info = backend->probe();
    ASSERT_TRUE(info.ok());
    EXPECT_EQ(info->name, "docker");
    EXPECT_FALSE(info->version.isEmpty());
    EXPECT_TRUE(info->apiVersion.startsWith("1."));
}

TEST(DockerBackend, missingSocketIsOneClearSentence)
{
    auto endpoint = HttpEndpoint::parse("unix:///nonexistent/docker.sock", false, {});
    ASSERT_TRUE(endpoint.ok());
    DockerBackend backend(*endpoint);
    auto info = backend.probe();
    ASSERT_FALSE(info.ok());
    EXPECT_TRUE(info.error().message.contains("/nonexistent/docker.sock"));
    EXPECT_TRUE(info.error().message.contains("no socket"));
    EXPECT_FALSE(info.error().message.contains('\n'));
}

TEST(DockerBackend, socketWithoutADaemonSaysTheEngineIsNotRunning)
{
    // A unix socket file nobody listens on: what a crashed daemon leaves behind.
    QTemporaryDir dir;
    const QString path = dir.filePath("dead.sock");
    QProcess python;
    python.start("python3", {"-c", QString("import socket; s=socket.socket(socket.AF_UNIX); s.bind('%1')").arg(path)});
    ASSERT_TRUE(python.waitForFinished(10000));
    auto endpoint = HttpEndpoint::parse("unix://" + path, false, {});
    DockerBackend backend(*endpoint);
    auto info = backend.probe();
    ASSERT_FALSE(info.ok());
    EXPECT_TRUE(info.error().message.contains("refused")) << info.error().message.toStdString();
}

TEST(DockerBackend, missingImageIsAClearError)
{
    auto backend = test::dockerBackend();
    ContainerSpec spec;
    spec.image = "llm-sandbox/does-not-exist:0";
    spec.command = {"true"};
    auto created = backend->createContainer(spec);
    ASSERT_FALSE(created.ok());
    EXPECT_TRUE(created.error().message.contains("llm-sandbox/does-not-exist:0"));
    EXPECT_TRUE(created.error().message.contains("images build"));
}

TEST(DockerBackend, removingAnAbsentContainerIsFine)
{
    auto backend = test::dockerBackend();
    EXPECT_TRUE(backend->removeContainer("0123456789abcdef-not-there").ok());
}
