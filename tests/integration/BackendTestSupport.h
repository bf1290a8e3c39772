#pragma once

#include "backend/ContainerBackend.h"
#include "session/ExecutionEngine.h"

#include <QProcess>
#include <QStringList>

#include <memory>

namespace sandbox::test {

/// The Docker engine from DOCKER_HOST; the test fails when it is unreachable.
std::shared_ptr<ContainerBackend> dockerBackend();
/// An engine with default (hardened) settings on that backend.
std::unique_ptr<ExecutionEngine> dockerEngine();

/// Runs build/bin/llm-sandbox with `arguments`; `environment` entries are added to the test's own.
struct CliRun
{
    int exitCode = -1;
    QByteArray stdoutData;
    QByteArray stderrData;
    qint64 elapsedMs = 0;
};
CliRun runCli(const QStringList &arguments, const QStringList &environment = {}, const QByteArray &input = {});

} // namespace sandbox::test
