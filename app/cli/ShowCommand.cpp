#include "cli/ShowCommand.h"

#include "ErrorText.h"
#include "cli/CliContext.h"
#include "journal/JournalReader.h"
#include "journal/JournalRunJson.h"
#include "journal/RunJournal.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

namespace sandbox::cli {

namespace {

class ShowCommand final
{
    Q_DECLARE_TR_FUNCTIONS(ShowCommand)
};

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
        out() << padded(name, -16) << value << Qt::endl;
    }
}

QString time(const QDateTime &time)
{
    return time.isValid() ? time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz")) : QString();
}

void printRun(const JournalRun &run)
{
    printField(ShowCommand::tr("Run:"), run.id);
    printField(ShowCommand::tr("Status:"), toString(run.status));
    printField(ShowCommand::tr("Exit code:"), run.exitCode ? QString::number(*run.exitCode) : QString());
    printField(ShowCommand::tr("Stop reason:"), run.stopReason ? toString(*run.stopReason) : QString());
    printField(ShowCommand::tr("Error:"), run.error);
    printField(ShowCommand::tr("Source:"), run.source ? toString(*run.source) : ShowCommand::tr("unknown"));
    printField(ShowCommand::tr("Client:"), QStringLiteral("%1 %2").arg(run.clientName, run.clientVersion).trimmed());
    printField(ShowCommand::tr("Language:"), run.language);
    printField(ShowCommand::tr("Libraries:"),
               run.librariesCached && !run.libraries.isEmpty()
                   ? ShowCommand::tr("%1 (from the library cache)").arg(run.libraries.join(QStringLiteral(", ")))
                   : run.libraries.join(QStringLiteral(", ")));
    printField(ShowCommand::tr("Backend:"), QStringLiteral("%1 %2").arg(run.backend, run.endpoint).trimmed());
    printField(ShowCommand::tr("Image:"), run.image);
    printField(ShowCommand::tr("Session:"), run.sessionId);
    printField(ShowCommand::tr("Replay of:"), run.replayOf);
    printField(ShowCommand::tr("Started:"), time(run.startedAt));
    printField(ShowCommand::tr("Finished:"), time(run.finishedAt));
    printField(ShowCommand::tr("Duration:"), ShowCommand::tr("%1 ms").arg(run.durationMs));
    printField(ShowCommand::tr("Timeout:"),
               run.timeoutMs > 0 ? ShowCommand::tr("%1 ms").arg(run.timeoutMs) : QString());
    printField(ShowCommand::tr("Usage:"), ShowCommand::tr("wall %1 ms, cpu %2 ms, peak memory %3 KiB")
                                              .arg(run.wallMs)
                                              .arg(run.cpuMs)
                                              .arg(run.peakMemoryKb));
    printField(ShowCommand::tr("Output cap:"),
               (run.outputTruncated ? ShowCommand::tr("%1 bytes per stream (output was truncated)")
                                    : ShowCommand::tr("%1 bytes per stream"))
                   .arg(run.outputCap));
    if (!run.settings.isEmpty()) {
        printSection(ShowCommand::tr("settings"),
                     QString::fromUtf8(QJsonDocument(run.settings).toJson(QJsonDocument::Indented)));
    }
    printSection(ShowCommand::tr("code"), run.code);
    printSection(ShowCommand::tr("stdout"), QString::fromUtf8(run.stdoutData));
    printSection(ShowCommand::tr("stderr"), QString::fromUtf8(run.stderrData));
    if (!run.artifacts.isEmpty()) {
        QString artifacts;
        for (const JournalArtifact &artifact : run.artifacts) {
            const QString pixels =
                artifact.width > 0 ? QStringLiteral(", %1x%2").arg(artifact.width).arg(artifact.height) : QString();
            artifacts += ShowCommand::tr("%1 (%2, %n bytes%3)", nullptr, int(artifact.size))
                             .arg(artifact.name, artifact.mimeType, pixels) +
                         QStringLiteral("\n    %1\n").arg(artifact.path);
        }
        printSection(ShowCommand::tr("artifacts"), artifacts);
    }
    if (!run.mcpRequest.isEmpty()) {
        printSection(ShowCommand::tr("MCP request (protocol %1)").arg(run.protocolVersion),
                     QString::fromUtf8(QJsonDocument(run.mcpRequest).toJson(QJsonDocument::Indented)));
        printSection(ShowCommand::tr("MCP response"),
                     QString::fromUtf8(QJsonDocument(run.mcpResponse).toJson(QJsonDocument::Indented)));
    }
    out().flush();
}

} // namespace

int showCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(ShowCommand::tr("Show everything the run journal holds about one run."));
    parser.addHelpOption();
    const QCommandLineOption jsonOption(QStringLiteral("json"), ShowCommand::tr("Print the run as one JSON object."));
    parser.addOption(jsonOption);
    parser.addPositionalArgument(QStringLiteral("RUN_ID"),
                                 ShowCommand::tr("The run's id, as `llm-sandbox history` lists it."));
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    if (parser.positionalArguments().size() != 1) {
        printError(ShowCommand::tr("give exactly one RUN_ID; see `llm-sandbox history` for the ids."));
        return ExitUsage;
    }
    const QString id = parser.positionalArguments().first();

    const std::optional<QString> path = RunJournal::configuredPath();
    if (!path) {
        printError(ShowCommand::tr("the run journal is off (LLM_SANDBOX_JOURNAL=off)."));
        return 1;
    }
    const JournalReader reader(*path);
    auto run = reader.run(id);
    if (!run) {
        printError(run.error().code == ErrorCode::NotFound
                       ? ShowCommand::tr("no run \"%1\" in the journal; see `llm-sandbox history` for the ids.").arg(id)
                       : errorLine(run.error()));
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
