// The limits the runner finds in force inside a real sandbox are those the engine asked for, on every engine; where
// an engine drops some (rootless Podman on a cgroup v1 host), the sandbox is refused unless the user accepts that.
#include "BackendTestSupport.h"
#include "backend/DockerBackend.h"
#include "engine/ContainerSpecFactory.h"
#include "engine/ExecutionEngine.h"

#include <gmock/gmock.h>
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
    EXPECT_GE(limits.uid, ContainerSpecFactory::kFirstSandboxUid) << "not a uid of its own";
    EXPECT_EQ(limits.gid, limits.uid);
    EXPECT_TRUE(limits.readOnlyRoot);
    EXPECT_EQ(limits.rlimits.value(QStringLiteral("nofile")), requested.nofileLimit);
    EXPECT_EQ(limits.rlimits.value(QStringLiteral("core")), 0);
    // The hardening, read from /proc/self/status inside: a seccomp filter, no new privileges, no capabilities.
    EXPECT_EQ(limits.seccompMode, 2);
    EXPECT_EQ(limits.noNewPrivs, true);
    ASSERT_EQ(limits.capabilities.size(), 4);
    for (auto it = limits.capabilities.begin(); it != limits.capabilities.end(); ++it) {
        EXPECT_EQ(it.value(), 0u) << it.key().toStdString();
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, EnforcedLimitsTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);

namespace {

/// Rootless Podman on this cgroup v1 host: it creates containers without their memory, pids and CPU limits (it says
/// so only as a warning on its own command line), so the engine must notice and refuse.
class UnenforcedLimitsTest : public ::testing::TestWithParam<std::string>
{
protected:
    void SetUp() override
    {
        if (test::hostHasCgroupV2()) {
            GTEST_SKIP() << "this host has cgroup v2, where rootless Podman sets the limits of the controllers "
                            "delegated to the user; these tests are about a cgroup v1 host";
        }
    }

    static RunRequest pythonRun()
    {
        RunRequest request;
        request.language = QStringLiteral("python");
        request.code = QStringLiteral("print('ok')\n");
        request.timeout = 60s;
        return request;
    }
};

} // namespace

TEST_P(UnenforcedLimitsTest, sandboxIsRefusedByDefaultNamingTheLimitsTheEngineAndTheFix)
{
    auto backend = test::backendFor(GetParam());
    ASSERT_TRUE(backend);
    // The defaults, whatever SANDBOX_ALLOW_UNENFORCED_LIMITS says in this test's environment.
    SandboxSettings settings;
    settings.policy = QStringLiteral("permissive");
    ExecutionEngine engine(backend, settings);

    auto result = engine.run(pythonRun());

    ASSERT_FALSE(result.ok()) << "ran without its limits: " << result->stdoutData.toStdString();
    EXPECT_EQ(result.error().code, ErrorCode::LimitsNotEnforced);
    const std::string message = result.error().message.toStdString();
    EXPECT_THAT(message, ::testing::HasSubstr("The sandbox was refused: podman (rootless) did not put these limits in "
                                              "force: memory (asked for "));
    EXPECT_THAT(message, ::testing::HasSubstr("pids (asked for "));
    EXPECT_THAT(message, ::testing::HasSubstr("found no limit"));
    EXPECT_THAT(message, ::testing::HasSubstr("rootless podman cannot set resource limits on cgroup v1: the host "
                                              "needs cgroup v2 with the memory, pids and cpu controllers delegated"));
    EXPECT_THAT(message, ::testing::HasSubstr("set SANDBOX_ALLOW_UNENFORCED_LIMITS=memory,pids"));
}

TEST_P(UnenforcedLimitsTest, acceptedWeakerIsolationRunsAndTheResultShowsWhatIsInForce)
{
    auto engine = test::engineFor(GetParam());
    ASSERT_TRUE(engine);

    auto result = engine->run(pythonRun());

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "ok\n");
    const EnforcedLimits &limits = result->enforcedLimits;
    ASSERT_TRUE(limits.reported);
    EXPECT_EQ(limits.cgroupVersion, 1);
    EXPECT_FALSE(limits.memoryBytes.has_value());
    EXPECT_FALSE(limits.pids.has_value());
    // What rootless Podman still gives on cgroup v1: no network, a non-root user (mapped to a subordinate id on the
    // host), a read-only root. (Before Podman 5.5 not the ulimits either: its Docker-compatible API drops them.)
    EXPECT_EQ(limits.networkInterfaces, QStringList{QStringLiteral("lo")});
    EXPECT_GE(limits.uid, ContainerSpecFactory::kFirstSandboxUid);
    EXPECT_TRUE(limits.readOnlyRoot);
}

INSTANTIATE_TEST_SUITE_P(Rootless, UnenforcedLimitsTest, ::testing::Values("podman-rootless"), test::backendTestName);

namespace {

/// A Docker engine that silently runs its containers without the seccomp profile it was given, as an engine with
/// seccomp compiled out or a wrapper that rewrites the request would.
class SeccompDroppingBackend final : public DockerBackend
{
public:
    using DockerBackend::DockerBackend;

    Result<QStringList> securityOptions(const ContainerSpec &spec) const override
    {
        auto options = DockerBackend::securityOptions(spec);
        if (!options) {
            return options;
        }
        QStringList kept;
        for (const QString &option : *options) {
            if (!option.startsWith(QLatin1String("seccomp="))) {
                kept.append(option);
            }
        }
        kept.append(QStringLiteral("seccomp=unconfined"));
        return kept;
    }
};

} // namespace

TEST(HardeningTest, sandboxWhoseEngineDroppedTheSeccompProfileIsRefused)
{
    auto endpoint = DockerBackend::endpointFromEnvironment();
    ASSERT_TRUE(endpoint.ok()) << endpoint.error().message.toStdString();
    SandboxSettings settings;
    settings.policy = QStringLiteral("permissive");
    ExecutionEngine engine(std::make_shared<SeccompDroppingBackend>(*endpoint), settings);
    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = QStringLiteral("print('ran without seccomp')\n");
    request.timeout = 60s;

    auto result = engine.run(request);

    ASSERT_FALSE(result.ok()) << "ran without its seccomp filter: " << result->stdoutData.toStdString();
    EXPECT_EQ(result.error().code, ErrorCode::LimitsNotEnforced);
    EXPECT_THAT(result.error().message.toStdString(),
                ::testing::HasSubstr("seccomp (asked for a seccomp filter, found seccomp mode 0)"));
}
