#include "DockerTestSupport.h"

#include "backend/DockerBackend.h"

#include <QElapsedTimer>

#include <gtest/gtest.h>

namespace sandbox::test {

std::shared_ptr<ContainerBackend> dockerBackend()
{
    auto endpoint = DockerBackend::endpointFromEnvironment();
    EXPECT_TRUE(endpoint.ok());
    auto backend = std::make_shared<DockerBackend>(*endpoint);
    auto info = backend->probe();
    EXPECT_TRUE(info.ok()) << "These tests need a Docker engine: " << info.error().message.toStdString();
    return backend;
}

std::unique_ptr<ExecutionEngine> dockerEngine()
{
    return std::make_unique<ExecutionEngine>(dockerBackend(), SandboxSettings{});
}

CliRun runCli(const QStringList &arguments, const QStringList &environment, const QByteArray &input)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &entry : environment) {
        env.insert(entry.section(QLatin1Char('='), 0, 0), entry.section(QLatin1Char('='), 1));
    }
    process.setProcessEnvironment(env);
    QElapsedTimer timer;
    timer.start();
    process.start(QStringLiteral(LLM_SANDBOX_BIN), arguments);
    EXPECT_TRUE(process.waitForStarted());
    if (!input.isEmpty()) {
        process.write(input);
    }
    process.closeWriteChannel();
    EXPECT_TRUE(process.waitForFinished(180000)) << "llm-sandbox did not finish";
    CliRun run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.stdoutData = process.readAllStandardOutput();
    run.stderrData = process.readAllStandardError();
    run.elapsedMs = timer.elapsed();
    return run;
}

} // namespace sandbox::test
