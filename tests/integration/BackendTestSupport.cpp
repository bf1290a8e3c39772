#include "BackendTestSupport.h"

#include "backend/BackendFactory.h"
#include "engine/GVisorRuntime.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <algorithm>
#include <arpa/inet.h>
#include <map>
#include <mutex>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sandbox::test {

std::vector<std::string> backendNames()
{
    return {"docker", "podman"};
}

std::vector<std::string> backendNamesWithRootless()
{
    return {"docker", "podman", "podman-rootless"};
}

std::vector<std::string> backendNamesWithKubernetes()
{
    return {"docker", "podman", "kubernetes"};
}

std::vector<std::string> allBackendNames()
{
    return {"docker", "podman", "podman-rootless", "kubernetes"};
}

std::string backendTestName(const ::testing::TestParamInfo<std::string> &info)
{
    std::string name = info.param;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

Result<std::shared_ptr<ContainerBackend>> createBackend(const std::string &name)
{
    const bool rootless = name == "podman-rootless";
    // The rootless service is the podman backend's default endpoint for an unprivileged user.
    auto backend = BackendFactory::create(rootless ? QStringLiteral("podman") : QString::fromStdString(name));
    if (!backend) {
        return backend.error();
    }
    auto info = (*backend)->probe();
    // An engine that is busy (rootless Podman still removing fifty containers of the test before, beside two other
    // lanes on two cores; Podman's service while fifty gVisor sandboxes start in the Docker lane did not answer for
    // a minute) answers late, not never: it gets three minutes before the tests count it as missing.
    for (int attempt = 1; !info && info.error().code == ErrorCode::EngineUnreachable && attempt < 18; ++attempt) {
        info = (*backend)->probe();
    }
    if (!info) {
        return Error{QStringLiteral("These tests need the %1 engine: %2")
                         .arg(QString::fromStdString(name), info.error().message)};
    }
    if (rootless && !info->rootless) {
        return Error{QStringLiteral("The podman-rootless tests need a rootless Podman service, and %1 is rootful: run "
                                    "them as an unprivileged user whose $XDG_RUNTIME_DIR/podman/podman.sock answers "
                                    "(scripts/test does).")
                         .arg(info->endpoint)};
    }
    return *backend;
}

std::shared_ptr<ContainerBackend> backendFor(const std::string &name)
{
    // One probed backend per engine and process: probing asks the engine for its details,
    // which takes a second on a busy Docker.
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<ContainerBackend>> probed;
    std::lock_guard lock(mutex);
    if (auto it = probed.find(name); it != probed.end()) {
        return it->second;
    }
    auto backend = createBackend(name);
    if (!backend) {
        ADD_FAILURE() << backend.error().message.toStdString();
        return nullptr;
    }
    probed.emplace(name, *backend);
    return *backend;
}

bool underGVisor()
{
    OciRuntime runtime;
    runtime.name = qEnvironmentVariable("SANDBOX_RUNTIME");
    return GVisorRuntime::isGVisor(runtime);
}

SandboxSettings settingsFor(const std::string &name)
{
    SandboxSettings settings;
    settings.policy = QStringLiteral("permissive");
    // The gvisor variant of the suites (ctest label `gvisor`) runs them with SANDBOX_RUNTIME=runsc.
    settings.runtime = qEnvironmentVariable("SANDBOX_RUNTIME");
    if (name == "podman-rootless") {
        auto fromEnvironment = SandboxSettings::fromEnvironment();
        EXPECT_TRUE(fromEnvironment.ok()) << fromEnvironment.error().message.toStdString();
        if (fromEnvironment) {
            settings.allowUnenforcedLimits = fromEnvironment->allowUnenforcedLimits;
        }
    }
    return settings;
}

std::unique_ptr<ExecutionEngine> engineFor(const std::string &name)
{
    auto backend = backendFor(name);
    if (!backend) {
        return nullptr;
    }
    return std::make_unique<ExecutionEngine>(backend, settingsFor(name));
}

bool hostHasCgroupV2()
{
    return QFile::exists(QStringLiteral("/sys/fs/cgroup/cgroup.controllers"));
}

QString hostVariable(const std::string &backend)
{
    if (backend == "kubernetes") {
        return QStringLiteral("KUBECONFIG");
    }
    return backend == "docker" ? QStringLiteral("DOCKER_HOST") : QStringLiteral("CONTAINER_HOST");
}

CliRun runCli(const QStringList &arguments, const QStringList &environment, const QByteArray &input)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &entry : environment) {
        env.insert(entry.section(QLatin1Char('='), 0, 0), entry.section(QLatin1Char('='), 1));
    }
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(LLM_SANDBOX_BIN), arguments);
    EXPECT_TRUE(process.waitForStarted());
    const qint64 pid = process.processId();
    if (!input.isEmpty()) {
        process.write(input);
    }
    process.closeWriteChannel();
    EXPECT_TRUE(process.waitForFinished(180000)) << "llm-sandbox did not finish";
    CliRun run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.stdoutData = process.readAllStandardOutput();
    run.stderrData = process.readAllStandardError();
    run.pid = pid;
    return run;
}

