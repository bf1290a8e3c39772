#include "BackendTestSupport.h"

#include "backend/BackendFactory.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <map>
#include <mutex>

namespace sandbox::test {

std::vector<std::string> backendNames()
{
    return {"docker", "podman"};
}

std::vector<std::string> backendNamesWithKubernetes()
{
    return {"docker", "podman", "kubernetes"};
}

std::string backendTestName(const ::testing::TestParamInfo<std::string> &info)
{
    return info.param;
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
    auto backend = BackendFactory::create(QString::fromStdString(name));
    if (!backend) {
        ADD_FAILURE() << "No " << name << " backend: " << backend.error().message.toStdString();
        return nullptr;
    }
    auto info = (*backend)->probe();
    if (!info) {
        ADD_FAILURE() << "These tests need the " << name << " engine: " << info.error().message.toStdString();
        return *backend;
    }
    probed.emplace(name, *backend);
    return *backend;
}

std::unique_ptr<ExecutionEngine> engineFor(const std::string &name)
{
    auto backend = backendFor(name);
    if (!backend) {
        return nullptr;
    }
    // These tests check the sandbox itself, which must hold with the code policy off.
    SandboxSettings settings;
    settings.policy = QStringLiteral("permissive");
    return std::make_unique<ExecutionEngine>(backend, settings);
}

QString hostVariable(const std::string &backend)
{
    if (backend == "kubernetes") {
        return QStringLiteral("KUBECONFIG");
    }
    return backend == "podman" ? QStringLiteral("CONTAINER_HOST") : QStringLiteral("DOCKER_HOST");
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

} // namespace sandbox::test
