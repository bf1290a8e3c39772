#pragma once

#include "backend/ContainerBackend.h"
#include "settings/SandboxSettings.h"
#include "util/Result.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <QTextStream>

#include <memory>
#include <optional>

namespace sandbox::cli {

/// Exit statuses of the command line's own failures (a program's own status passes through).
enum ExitStatus
{
    ExitUsage = 2,
    ExitTimeout = 124,
    ExitFailure = 125, ///< the sandbox could not run the code (engine unreachable, image missing, ...)
};

/// The --backend option every command that talks to an engine takes.
QCommandLineOption backendOption(
    const QString &description = QStringLiteral("docker, podman or kubernetes (default: $BACKEND, then docker)."));

/// Parses a command's `arguments`. Returns the status to exit with when the command is done already:
/// ExitUsage after printing the parser's error, 0 after printing --help; nullopt when it should go on.
std::optional<int> parseOrExit(QCommandLineParser &parser, const QStringList &arguments);

/// Prints "llm-sandbox: MESSAGE" on stderr: one line, for a person.
void printError(const QString &message);
QTextStream &out();
QTextStream &err();

/// Settings from the environment and the backend from --backend / BACKEND; an error is printed.
struct Environment
{
    SandboxSettings settings;
    std::shared_ptr<ContainerBackend> backend;

    static Result<Environment> load(const QString &backendName);
};

} // namespace sandbox::cli
