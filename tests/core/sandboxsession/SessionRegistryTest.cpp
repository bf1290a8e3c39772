#include "sandboxsession/SessionRegistry.h"

#include "WaitUntil.h"
#include "fakes/FakeBackend.h"

#include <atomic>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::test;
using namespace std::chrono_literals;

namespace {

/// A steady clock the test moves by hand.
class ManualClock final
{
public:
    void advance(std::chrono::seconds by) { m_offset += std::chrono::duration_cast<Duration>(by).count(); }
    SessionRegistry::Clock function()
    {
        return [this] {
            return m_start + Duration(m_offset.load());
        };
    }

private:
    using Duration = std::chrono::steady_clock::duration;
    const std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    std::atomic<Duration::rep> m_offset = 0;
};

class SessionRegistryTest : public ::testing::Test
{
protected:
    /// A session whose container is a started fake one.
    std::shared_ptr<SessionRegistry::Session> newSession()
    {
        ContainerSpec spec;
        spec.image = QStringLiteral("llm-sandbox/python:test");
        auto id = m_backend->createContainer(spec);
        EXPECT_TRUE(id.ok());
        auto stream = m_backend->startAttached(*id);
        EXPECT_TRUE(stream.ok());
        auto session = std::make_shared<SessionRegistry::Session>();
        session->info.language = QStringLiteral("python");
        session->container =
            std::make_unique<SandboxContainer>(*m_backend, std::make_shared<PendingRemovals>(), *id, spec.image,
                                               std::make_unique<RunnerClient>(std::move(*stream)));
        return session;
    }

    std::shared_ptr<FakeBackend> m_backend = std::make_shared<FakeBackend>();
    ManualClock m_clock;
    SessionRegistry m_registry{10s, 4, m_clock.function()};
};

TEST_F(SessionRegistryTest, sessionIdleForItsTimeoutExpiresAndItsContainerIsRemoved)
{
    auto added = m_registry.add(newSession());
    ASSERT_TRUE(added.ok());

    m_clock.advance(9s);
    m_registry.reapExpired();
    EXPECT_TRUE(m_registry.find(added->id, {}).ok());
    EXPECT_EQ(m_backend->containersRemoved(), 0);

    m_clock.advance(1s);
    m_registry.reapExpired();
    auto found = m_registry.find(added->id, {});
    ASSERT_FALSE(found.ok());
    EXPECT_EQ(found.error().code, ErrorCode::NotFound);
    // The reaper thread may be the one that took it: its container goes when that thread lets go.
    EXPECT_TRUE(waitUntil([&] { return m_backend->containersRemoved() == 1; }));
    EXPECT_TRUE(m_backend->liveContainers().isEmpty());
}

TEST_F(SessionRegistryTest, useRestartsTheIdleTime)
{
    auto added = m_registry.add(newSession());
    ASSERT_TRUE(added.ok());
    auto session = m_registry.find(added->id, {});
    ASSERT_TRUE(session.ok());

    m_clock.advance(8s);
    m_registry.touch(**session, true);
    m_clock.advance(8s);
    m_registry.reapExpired();
    EXPECT_TRUE(m_registry.find(added->id, {}).ok());

    m_clock.advance(2s);
    m_registry.reapExpired();
    EXPECT_FALSE(m_registry.find(added->id, {}).ok());
}

TEST_F(SessionRegistryTest, sessionInUseNeverExpiresUnderItsRun)
{
    auto added = m_registry.add(newSession());
    ASSERT_TRUE(added.ok());
    auto session = m_registry.find(added->id, {});
    ASSERT_TRUE(session.ok());

    {
        const std::lock_guard running((*session)->use);
        m_clock.advance(1h);
        m_registry.reapExpired();
        EXPECT_TRUE(m_registry.find(added->id, {}).ok());
    }
    m_registry.reapExpired();
    EXPECT_FALSE(m_registry.find(added->id, {}).ok());
}

TEST_F(SessionRegistryTest, addingBeyondTheLimitIsLimitReached)
{
    for (int i = 0; i < 4; ++i) {
        ASSERT_TRUE(m_registry.add(newSession()).ok());
    }
    auto fifth = m_registry.add(newSession());
    ASSERT_FALSE(fifth.ok());
    EXPECT_EQ(fifth.error().code, ErrorCode::LimitReached);
}

} // namespace

namespace {

TEST_F(SessionRegistryTest, aSessionExistsOnlyForItsOwner)
{
    auto session = newSession();
    session->info.owner = QStringLiteral("mcp-session-a");
    auto added = m_registry.add(std::move(session));
    ASSERT_TRUE(added.ok());

    EXPECT_TRUE(m_registry.find(added->id, QStringLiteral("mcp-session-a")).ok());
    EXPECT_EQ(m_registry.list(QStringLiteral("mcp-session-a")).size(), 1);
    // Another owner (another MCP session, or the process's own client) is told exactly what a closed session tells.
    for (const QString &other : {QStringLiteral("mcp-session-b"), QString()}) {
        auto found = m_registry.find(added->id, other);
        ASSERT_FALSE(found.ok());
        EXPECT_EQ(found.error().code, ErrorCode::NotFound);
        QString closedMessage = m_registry.find(QStringLiteral("never-opened"), other).error().message;
        EXPECT_EQ(found.error().message, closedMessage.replace(QStringLiteral("never-opened"), added->id));
        EXPECT_TRUE(m_registry.list(other).isEmpty());
        EXPECT_FALSE(m_registry.close(added->id, other));
    }
    EXPECT_TRUE(m_registry.close(added->id, QStringLiteral("mcp-session-a")));
}

} // namespace
