#include "cli/ShowCommand.h"

#include "cli/CliContext.h"
#include "journal/JournalReader.h"
#include "journal/JournalRunJson.h"
#include "journal/RunJournal.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

namespace sandbox::cli {

namespace {

void printSection(const QString &title, const QString &text)
{
    out() << Qt::endl << "--- " << title << " ---" << Qt::endl;
    out() << text;
    if (!text.isEmpty() && !text.endsWith(QLatin1Char('\n'))) {
        out() << Qt::endl;
    }
}

void printField(const QString &name, const QString &value)
{
    if (!value.isEmpty()) {
        out() << QString(name + QLatin1Char(':')).leftJustified(16) << value << Qt::endl;
    }
}

QString time(const QDateTime &time)
{
    return time.isValid() ? time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz")) : QString();
}

void printRun(const JournalRun &run)
{
    printField(QStringLiteral("Run"), run.id);
    printField(QStringLiteral("Status"), toString(run.status));
    printField(QStringLiteral("Exit code"), run.exitCode ? QString::number(*run.exitCode) : QString());
    printField(QStringLiteral("Stop reason"), run.stopReason ? toString(*run.stopReason) : QString());
    printField(QStringLiteral("Error"), run.error);
    printField(QStringLiteral("Source"), run.source ? toString(*run.source) : QStringLiteral("unknown"));
    printField(QStringLiteral("Client"), QStringLiteral("%1 %2").arg(run.clientName, run.clientVersion).trimmed());
    printField(QStringLiteral("Language"), run.language);
    printField(QStringLiteral("Libraries"), run.libraries.join(QStringLiteral(", ")));
    printField(QStringLiteral("Backend"), QStringLiteral("%1 %2").arg(run.backend, run.endpoint).trimmed());
    printField(QStringLiteral("Image"), run.image);
    printField(QStringLiteral("Session"), run.sessionId);
    printField(QStringLiteral("Replay of"), run.replayOf);
    printField(QStringLiteral("Started"), time(run.startedAt));
    printField(QStringLiteral("Finished"), time(run.finishedAt));
    printField(QStringLiteral("Duration"), QStringLiteral("%1 ms").arg(run.durationMs));
    printField(QStringLiteral("Timeout"), run.timeoutMs > 0 ? QStringLiteral("%1 ms").arg(run.timeoutMs) : QString());
    printField(QStringLiteral("Usage"), QStringLiteral("wall %1 ms, cpu %2 ms, peak memory %3 KiB")
                                            .arg(run.wallMs)
                                            .arg(run.cpuMs)
                                            .arg(run.peakMemoryKb));
    printField(QStringLiteral("Output cap"),
               QStringLiteral("%1 bytes per stream%2")
                   .arg(run.outputCap)
                   .arg(run.outputTruncated ? QStringLiteral(" (output was truncated)") : QString()));
    if (!run.settings.isEmpty()) {
        printSection(QStringLiteral("settings"),
                     QString::fromUtf8(QJsonDocument(run.settings).toJson(QJsonDocument::Indented)));
    }
    printSection(QStringLiteral("code"), run.code);
    printSection(QStringLiteral("stdout"), QString::fromUtf8(run.stdoutData));
    printSection(QStringLiteral("stderr"), QString::fromUtf8(run.stderrData));
    if (!run.artifacts.isEmpty()) {
        QString artifacts;
        for (const JournalArtifact &artifact : run.artifacts) {
            const QString pixels =
                artifact.width > 0 ? QStringLiteral(", %1x%2").arg(artifact.width).arg(artifact.height) : QString();
            artifacts += QStringLiteral("%1 (%2, %3 bytes%4)\n    %5\n")
                             .arg(artifact.name, artifact.mimeType)
                             .arg(artifact.size)
                             .arg(pixels, artifact.path);
        }
        printSection(QStringLiteral("artifacts"), artifacts);
    }
    if (!run.mcpRequest.isEmpty()) {
        printSection(QStringLiteral("MCP request (protocol %1)").arg(run.protocolVersion),
                     QString::fromUtf8(QJsonDocument(run.mcpRequest).toJson(QJsonDocument::Indented)));
        printSection(QStringLiteral("MCP response"),
                     QString::fromUtf8(QJsonDocument(run.mcpResponse).toJson(QJsonDocument::Indented)));
    }
    out().flush();
}

} // namespace

int showCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Show everything the run journal holds about one run."));
    parser.addHelpOption();
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("Print the run as one JSON object."));
    parser.addOption(jsonOption);
    parser.addPositionalArgument(QStringLiteral("RUN_ID"),
                                 QStringLiteral("The run's id, as `llm-sandbox history` lists it."));
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    if (parser.positionalArguments().size() != 1) {
        printError(QStringLiteral("give exactly one RUN_ID; see `llm-sandbox history` for the ids."));
        return ExitUsage;
    }
    const QString id = parser.positionalArguments().first();

    const std::optional<QString> path = RunJournal::configuredPath();
    if (!path) {
        printError(QStringLiteral("the run journal is off (LLM_SANDBOX_JOURNAL=off)."));
        return 1;
    }
    const JournalReader reader(*path);
    auto run = reader.run(id);
    if (!run) {
        printError(run.error().code == ErrorCode::NotFound
                       ? QStringLiteral("no run \"%1\" in the journal; see `llm-sandbox history` for the ids.").arg(id)
                       : run.error().message);
        return run.error().code == ErrorCode::NotFound ? ExitUsage : 1;
    }
    if (parser.isSet(jsonOption)) {
        out() << QJsonDocument(journalRunToJson(*run, true)).toJson(QJsonDocument::Indented);
        out().flush();
        return 0;
    }
    printRun(*run);
    return 0;
}

} // namespace sandbox::cli
