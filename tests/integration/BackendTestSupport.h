#pragma once

// What every integration test needs to run against each real container engine. Tests are
// parameterized over the backend name, never copied per engine:
//
//   class MyTest : public ::testing::TestWithParam<std::string> { ... test::engineFor(GetParam()) ... };
//   INSTANTIATE_TEST_SUITE_P(Backends, MyTest, ::testing::ValuesIn(test::backendNames()), test::backendTestName);
//
// Test names end with the backend ("…/podman", or "…_podman" when combined with other
// parameters): CMake gives the tests ending in "podman" the ctest label `podman`, those ending in
// "podman_rootless" the label `podman-rootless`, the others `docker`. An unreachable engine makes the
// tests fail, never skip.
//
// "podman-rootless" is Podman's service of the unprivileged user the tests run as (the socket under its
// XDG_RUNTIME_DIR, as a desktop user has it). Only the language, hostile-code and limits suites run there
// (backendNamesWithRootless()); scripts/test runs them as such a user.

#include "backend/ContainerBackend.h"
#include "engine/ExecutionEngine.h"

#include <QByteArray>
#include <QStringList>
#include <atomic>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace sandbox::test {

/// The engines the integration suites run against: "docker", "podman".
std::vector<std::string> backendNames();
/// backendNames() and "podman-rootless".
std::vector<std::string> backendNamesWithRootless();
/// backendNames() and "kubernetes", for the suites that pass on the kubernetes backend: ctest runs those
/// instances (names ending in "kubernetes") against the test API server (tests/kubernetes/apiserver), label
/// `kubernetes`.
std::vector<std::string> backendNamesWithKubernetes();
/// Every backend variant: docker, podman, podman-rootless and kubernetes.
std::vector<std::string> allBackendNames();
/// Test-name suffix for a backend parameter (gtest names allow only letters, digits and '_').
std::string backendTestName(const ::testing::TestParamInfo<std::string> &info);

/// The backend named `name` (one of backendNamesWithRootless()), configured from the environment like the
/// product's (DOCKER_HOST, CONTAINER_HOST, XDG_RUNTIME_DIR), probed: an error when it does not answer, or when
/// "podman-rootless" names a rootful service.
Result<std::shared_ptr<ContainerBackend>> createBackend(const std::string &name);
/// createBackend(), made once per process; the current test fails when it does not answer.
std::shared_ptr<ContainerBackend> backendFor(const std::string &name);
/// The default (hardened) settings with the code policy off: these tests check the sandbox itself. On
/// "podman-rootless" the limits SANDBOX_ALLOW_UNENFORCED_LIMITS names are accepted, as a user there must. The
/// runtime is SANDBOX_RUNTIME's (the gvisor variant: runsc).
SandboxSettings settingsFor(const std::string &name);
/// Whether SANDBOX_RUNTIME puts the sandboxes under gVisor (the gvisor variant of the suites).
bool underGVisor();
/// An engine with settingsFor(name) on that backend.
std::unique_ptr<ExecutionEngine> engineFor(const std::string &name);
/// Whether this host runs the unified cgroup hierarchy (v2); rootless Podman cannot set limits on v1.
bool hostHasCgroupV2();
/// The variable that names `backend`'s address ("DOCKER_HOST", "CONTAINER_HOST", "KUBECONFIG"), for tests
/// that point the program elsewhere.
QString hostVariable(const std::string &backend);
/// Host processes whose command line contains `needle` (the host sees every container process).
int hostProcessesMatching(const QByteArray &needle);
/// Python for a sandbox's run that looks at the processes it can see: `command_lines(leave_out=())` gives the command
/// line (bytes) of each but the run's own and those in `leave_out`. A process that ends while they are read (its /proc
/// entry gone between the listing and the read: ProcessLookupError) is left out, not taken for an error of the run.
inline constexpr char kCommandLinesPython[] = "import os\n"
                                              "def command_lines(leave_out=()):\n"
                                              "    lines = []\n"
                                              "    for p in os.listdir('/proc'):\n"
                                              "        if not p.isdigit() or int(p) in (os.getpid(), *leave_out):\n"
                                              "            continue\n"
                                              "        try:\n"
                                              "            with open('/proc/%s/cmdline' % p, 'rb') as f:\n"
                                              "                lines.append(f.read())\n"
                                              "        except OSError:\n"
                                              "            pass\n"
                                              "    return lines\n";

/// Runs build/bin/llm-sandbox with `arguments`; `environment` entries ("NAME=value") are added
/// to the test's own. Select the engine with "BACKEND=podman" or `--backend podman`.
struct CliRun
{
    int exitCode = -1;
    QByteArray stdoutData;
    QByteArray stderrData;
    qint64 pid = 0; ///< of the llm-sandbox process: its containers carry it in their owner label
};
/// Containers whose owner label names process `pid` (host:pid:start time) on `backend`.
QStringList containersOwnedBy(ContainerBackend &backend, qint64 pid);
CliRun runCli(const QStringList &arguments, const QStringList &environment = {}, const QByteArray &input = {});

/// A Python session whose interpreter holds `megabytes` MB (written, so resident), and the id of its container: the
/// one container of this process that opening it added. Empty ids (and a test failure) when that went wrong.
struct MemoryHoldingSession
{
    QString sessionId;
    QString containerId;
};
MemoryHoldingSession openMemoryHoldingSession(ExecutionEngine &engine, int megabytes);

/// A TCP listener on every address of this host that counts the connections it accepts: nothing of a sandbox's may
/// reach it, not through an egress proxy either.
class CountingListener
{
public:
    CountingListener();
    ~CountingListener();
    CountingListener(const CountingListener &) = delete;
    CountingListener &operator=(const CountingListener &) = delete;

    int port = 0;
    std::atomic<int> accepted = 0;

private:
    int m_fd = -1;
    std::thread m_thread;
};

} // namespace sandbox::test
