#include "cli/PsCommand.h"

#include "AppContext.h"
#include "cli/CliContext.h"
#include "inventory/SandboxInventory.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sandbox::cli {

namespace {

class PsCommand final
{
    Q_DECLARE_TR_FUNCTIONS(PsCommand)
};

QString age(const QDateTime &created, const QDateTime &now)
{
    if (!created.isValid()) {
        return QStringLiteral("-");
    }
    const qint64 seconds = std::max<qint64>(0, created.secsTo(now));
    if (seconds < 120) {
        return QStringLiteral("%1s").arg(seconds);
    }
    if (seconds < 2 * 3600) {
        return QStringLiteral("%1m").arg(seconds / 60);
    }
    if (seconds < 2 * 86400) {
        return QStringLiteral("%1h").arg(seconds / 3600);
    }
    return QStringLiteral("%1d").arg(seconds / 86400);
}

QString bytes(qint64 value)
{
    if (value < 1024 * 1024) {
        return QStringLiteral("%1 KiB").arg(value / 1024);
    }
    if (value < 1024LL * 1024 * 1024) {
        return QStringLiteral("%1 MiB").arg(double(value) / (1024 * 1024), 0, 'f', 1);
    }
    return QStringLiteral("%1 GiB").arg(double(value) / (1024 * 1024 * 1024), 0, 'f', 2);
}

QJsonObject toJson(const SandboxEntry &sandbox, const QDateTime &now)
{
    const ContainerSummary &container = sandbox.container;
    const QString &session = sandbox.session;
    QJsonObject object{
        {QStringLiteral("id"), container.id},
        {QStringLiteral("language"), sandbox.language.isEmpty() ? QJsonValue() : QJsonValue(sandbox.language)},
        {QStringLiteral("image"), container.image},
        {QStringLiteral("owner"), sandbox.owner},
        {QStringLiteral("owner_pid"), sandbox.ownerPid >= 0 ? QJsonValue(sandbox.ownerPid) : QJsonValue()},
        {QStringLiteral("session_id"), session.isEmpty() ? QJsonValue() : QJsonValue(session)},
        {QStringLiteral("created"), container.created.toUTC().toString(Qt::ISODate)},
        {QStringLiteral("age_seconds"), double(std::max<qint64>(0, container.created.secsTo(now)))},
        {QStringLiteral("state"), container.state},
    };
    if (sandbox.stats) {
        const ContainerStats &stats = *sandbox.stats;
        object.insert(QStringLiteral("stats"),
                      QJsonObject{
                          {QStringLiteral("cpu_cores"), stats.cpuCores},
                          {QStringLiteral("memory_bytes"), double(stats.memoryBytes)},
                          {QStringLiteral("memory_limit_bytes"),
                           stats.memoryLimitBytes > 0 ? QJsonValue(double(stats.memoryLimitBytes)) : QJsonValue()},
                          {QStringLiteral("pids"), stats.pids >= 0 ? QJsonValue(double(stats.pids)) : QJsonValue()},
                          {QStringLiteral("sampled_at"), stats.sampledAt.toUTC().toString(Qt::ISODateWithMs)},
                      });
    } else {
        object.insert(QStringLiteral("stats"), QJsonValue());
        object.insert(
            QStringLiteral("stats_error"),
            QJsonObject{{QStringLiteral("code"), QString::fromLatin1(errorCodeName(sandbox.stats.error().code))},
                        {QStringLiteral("message"), sandbox.stats.error().message}});
    }
    return object;
}

void printTable(const QList<SandboxEntry> &sandboxes, const QDateTime &now)
{
    QList<QStringList> rows{{PsCommand::tr("ID"), PsCommand::tr("LANGUAGE"), PsCommand::tr("OWNER"),
                             PsCommand::tr("SESSION"), PsCommand::tr("AGE"), PsCommand::tr("CPU"),
                             PsCommand::tr("MEMORY / LIMIT"), PsCommand::tr("PIDS")}};
    // Each reason once, however many sandboxes it concerns (a cluster without metrics-server: all of them).
    QStringList reasons;
    for (const SandboxEntry &sandbox : sandboxes) {
        const ContainerSummary &container = sandbox.container;
        QString cpu = QStringLiteral("-");
        QString memory = QStringLiteral("-");
        QString pids = QStringLiteral("-");
        if (sandbox.stats) {
            cpu = QStringLiteral("%1%").arg(sandbox.stats->cpuCores * 100, 0, 'f', 1);
            memory =
                bytes(sandbox.stats->memoryBytes) + QStringLiteral(" / ") +
                (sandbox.stats->memoryLimitBytes > 0 ? bytes(sandbox.stats->memoryLimitBytes) : QStringLiteral("-"));
            pids = sandbox.stats->pids >= 0 ? QString::number(sandbox.stats->pids) : QStringLiteral("-");
        } else if (!reasons.contains(sandbox.stats.error().message)) {
            reasons.append(sandbox.stats.error().message);
        }
        const QString &session = sandbox.session;
        // Docker's and Podman's ids as `docker ps` shortens them; pod names whole.
        rows.append({container.id.size() == 64 ? container.id.left(12) : container.id,
                     sandbox.language.isEmpty() ? container.image : sandbox.language, sandbox.ownerText(),
                     session.isEmpty() ? QStringLiteral("-") : session, age(container.created, now), cpu, memory,
                     pids});
    }
    printColumns(rows);
    for (const QString &reason : reasons) {
        out() << "\n" << PsCommand::tr("Resource use unknown (-): %1").arg(reason) << Qt::endl;
    }
}

} // namespace

int psCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        PsCommand::tr("List the sandboxes llm-sandbox runs on a backend, with their resource use."));
    parser.addHelpOption();
    const QCommandLineOption backendOption = cli::backendOption();
    const QCommandLineOption jsonOption(QStringLiteral("json"), PsCommand::tr("Print one JSON object."));
    parser.addOptions({backendOption, jsonOption});
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    if (!parser.positionalArguments().isEmpty()) {
        printError(PsCommand::tr("ps takes no arguments; see `llm-sandbox ps --help`."));
        return ExitUsage;
    }
    auto context = AppContext::create({.source = RunSource::Cli, .backendName = parser.value(backendOption)});
    if (!context) {
        printError(context.error());
        return exitStatusFor(context.error());
    }
    const QString name = (*context)->defaultBackend();
    // An unknown name is a BadRequest from BackendFactory: exit status 2, the names to choose from in the message.
    auto backend = (*context)->backend(name);
    if (!backend) {
        printError(backend.error());
        return exitStatusFor(backend.error());
    }
    const ImageCatalog catalog = (*context)->catalog();
    auto sandboxes = SandboxInventory(**backend, catalog).list();
    if (!sandboxes) {
        printError(sandboxes.error());
        return exitStatusFor(sandboxes.error());
    }

    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (parser.isSet(jsonOption)) {
        QJsonArray array;
        for (const SandboxEntry &sandbox : *sandboxes) {
            array.append(toJson(sandbox, now));
        }
        out() << QJsonDocument(QJsonObject{{QStringLiteral("backend"), name}, {QStringLiteral("sandboxes"), array}})
                     .toJson(QJsonDocument::Indented);
        out().flush();
        return 0;
    }
    if (sandboxes->isEmpty()) {
        out() << PsCommand::tr("No sandboxes running on %1.").arg(name) << Qt::endl;
        return 0;
    }
    printTable(*sandboxes, now);
    return 0;
}

} // namespace sandbox::cli