QStringList containersOwnedBy(ContainerBackend &backend, qint64 pid)
{
    auto containers = backend.listContainersWithLabels(ExecutionEngine::ownerLabel());
    EXPECT_TRUE(containers.ok());
    QStringList owned;
    if (!containers) {
        return owned;
    }
    for (auto it = containers->begin(); it != containers->end(); ++it) {
        if (it.value().section(QLatin1Char(':'), 1, 1) == QString::number(pid)) {
            owned << it.key();
        }
    }
    return owned;
}

MemoryHoldingSession openMemoryHoldingSession(ExecutionEngine &engine, int megabytes)
{
    auto ours = [&] {
        auto listed = engine.backend().listContainers(ExecutionEngine::ownerLabel(), ExecutionEngine::ownerIdentity());
        EXPECT_TRUE(listed.ok()) << (listed ? "" : listed.error().message.toStdString());
        return listed ? *listed : QStringList();
    };
    const QStringList before = ours();
    SessionRequest request;
    request.language = QStringLiteral("python");
    auto session = engine.createSession(request);
    if (!session) {
        ADD_FAILURE() << session.error().message.toStdString();
        return {};
    }
    QStringList added = ours();
    added.removeIf([&](const QString &id) { return before.contains(id); });
    if (added.size() != 1) {
        ADD_FAILURE() << "opening the session added " << added.size() << " containers, not one";
        return {};
    }
    RunRequest hold;
    hold.language.clear(); // the session's
    hold.sessionId = session->id;
    // bytes of one value: every page written, so all of it is resident (zeroed memory may not be).
    hold.code = QStringLiteral("held = b'x' * (%1 * 1024 * 1024)\nprint(len(held))").arg(megabytes);
    auto held = engine.run(hold);
    if (!held || held->stdoutData.trimmed() != QByteArray::number(qint64(megabytes) * 1024 * 1024)) {
        ADD_FAILURE() << "the session did not allocate: "
                      << (held ? held->stderrData.toStdString() : held.error().message.toStdString());
        return {};
    }
    return {session->id, added.first()};
}

int hostProcessesMatching(const QByteArray &needle)
{
    int count = 0;
    for (const QString &pid : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile cmdline("/proc/" + pid + "/cmdline");
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().replace('\0', ' ').contains(needle)) {
            ++count;
        }
    }
    return count;
}

CountingListener::CountingListener()
{
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    EXPECT_EQ(::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
    socklen_t size = sizeof address;
    ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &size);
    port = ntohs(address.sin_port);
    EXPECT_EQ(::listen(m_fd, 16), 0);
    m_thread = std::thread([this] {
        for (int client; (client = ::accept(m_fd, nullptr, nullptr)) >= 0;) {
            ++accepted;
            ::close(client);
        }
    });
}

CountingListener::~CountingListener()
{
    ::shutdown(m_fd, SHUT_RDWR);
    ::close(m_fd);
    m_thread.join();
}

} // namespace sandbox::test
