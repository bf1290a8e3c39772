// gVisor as the sandboxes' OCI runtime (SANDBOX_RUNTIME=runsc): a kernel-facing probe inside sees gVisor's kernel (its
// /proc/version), not the host's; a runtime the engine lacks is a clear error before any container exists (Docker:
// daemon.json; a cluster: its RuntimeClasses, on the test API server).
#include "BackendTestSupport.h"
#include "engine/ExecutionEngine.h"

#include <QFile>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

/// Prints the kernel's name for itself.
const QString kKernelProbe = QStringLiteral("print(open('/proc/version').read().strip())\n");
/// What gVisor's Sentry answers, whatever the host runs.
constexpr char kGVisorKernel[] = "Linux version 4.4.0 #1 SMP Sun Jan 10 15:06:54 PST 2016";

RunRequest kernelProbe()
{
    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = kKernelProbe;
    request.timeout = 60s;
    return request;
}

QByteArray hostKernel()
{
    QFile version(QStringLiteral("/proc/version"));
    return version.open(QIODevice::ReadOnly) ? version.readAll().trimmed() : QByteArray();
}

std::unique_ptr<ExecutionEngine> engineWithRuntime(const std::string &backend, const QString &runtime)
{
    SandboxSettings settings = test::settingsFor(backend);
    settings.runtime = runtime;
    settings.poolSize = 0;
    auto engineBackend = test::backendFor(backend);
    return engineBackend ? std::make_unique<ExecutionEngine>(engineBackend, settings) : nullptr;
}

} // namespace

namespace {

/// Docker with its runtime runsc; Podman's service whose runtime is runsc; the test API server with a RuntimeClass
/// gvisor whose handler is runsc (ctest).
class GVisorKernelTest : public ::testing::TestWithParam<std::string>
{
};

} // namespace

TEST_P(GVisorKernelTest, kernelProbeSeesGVisorsKernelUnderRunsc)
{
    auto engine = engineWithRuntime(GetParam(), QStringLiteral("runsc"));
    ASSERT_TRUE(engine);

    auto result = engine->run(kernelProbe());

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result->exitCode, 0) << result->stderrData.toStdString();
    const QByteArray kernel = result->stdoutData.trimmed();
    EXPECT_NE(kernel, hostKernel()) << "the sandbox sees the host's kernel";
    EXPECT_EQ(kernel, kGVisorKernel);
    // The runner's report is what is in force inside gVisor: the profile, which the Sentry applies (runsc
    // --oci-seccomp, as scripts/lib/setup.sh registers it for Docker, whose containers the test API server runs).
    EXPECT_EQ(result->enforcedLimits.seccompMode, 2);
}

INSTANTIATE_TEST_SUITE_P(Backends, GVisorKernelTest, ::testing::Values("docker", "podman", "kubernetes"),
                         test::backendTestName);

TEST(GVisorTest, kernelProbeSeesTheHostsKernelUnderTheDefaultRuntime)
{
    auto engine = engineWithRuntime("docker", QString());
    ASSERT_TRUE(engine);

    auto result = engine->run(kernelProbe());

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result->exitCode, 0) << result->stderrData.toStdString();
    EXPECT_EQ(result->stdoutData.trimmed(), hostKernel());
    EXPECT_EQ(result->enforcedLimits.seccompMode, 2);
}

namespace {

class MissingRuntimeTest : public ::testing::TestWithParam<std::string>
{
};

} // namespace

TEST_P(MissingRuntimeTest, isAClearErrorBeforeAnyContainerIsCreated)
{
    auto backend = test::backendFor(GetParam());
    ASSERT_TRUE(backend);
    // This process's containers only: other tests may be making containers on the same engine at the same time.
    auto before = backend->listContainers(ExecutionEngine::ownerLabel(), ExecutionEngine::ownerIdentity());
    ASSERT_TRUE(before.ok()) << before.error().message.toStdString();
    // runsc: the test API server offers no RuntimeClass; Docker has no runtime by this name.
    const QString missing = GetParam() == "kubernetes" ? QStringLiteral("runsc") : QStringLiteral("no-such-runtime");
    auto engine = engineWithRuntime(GetParam(), missing);

    auto result = engine->run(kernelProbe());

    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::BadRequest);
    const std::string message = result.error().message.toStdString();
    EXPECT_NE(message.find("has no OCI runtime \"" + missing.toStdString() + "\""), std::string::npos) << message;
    EXPECT_NE(message.find(GetParam() == "kubernetes" ? "RuntimeClass" : "daemon.json"), std::string::npos) << message;
    auto after = backend->listContainers(ExecutionEngine::ownerLabel(), ExecutionEngine::ownerIdentity());
    ASSERT_TRUE(after.ok()) << after.error().message.toStdString();
    EXPECT_EQ(*after, *before) << "a container was created";
}

INSTANTIATE_TEST_SUITE_P(Backends, MissingRuntimeTest, ::testing::Values("docker", "kubernetes"),
                         test::backendTestName);
