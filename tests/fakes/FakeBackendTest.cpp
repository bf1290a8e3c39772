// The fake backend's containers speak the runner protocol (runner/PROTOCOL.md) as the real runner does.
#include "fakes/FakeBackend.h"

#include "runnerclient/RunnerClient.h"
#include "runnerclient/RunnerMessages.h"

#include <QJsonArray>
#include <QScopeGuard>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::test;
using namespace std::chrono_literals;

namespace {

constexpr auto kDeadline = 10s;

class FakeBackendTest : public ::testing::Test
{
protected:
    /// Starts a container and waits for its runner's `ready`.
    std::unique_ptr<RunnerClient> startRunner()
    {
        ContainerSpec spec;
        spec.image = QStringLiteral("llm-sandbox/python:test");
        auto id = m_backend.createContainer(spec);
        EXPECT_TRUE(id.ok());
        m_containerId = *id;
        auto stream = m_backend.startAttached(*id);
        EXPECT_TRUE(stream.ok());
        auto runner = std::make_unique<RunnerClient>(std::move(*stream));
        auto ready = runner->waitReady(kDeadline);
        EXPECT_TRUE(ready.ok()) << ready.error().message.toStdString();
        return runner;
    }

    static QJsonObject runRequest(const QString &id, const QString &path, const QByteArray &code)
    {
        return {{QStringLiteral("op"), QStringLiteral("run")},
                {QStringLiteral("id"), id},
                {QStringLiteral("workdir"), QStringLiteral("/sandbox")},
                {QStringLiteral("files"),
                 QJsonArray{QJsonObject{{QStringLiteral("path"), path},
                                        {QStringLiteral("data"), QString::fromLatin1(code.toBase64())}}}},
                {QStringLiteral("steps"),
                 QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("run")},
                                        {QStringLiteral("argv"), QJsonArray{QStringLiteral("python3"), path}}}}}};
    }

    /// Sends `request` as written on the wire (the typed client's parser checks it like the runner would).
    static Result<void> sendJson(RunnerClient &runner, const QJsonObject &request)
    {
        auto typed = runnerRequestFromJson(request);
        if (!typed) {
            return typed.error();
        }
        return runner.send(*typed);
    }

    /// The next message of type `event`, skipping others; an empty object when none came before the deadline.
    static QJsonObject nextOfType(RunnerClient &runner, const QString &event)
    {
        const auto giveUpAt = std::chrono::steady_clock::now() + kDeadline;
        while (std::chrono::steady_clock::now() < giveUpAt) {
            auto message = runner.next(100ms);
            if (!message) {
                ADD_FAILURE() << message.error().message.toStdString();
                return {};
            }
            if (!message->has_value()) {
                continue;
            }
            const QJsonObject json = toJson(**message);
            if (json.value(QStringLiteral("ev")).toString() == event) {
                return json;
            }
        }
        ADD_FAILURE() << "no " << event.toStdString() << " message";
        return {};
    }

    FakeBackend m_backend;
    QString m_containerId;
};

TEST_F(FakeBackendTest, scriptedRunStreamsItsOutputAndEndsWithDone)
{
    m_backend.setScript("print(1)", FakeRunScript::printing("1\n", 3));
    auto runner = startRunner();

    ASSERT_TRUE(sendJson(*runner, runRequest(QStringLiteral("r1"), QStringLiteral("main.py"), "print(1)")).ok());

    const QJsonObject output = nextOfType(*runner, QStringLiteral("output"));
    EXPECT_EQ(QByteArray::fromBase64(output.value(QStringLiteral("data")).toString().toLatin1()), "1\n");
    const QJsonObject done = nextOfType(*runner, QStringLiteral("done"));
    EXPECT_EQ(done.value(QStringLiteral("id")).toString(), QStringLiteral("r1"));
    EXPECT_EQ(done.value(QStringLiteral("exit_code")).toInt(), 3);
    EXPECT_EQ(done.value(QStringLiteral("reason")).toString(), QStringLiteral("exit"));
    EXPECT_EQ(m_backend.files(m_containerId).value(QStringLiteral("/sandbox/main.py")), "print(1)");
}

TEST_F(FakeBackendTest, runTheRealRunnerRefusesGetsAnErrorAndADone)
{
    auto runner = startRunner();

    ASSERT_TRUE(sendJson(*runner, runRequest(QStringLiteral("r1"), QStringLiteral("../escape.py"), "x")).ok());

    const QJsonObject error = nextOfType(*runner, QStringLiteral("error"));
    EXPECT_EQ(error.value(QStringLiteral("id")).toString(), QStringLiteral("r1"));
    const QJsonObject done = nextOfType(*runner, QStringLiteral("done"));
    EXPECT_EQ(done.value(QStringLiteral("reason")).toString(), QStringLiteral("error"));
    EXPECT_EQ(done.value(QStringLiteral("exit_code")).toInt(), -1);
    EXPECT_TRUE(m_backend.runs().isEmpty());
}

