#include "cli/RunCommand.h"

#include "AppContext.h"
#include "SignalCanceller.h"
#include "cli/CliContext.h"
#include "engine/ExecutionEngine.h"
#include "engine/RunResultJson.h"
#include "folders/SharedFolder.h"
#include "lang/LanguageRegistry.h"
#include "security/CodePolicy.h"
#include "util/PrivateFiles.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <unistd.h>

namespace sandbox::cli {

namespace {

class RunCommand final
{
    Q_DECLARE_TR_FUNCTIONS(RunCommand)
};

/// Passes the program's output through as it arrives, byte for byte.
class PassThrough final : public RunObserver
{
public:
    explicit PassThrough(bool quiet) : m_quiet(quiet) {}

    void runOutput(const QString &, OutputStream stream, const QByteArray &chunk) override
    {
        if (m_quiet) {
            return;
        }
        const int fd = stream == OutputStream::Stderr ? STDERR_FILENO : STDOUT_FILENO;
        qsizetype offset = 0;
        while (offset < chunk.size()) {
            const ssize_t written = ::write(fd, chunk.constData() + offset, size_t(chunk.size() - offset));
            if (written <= 0) {
                return; // a closed pipe on our side must not stop the run
            }
            offset += written;
        }
    }

    void runProgress(const QString &, const RunProgress &progress) override
    {
        // Only the slow, rare step is worth a line: an image built on first use.
        if (!m_quiet && progress.kind == RunProgress::Kind::ImageBuild) {
            printError(progress.message);
        }
    }

private:
    bool m_quiet;
};

Result<QString> languageForFile(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (const Language &language : LanguageRegistry::instance().languages()) {
        if (QFileInfo(language.defaultFile).suffix().toLower() == suffix) {
            return language.name;
        }
    }
    return Error{RunCommand::tr("Cannot tell the language of %1 from its name; give --lang.").arg(path)};
}

/// Artifact names come from the sandbox: only a plain file name may reach the host.
QString safeFileName(const QString &name)
{
    QString safe = name;
    safe.replace(QLatin1Char('/'), QLatin1Char('_')).replace(QLatin1Char('\\'), QLatin1Char('_'));
    safe.remove(QChar(0));
    if (safe.isEmpty() || safe == QLatin1String(".") || safe == QLatin1String("..") ||
        safe.startsWith(QLatin1Char('.'))) {
        safe.prepend(QStringLiteral("artifact"));
    }
    return safe;
}

Result<void> saveArtifacts(RunResult &result, const QString &directory)
{
    if (result.artifacts.isEmpty()) {
        return {};
    }
    if (!PrivateFiles::makeDirectory(directory)) {
        return Error{RunCommand::tr("Could not create the artifacts folder %1.").arg(directory)};
    }
    const QDir dir(directory);
    for (Artifact &artifact : result.artifacts) {
        const QString path = dir.filePath(safeFileName(artifact.name));
        if (QString error; !PrivateFiles::write(path, artifact.data, &error)) {
            return Error{RunCommand::tr("Could not save %1: %2").arg(path, error)};
        }
        artifact.path = QFileInfo(path).absoluteFilePath();
    }
    return {};
}

} // namespace

int runCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(RunCommand::tr("Run code in a sandbox."));
    parser.addHelpOption();
    const QCommandLineOption backendOption = cli::backendOption();
    const QCommandLineOption langOption({QStringLiteral("l"), QStringLiteral("lang")},
                                        RunCommand::tr("Language (default: from FILE's extension, else python)."),
                                        QStringLiteral("LANG"));
    const QCommandLineOption timeoutOption(
        {QStringLiteral("t"), QStringLiteral("timeout")},
        RunCommand::tr("Wall-clock limit in seconds (default 30, or the app's setting)."), QStringLiteral("SECONDS"));
    const QCommandLineOption jsonOption(
        QStringLiteral("json"),
        RunCommand::tr("Print one JSON object with the result instead of passing output through."));
    const QCommandLineOption artifactsOption(
        QStringLiteral("artifacts-dir"),
        RunCommand::tr(
            "Where to save charts and other artifacts (default: a folder per run under the app's data folder)."),
        QStringLiteral("DIR"));
    const QCommandLineOption policyOption(QStringLiteral("policy"),
                                          RunCommand::tr("Code policy checked before anything runs: permissive, "
                                                         "default or strict (default: $SANDBOX_POLICY, then default)."),
                                          QStringLiteral("NAME"));
    const QCommandLineOption libOption(QStringLiteral("lib"),
                                       RunCommand::tr("A library to install before the code runs (repeatable): pip, "
                                                      "npm, group:artifact:version, go module, R package, gem."),
                                       QStringLiteral("NAME"));
    const QCommandLineOption codeOption({QStringLiteral("c"), QStringLiteral("code")},
                                        RunCommand::tr("The code to run."), QStringLiteral("CODE"));
    const QCommandLineOption shareOption(
        QStringLiteral("share"),
        RunCommand::tr("A folder the code may read at /data/NAME (repeatable); :rw lets results be saved there."),
        QStringLiteral("PATH[:NAME][:rw]"));
    const QCommandLineOption networkOption(
        QStringLiteral("network"),
        RunCommand::tr("A host the code may reach over HTTP(S) (repeatable), within what you allow in "
                       "LLM_SANDBOX_NETWORK_ALLOW or the app's Network settings."),
        QStringLiteral("HOST[:PORT]"));
    parser.addOptions({backendOption, langOption, timeoutOption, jsonOption, artifactsOption, libOption, policyOption,
                       codeOption, shareOption, networkOption});
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 RunCommand::tr("A source file to run, or - to read the code from stdin."));
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }

    RunRequest request;
    request.source = RunSource::Cli;
    const QStringList positional = parser.positionalArguments();
    if (parser.isSet(codeOption) == !positional.isEmpty() || positional.size() > 1) {
        printError(RunCommand::tr("give exactly one of FILE, -c CODE or - (stdin); see `llm-sandbox run --help`."));
        return ExitUsage;
    }
    if (parser.isSet(codeOption)) {
        request.code = parser.value(codeOption);
    } else if (positional.first() == QLatin1String("-")) {
        QFile input;
        if (!input.open(stdin, QIODevice::ReadOnly)) {
            printError(RunCommand::tr("could not read the code from stdin."));
            return ExitUsage;
        }
        request.code = QString::fromUtf8(input.readAll());
    } else {
        QFile file(positional.first());
        if (!file.open(QIODevice::ReadOnly)) {
            printError(RunCommand::tr("cannot read %1: %2").arg(file.fileName(), file.errorString()));
            return ExitUsage;
        }
        request.code = QString::fromUtf8(file.readAll());
    }
    if (parser.isSet(langOption)) {
        request.language = parser.value(langOption);
    } else if (!positional.isEmpty() && positional.first() != QLatin1String("-")) {
        auto language = languageForFile(positional.first());
        if (!language) {
            printError(language.error());
            return ExitUsage;
        }
        request.language = *language;
    }
    if (auto language = LanguageRegistry::instance().find(request.language); !language) {
        printError(language.error());
        return ExitUsage;
    }
    request.libraries = parser.values(libOption);
    request.network = parser.values(networkOption);
    for (const QString &share : parser.values(shareOption)) {
        auto folder = SharedFolder::parse(share);
        if (!folder) {
            printError(folder.error());
            return ExitUsage;
        }
        request.sharedFolders << *folder;
    }
    if (parser.isSet(policyOption)) {
        auto policy = CodePolicy::preset(parser.value(policyOption));
        if (!policy) {
            printError(policy.error());
            return ExitUsage;
        }
    }
    auto context = AppContext::create({.source = RunSource::Cli,
                                       .backendName = parser.value(backendOption),
                                       .policy = parser.value(policyOption),
                                       .removeOrphans = true});
    if (!context) {
        printError(context.error());
        return exitStatusFor(context.error());
    }
    double seconds = double((*context)->settings().defaultTimeout.count());
    if (parser.isSet(timeoutOption)) {
        bool timeoutOk = false;
        seconds = parser.value(timeoutOption).toDouble(&timeoutOk);
        if (!timeoutOk || seconds <= 0 || seconds > 24 * 3600) {
            printError(RunCommand::tr("--timeout must be a number of seconds between 0 and 86400."));
            return ExitUsage;
        }
    }
    request.timeout = std::chrono::milliseconds(qint64(seconds * 1000));
    auto engine = (*context)->engine();
    if (!engine) {
        printError(engine.error());
        return exitStatusFor(engine.error());
    }
    SignalCanceller canceller;
    const bool json = parser.isSet(jsonOption);
    PassThrough passThrough(json);
    auto result = (*engine)->run(request, canceller.token(), &passThrough);
    if (!result) {
        printError(result.error());
        return exitStatusFor(result.error());
    }

    QString artifactsDir = parser.value(artifactsOption);
    if (artifactsDir.isEmpty()) {
        const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
        artifactsDir =
            QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/artifacts/") + stamp;
    }
    if (auto saved = saveArtifacts(*result, artifactsDir); !saved) {
        printError(saved.error());
        return exitStatusFor(saved.error());
    }

    if (json) {
        out() << QJsonDocument(runResultToJson(*result)).toJson(QJsonDocument::Compact) << Qt::endl;
    } else {
        for (const Artifact &artifact : result->artifacts) {
            printError(RunCommand::tr("artifact %1 (%2, %n bytes): %3", nullptr, int(artifact.size()))
                           .arg(artifact.name, artifact.mimeType, artifact.path));
        }
        if (result->artifactsDropped > 0) {
            printError(
                RunCommand::tr("%n artifact(s) over the limits were dropped", nullptr, int(result->artifactsDropped)));
        }
        if (result->outputTruncated) {
            printError(RunCommand::tr("output beyond the limit was dropped"));
        }
        switch (result->reason) {
        case StopReason::TimedOut:
            printError(RunCommand::tr("timed out after %1 s; the program was killed").arg(seconds, 0, 'g', 6));
            break;
        case StopReason::OutOfMemory:
            printError(RunCommand::tr("the program ran out of memory and was killed"));
            break;
        case StopReason::CpuLimit:
            printError(RunCommand::tr("the program used up its CPU-time limit and was killed"));
            break;
        case StopReason::OutputLimit:
            printError(RunCommand::tr("the program exceeded the output limit and was killed"));
            break;
        case StopReason::Cancelled:
            printError(RunCommand::tr("cancelled"));
            break;
        case StopReason::CompileFailed:
            printError(RunCommand::tr("compilation failed"));
            break;
        case StopReason::StoppedByUser:
            printError(RunCommand::tr("stopped from the LLM Sandbox app"));
            break;
        case StopReason::Exited:
            break;
        }
    }
    if (result->reason == StopReason::TimedOut) {
        return ExitTimeout;
    }
    return result->exitCode;
}

} // namespace sandbox::cli
