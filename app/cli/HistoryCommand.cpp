#include "cli/HistoryCommand.h"

#include "cli/CliContext.h"
#include "journal/JournalReader.h"
#include "journal/JournalRunJson.h"
#include "journal/RunJournal.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

namespace sandbox::cli {

namespace {

class HistoryCommand final
{
    Q_DECLARE_TR_FUNCTIONS(HistoryCommand)
};

/// "exit 0", "timeout (137)", "failed", "running": what a person scanning the list wants to know.
QString outcome(const JournalRun &run)
{
    switch (run.status) {
    case RunStatus::Running:
        return HistoryCommand::tr("running");
    case RunStatus::Failed:
        return HistoryCommand::tr("failed");
    case RunStatus::Interrupted:
        return HistoryCommand::tr("interrupted");
    case RunStatus::Finished:
        break;
    }
    const QString code = run.exitCode ? QString::number(*run.exitCode) : QStringLiteral("?");
    if (!run.wasStopped()) {
        return HistoryCommand::tr("exit %1").arg(code);
    }
    return QStringLiteral("%1 (%2)").arg(toString(*run.stopReason), code);
}

QString duration(const JournalRun &run)
{
    if (run.status == RunStatus::Running || run.status == RunStatus::Interrupted) {
        return QStringLiteral("-");
    }
    if (run.durationMs < 1000) {
        return QStringLiteral("%1 ms").arg(run.durationMs);
    }
    return QStringLiteral("%1 s").arg(double(run.durationMs) / 1000.0, 0, 'f', 1);
}

QString source(const JournalRun &run)
{
    const QString name = run.source ? toString(*run.source) : HistoryCommand::tr("unknown");
    return run.clientName.isEmpty() ? name : QStringLiteral("%1/%2").arg(name, run.clientName);
}

void printTable(const QList<JournalRun> &runs)
{
    QList<QStringList> rows{{HistoryCommand::tr("ID"), HistoryCommand::tr("STARTED"), HistoryCommand::tr("SOURCE"),
                             HistoryCommand::tr("LANGUAGE"), HistoryCommand::tr("STATUS"),
                             HistoryCommand::tr("DURATION")}};
    for (const JournalRun &run : runs) {
        rows.append({run.id, run.startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss")), source(run),
                     run.language, outcome(run), duration(run)});
    }
    printColumns(rows);
}

} // namespace

int historyCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(HistoryCommand::tr("List the runs in the run journal, newest first."));
    parser.addHelpOption();
    const QCommandLineOption limitOption({QStringLiteral("n"), QStringLiteral("limit")},
                                         HistoryCommand::tr("How many runs to show (default 20)."), QStringLiteral("N"),
                                         QStringLiteral("20"));
    const QCommandLineOption jsonOption(QStringLiteral("json"),
                                        HistoryCommand::tr("Print a JSON array of run summaries."));
    const QCommandLineOption languageOption(QStringLiteral("language"),
                                            HistoryCommand::tr("Only runs of this language."), QStringLiteral("LANG"));
    const QCommandLineOption sourceOption(QStringLiteral("source"),
                                          HistoryCommand::tr("Only runs from gui, cli, mcp, http or replay."),
                                          QStringLiteral("SOURCE"));
    const QCommandLineOption statusOption(
        QStringLiteral("status"), HistoryCommand::tr("Only runs that are running, finished, failed or interrupted."),
        QStringLiteral("STATUS"));
    parser.addOptions({limitOption, jsonOption, languageOption, sourceOption, statusOption});
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    if (!parser.positionalArguments().isEmpty()) {
        printError(HistoryCommand::tr("history takes no arguments; see `llm-sandbox history --help`."));
        return ExitUsage;
    }
    bool numeric = false;
    const int limit = parser.value(limitOption).toInt(&numeric);
    if (!numeric || limit <= 0) {
        printError(HistoryCommand::tr("--limit needs a positive number, not \"%1\".").arg(parser.value(limitOption)));
        return ExitUsage;
    }
    RunFilter filter;
    filter.language = parser.value(languageOption);
    if (parser.isSet(sourceOption)) {
        filter.sources = runSourcesFromString(parser.value(sourceOption));
        if (filter.sources.isEmpty()) {
            printError(HistoryCommand::tr("unknown source \"%1\"; use gui, cli, mcp, http or replay.")
                           .arg(parser.value(sourceOption)));
            return ExitUsage;
        }
    }
    if (parser.isSet(statusOption)) {
        filter.status = runStatusFromString(parser.value(statusOption));
        if (!filter.status) {
            printError(HistoryCommand::tr("unknown status \"%1\"; use running, finished, failed or interrupted.")
                           .arg(parser.value(statusOption)));
            return ExitUsage;
        }
    }

    const std::optional<QString> path = RunJournal::configuredPath();
    if (!path) {
        printError(HistoryCommand::tr("the run journal is off (LLM_SANDBOX_JOURNAL=off)."));
        return 1;
    }
    const JournalReader reader(*path);
    auto runs = reader.list(filter, 0, limit);
    if (!runs) {
        printError(runs.error());
        return 1;
    }
    if (parser.isSet(jsonOption)) {
        QJsonArray array;
        for (const JournalRun &run : *runs) {
            array.append(journalRunToJson(run, false));
        }
        out() << QJsonDocument(array).toJson(QJsonDocument::Indented);
        out().flush();
        return 0;
    }
    if (runs->isEmpty()) {
        out() << HistoryCommand::tr("No runs in the journal (%1).").arg(*path) << Qt::endl;
        return 0;
    }
    printTable(*runs);
    return 0;
}

} // namespace sandbox::cli