TEST_F(FakeBackendTest, cancelOfAQueuedRunAnswersItsDoneWhileTheFirstRuns)
{
    auto gate = std::make_shared<FakeRunGate>();
    m_backend.setScript("first", FakeRunScript::heldBy(gate));
    auto runner = startRunner();
    const auto release = qScopeGuard([&] { gate->open(); });

    ASSERT_TRUE(sendJson(*runner, runRequest(QStringLiteral("r1"), QStringLiteral("main.py"), "first")).ok());
    ASSERT_TRUE(gate->waitForArrivals());
    ASSERT_TRUE(sendJson(*runner, runRequest(QStringLiteral("r2"), QStringLiteral("main.py"), "second")).ok());
    ASSERT_TRUE(sendJson(*runner, {{QStringLiteral("op"), QStringLiteral("cancel")},
                                   {QStringLiteral("id"), QStringLiteral("r2")}})
                    .ok());

    const QJsonObject cancelled = nextOfType(*runner, QStringLiteral("done"));
    EXPECT_EQ(cancelled.value(QStringLiteral("id")).toString(), QStringLiteral("r2"));
    EXPECT_EQ(cancelled.value(QStringLiteral("reason")).toString(), QStringLiteral("cancelled"));
    gate->open();
    const QJsonObject first = nextOfType(*runner, QStringLiteral("done"));
    EXPECT_EQ(first.value(QStringLiteral("id")).toString(), QStringLiteral("r1"));
    EXPECT_EQ(first.value(QStringLiteral("reason")).toString(), QStringLiteral("exit"));
}

TEST_F(FakeBackendTest, filesAreAnsweredAtOnceAlsoDuringARun)
{
    auto gate = std::make_shared<FakeRunGate>();
    m_backend.setScript("first", FakeRunScript::heldBy(gate));
    auto runner = startRunner();
    const auto release = qScopeGuard([&] { gate->open(); });
    ASSERT_TRUE(sendJson(*runner, runRequest(QStringLiteral("r1"), QStringLiteral("main.py"), "first")).ok());
    ASSERT_TRUE(gate->waitForArrivals());

    ASSERT_TRUE(sendJson(*runner, {{QStringLiteral("op"), QStringLiteral("put_file")},
                                   {QStringLiteral("id"), QStringLiteral("f1")},
                                   {QStringLiteral("workdir"), QStringLiteral("/sandbox")},
                                   {QStringLiteral("path"), QStringLiteral("data/in.csv")},
                                   {QStringLiteral("data"), QString::fromLatin1(QByteArray("1,2").toBase64())}})
                    .ok());
    EXPECT_EQ(nextOfType(*runner, QStringLiteral("file")).value(QStringLiteral("size")).toInt(), 3);
    ASSERT_TRUE(sendJson(*runner, {{QStringLiteral("op"), QStringLiteral("get_file")},
                                   {QStringLiteral("id"), QStringLiteral("f2")},
                                   {QStringLiteral("workdir"), QStringLiteral("/sandbox")},
                                   {QStringLiteral("path"), QStringLiteral("data/in.csv")}})
                    .ok());
    const QJsonObject file = nextOfType(*runner, QStringLiteral("file"));
    EXPECT_EQ(QByteArray::fromBase64(file.value(QStringLiteral("data")).toString().toLatin1()), "1,2");
    ASSERT_TRUE(sendJson(*runner, {{QStringLiteral("op"), QStringLiteral("get_file")},
                                   {QStringLiteral("id"), QStringLiteral("f3")},
                                   {QStringLiteral("workdir"), QStringLiteral("/sandbox")},
                                   {QStringLiteral("path"), QStringLiteral("missing.txt")}})
                    .ok());
    EXPECT_EQ(nextOfType(*runner, QStringLiteral("error")).value(QStringLiteral("id")).toString(),
              QStringLiteral("f3"));
}

TEST_F(FakeBackendTest, killedContainerEndsItsStream)
{
    auto runner = startRunner();

    ASSERT_TRUE(m_backend.killContainer(m_containerId));

    EXPECT_FALSE(runner->next(kDeadline).ok());
    EXPECT_FALSE(sendJson(*runner, {{QStringLiteral("op"), QStringLiteral("ping")}}).ok());
}

TEST_F(FakeBackendTest, statsAndSummariesDescribeLiveContainersOnly)
{
    auto runner = startRunner();
    auto stats = m_backend.containerStats(m_containerId);
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->pids, 1);
    m_backend.setContainerStats(m_containerId, ContainerStats{.memoryBytes = 50 << 20, .memoryLimitBytes = 1 << 30});
    EXPECT_EQ(m_backend.containerStats(m_containerId)->memoryBytes, 50 << 20);

    ContainerSpec labelled;
    labelled.image = QStringLiteral("llm-sandbox/ruby:test");
    labelled.labels = {{QStringLiteral("owner"), QStringLiteral("me")}};
    auto other = m_backend.createContainer(labelled);
    ASSERT_TRUE(other.ok());
    auto summaries = m_backend.listContainerSummaries(QStringLiteral("owner"));
    ASSERT_TRUE(summaries.ok());
    ASSERT_EQ(summaries->size(), 1);
    EXPECT_EQ(summaries->first().id, *other);
    EXPECT_EQ(summaries->first().image, labelled.image);
    EXPECT_EQ(summaries->first().state, QStringLiteral("created"));

    ASSERT_TRUE(m_backend.removeContainer(*other).ok());
    EXPECT_TRUE(m_backend.listContainerSummaries(QStringLiteral("owner"))->isEmpty());
    EXPECT_EQ(m_backend.containerStats(*other).error().code, ErrorCode::NotFound);
}

} // namespace
