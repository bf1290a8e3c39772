// The limits the runner finds in force inside a real sandbox are those the engine asked for, on every engine.
#include "BackendTestSupport.h"
#include "engine/ExecutionEngine.h"

#include <gtest/gtest.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

class EnforcedLimitsTest : public ::testing::TestWithParam<std::string>
{
protected:
    std::unique_ptr<ExecutionEngine> m_engine = test::engineFor(GetParam());
};

} // namespace

TEST_P(EnforcedLimitsTest, resultReportsTheRequestedLimitsInForce)
{
    const SandboxSettings requested;
    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = QStringLiteral("print('ok')\n");
    request.timeout = 60s;

    auto result = m_engine->run(request);

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    const EnforcedLimits &limits = result->enforcedLimits;
    ASSERT_TRUE(limits.reported);
    EXPECT_EQ(limits.memoryBytes, requested.memoryBytes);
    EXPECT_EQ(limits.pids, requested.pidsLimit);
    ASSERT_TRUE(limits.cpus.has_value());
    EXPECT_DOUBLE_EQ(*limits.cpus, requested.cpus);
    EXPECT_EQ(limits.networkInterfaces, QStringList{QStringLiteral("lo")});
    EXPECT_EQ(limits.uid, requested.user.section(QLatin1Char(':'), 0, 0).toInt());
    EXPECT_NE(limits.uid, 0);
    EXPECT_TRUE(limits.readOnlyRoot);
    EXPECT_EQ(limits.rlimits.value(QStringLiteral("nofile")), requested.nofileLimit);
    EXPECT_EQ(limits.rlimits.value(QStringLiteral("core")), 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, EnforcedLimitsTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);
