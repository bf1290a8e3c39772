#include "cli/InstallMcpCommand.h"

#include "ErrorText.h"
#include "assistants/AssistantClient.h"
#include "assistants/McpConfigFile.h"
#include "assistants/McpServerEntry.h"
#include "cli/CliContext.h"
#include "cli/ServeCommand.h"
#include "journal/RunDiff.h"
#include "mcp/http/BearerToken.h"
#include "secrets/KeychainSecretStore.h"
#include "settings/UserSettings.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QProcessEnvironment>

namespace sandbox::cli {

namespace {

class InstallMcpCommand final
{
    Q_DECLARE_TR_FUNCTIONS(InstallMcpCommand)
};

using Outcome = McpConfigFile::Change::Outcome;

/// The file was refused (not valid JSON, ...) or could not be written; it is as it was.
constexpr int kExitNotChanged = 1;

QCommandLineOption clientOption()
{
    return QCommandLineOption(QStringLiteral("client"),
                              InstallMcpCommand::tr("Whose configuration file: %1 (default claude-desktop).")
                                  .arg(AssistantClient::names().join(QStringLiteral(", "))),
                              QStringLiteral("NAME"), QStringLiteral("claude-desktop"));
}

QCommandLineOption projectOption()
{
    return QCommandLineOption(QStringLiteral("project"),
                              InstallMcpCommand::tr("For claude-code: the project folder whose .mcp.json (shared with "
                                                    "everyone who works on it) holds the entry, instead of your own "
                                                    "~/.claude.json."),
                              QStringLiteral("DIR"));
}

QCommandLineOption dryRunOption()
{
    return QCommandLineOption(
        QStringLiteral("dry-run"),
        InstallMcpCommand::tr("Print what would change in the file (a diff), and write nothing."));
}

/// Parses the options both commands share; nullopt after printing why when they are wrong.
std::optional<AssistantClient> clientFrom(const QCommandLineParser &parser, const QCommandLineOption &option)
{
    const std::optional<AssistantClient> client = AssistantClient::fromName(parser.value(option));
    if (!client) {
        printError(InstallMcpCommand::tr("unknown client \"%1\"; use one of %2.")
                       .arg(parser.value(option), AssistantClient::names().join(QStringLiteral(", "))));
    }
    return client;
}

/// The client's file, or the project's (--project) where it has one; nullopt after printing why --project does not
/// fit.
std::optional<McpConfigFile> fileOf(const AssistantClient &client, const QCommandLineParser &parser,
                                    const QCommandLineOption &project)
{
    QString path = client.configPath();
    if (parser.isSet(project)) {
        if (!client.hasProjectScope()) {
            printError(
                InstallMcpCommand::tr("--project is for claude-code; %1 keeps one file per user.").arg(client.name()));
            return std::nullopt;
        }
        const QFileInfo folder(parser.value(project));
        if (!folder.isDir()) {
            printError(InstallMcpCommand::tr("--project %1 is not a folder.").arg(parser.value(project)));
            return std::nullopt;
        }
        path = AssistantClient::configPathForProject(folder.absoluteFilePath());
    }
    return McpConfigFile(path, client.configFormat());
}

/// The token `serve --http` requires, loaded exactly as serve loads it (LLM_SANDBOX_HTTP_TOKEN, else the keychain,
/// where one is made on first use). QtKeychain answers through the event loop, so this runs one until it has.
Result<QByteArray> httpToken()
{
    KeychainSecretStore store;
    Result<QByteArray> token = Error{InstallMcpCommand::tr("no answer from the keychain")};
    QMetaObject::invokeMethod(
        qApp,
        [&] {
            mcp::BearerToken::load(store, qgetenv(mcp::BearerToken::kEnvironmentVariable))
                .then(qApp, [&token](const Result<mcp::BearerToken::Loaded> &loaded) {
                    token = loaded ? Result<QByteArray>(loaded->token) : Result<QByteArray>(loaded.error());
                    QCoreApplication::exit(0);
                });
        },
        Qt::QueuedConnection);
    QCoreApplication::exec();
    return token;
}

/// `before` -> `after` as a unified diff of lines (without hunks: the whole file, changed lines marked).
void printDiff(const QString &path, const McpConfigFile::Change &change)
{
    const auto lines = [](const QByteArray &text) {
        QStringList result = QString::fromUtf8(text).split(QLatin1Char('\n'));
        if (!result.isEmpty() && result.last().isEmpty()) {
            result.removeLast();
        }
        for (QString &line : result) {
            if (line.endsWith(QLatin1Char('\r'))) {
                line.chop(1);
            }
        }
        return result;
    };
    out() << "--- " << (change.outcome == Outcome::Created ? QStringLiteral("/dev/null") : path) << '\n';
    out() << "+++ " << path << '\n';
    for (const RunDiff::Line &line : RunDiff::diffLines(lines(change.before), lines(change.after))) {
        const char mark = line.kind == RunDiff::Line::Kind::Added     ? '+'
                          : line.kind == RunDiff::Line::Kind::Removed ? '-'
                                                                      : ' ';
        out() << mark << line.text << '\n';
    }
    out().flush();
}

/// Says what happened (or, for a dry run, would happen) in one sentence.
int report(const AssistantClient &client, const McpConfigFile &file, const Result<McpConfigFile::Change> &change,
           bool dryRun)
{
    if (!change) {
        printError(change.error());
        return kExitNotChanged;
    }
    const QString &path = file.path();
    if (dryRun) {
        if (change->outcome == Outcome::Unchanged || change->outcome == Outcome::NotInstalled) {
            err() << InstallMcpCommand::tr("Dry run: %1 would not change.").arg(path) << Qt::endl;
        } else {
            printDiff(path, *change);
            err() << InstallMcpCommand::tr("Dry run: nothing was written.") << Qt::endl;
        }
        return 0;
    }
    // "... PATH." or "... PATH (the previous file is kept as BACKUP).": one sentence either way.
    const auto sentence = [&change, &path](const QString &withBackup, const QString &withoutBackup) {
        return change->backupPath.isEmpty() ? withoutBackup.arg(path) : withBackup.arg(path, change->backupPath);
    };
    const QString restart = InstallMcpCommand::tr("Restart %1 to use it.").arg(client.title());
    switch (change->outcome) {
    case Outcome::Created:
        out() << InstallMcpCommand::tr("Created %1 with the llm-sandbox server.").arg(path) << ' ' << restart
              << Qt::endl;
        break;
    case Outcome::Added:
        out() << sentence(
                     InstallMcpCommand::tr("Added the llm-sandbox server to %1 (the previous file is kept as %2)."),
                     InstallMcpCommand::tr("Added the llm-sandbox server to %1."))
              << ' ' << restart << Qt::endl;
        break;
    case Outcome::Updated:
        out() << sentence(
                     InstallMcpCommand::tr("Updated the llm-sandbox server in %1 (the previous file is kept as %2)."),
                     InstallMcpCommand::tr("Updated the llm-sandbox server in %1."))
              << ' ' << restart << Qt::endl;
        break;
    case Outcome::Unchanged:
        out() << InstallMcpCommand::tr(
                     "%1 has the llm-sandbox server already, as it would be written: nothing changed.")
                     .arg(path)
              << Qt::endl;
        break;
    case Outcome::Removed:
        out() << sentence(
                     InstallMcpCommand::tr("Removed the llm-sandbox server from %1 (the previous file is kept as %2)."),
                     InstallMcpCommand::tr("Removed the llm-sandbox server from %1."))
              << Qt::endl;
        break;
    case Outcome::NotInstalled:
        out() << InstallMcpCommand::tr("%1 has no llm-sandbox server: nothing changed.").arg(path) << Qt::endl;
        break;
    }
    return 0;
}

} // namespace

int installMcpCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(InstallMcpCommand::tr(
        "Add llm-sandbox to an assistant's MCP configuration file, keeping everything else in it."));
    parser.addHelpOption();
    const QCommandLineOption client = clientOption();
    const QCommandLineOption transportOption(
        QStringLiteral("transport"),
        InstallMcpCommand::tr("stdio (default: the assistant starts `llm-sandbox --mcp`) or http (it connects to "
                              "`llm-sandbox serve --http` with the token)."),
        QStringLiteral("NAME"), QStringLiteral("stdio"));
    const QCommandLineOption backend = backendOption(InstallMcpCommand::tr(
        "docker, podman or kubernetes, for stdio (default: $BACKEND, then the app's setting, then docker)."));
    const QString defaultUrl = McpServerEntry::localUrl(UserSettings().serverPort());
    const QCommandLineOption urlOption(
        QStringLiteral("url"),
        InstallMcpCommand::tr("The server's URL, for http (default %1: the app's MCP server).").arg(defaultUrl),
        QStringLiteral("URL"), defaultUrl);
    const QCommandLineOption shareOption(
        QStringLiteral("share"),
        InstallMcpCommand::tr("A folder the server's sandboxes may read at /data/NAME, for stdio (LLM_SANDBOX_SHARE in "
                              "its entry); :rw lets results be saved there. Repeat it for more folders; none is "
                              "shared without it."),
        QStringLiteral("PATH[:NAME][:rw]"));
    const QCommandLineOption networkOption(
        QStringLiteral("network-allow"),
        InstallMcpCommand::tr("Hosts the server's runs may ask to reach, for stdio (LLM_SANDBOX_NETWORK_ALLOW in its "
                              "entry): api.example.org, *.example.org:8443 or registries, comma-separated. Nothing "
                              "is allowed without it."),
        QStringLiteral("HOSTS"));
    const QCommandLineOption project = projectOption();
    const QCommandLineOption dryRun = dryRunOption();
    parser.addOptions({client, project, transportOption, backend, urlOption, shareOption, networkOption, dryRun});
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    if (!parser.positionalArguments().isEmpty()) {
        printError(InstallMcpCommand::tr(
            "install-mcp takes no arguments besides its options; see `llm-sandbox install-mcp --help`."));
        return ExitUsage;
    }
    const std::optional<AssistantClient> assistant = clientFrom(parser, client);
    if (!assistant) {
        return ExitUsage;
    }
    const std::optional<McpConfigFile> file = fileOf(*assistant, parser, project);
    if (!file) {
        return ExitUsage;
    }
    const QString transport = parser.value(transportOption).trimmed().toLower();
    if (transport != QLatin1String("stdio") && transport != QLatin1String("http")) {
        printError(InstallMcpCommand::tr("unknown transport \"%1\"; use stdio or http.").arg(transport));
        return ExitUsage;
    }
    if (transport == QLatin1String("http") && !assistant->supportsHttp()) {
        printError(InstallMcpCommand::tr("Claude Desktop's configuration file only starts local (stdio) servers; use "
                                         "--transport stdio, or add http://…/mcp as a custom connector in Claude "
                                         "Desktop's settings."));
        return ExitUsage;
    }
    if (transport == QLatin1String("http") && parser.isSet(backend)) {
        printError(InstallMcpCommand::tr("--backend is for --transport stdio; the HTTP server uses its own backend."));
        return ExitUsage;
    }
    if (transport == QLatin1String("http") && parser.isSet(shareOption)) {
        printError(InstallMcpCommand::tr("--share is for --transport stdio; the HTTP server shares the folders of its "
                                         "own settings."));
        return ExitUsage;
    }
    if (transport == QLatin1String("http") && parser.isSet(networkOption)) {
        printError(InstallMcpCommand::tr("--network-allow is for --transport stdio; the HTTP server allows what its "
                                         "own settings do."));
        return ExitUsage;
    }
    const Result<NetworkAllowList> networkAllow =
        NetworkAllowList::parse(parser.values(networkOption).join(QLatin1Char(',')));
    if (!networkAllow) {
        printError(networkAllow.error());
        return ExitUsage;
    }
    // Read as LLM_SANDBOX_SHARE will be when the assistant starts the server: each folder checked now, names distinct.
    const Result<QList<SharedFolder>> folders =
        SharedFolder::parseList(parser.values(shareOption).join(QLatin1Char('\n')));
    if (!folders) {
        printError(folders.error());
        return ExitUsage;
    }

    Result<McpServerEntry> entry = Error{QString()};
    if (transport == QLatin1String("stdio")) {
        const QString backendName = parser.isSet(backend) ? parser.value(backend) : UserSettings().effectiveBackend();
        entry = McpServerEntry::stdio(QCoreApplication::applicationFilePath(), backendName,
                                      QProcessEnvironment::systemEnvironment());
        if (entry) {
            entry->setSharedFolders(*folders);
            entry->setNetworkAllow(*networkAllow);
        }
    } else {
        const Result<QByteArray> token = httpToken();
        if (!token) {
            printError(qEnvironmentVariableIsEmpty(mcp::BearerToken::kEnvironmentVariable)
                           ? httpTokenAdvice(token.error())
                           : errorLine(token.error()));
            return kExitNotChanged;
        }
        entry = McpServerEntry::http(parser.value(urlOption), *token);
    }
    if (!entry) {
        printError(entry.error());
        return ExitUsage;
    }
    if (!assistant->editsFile()) {
        // Its settings are its own database: the JSON to paste on stdout, where to paste it on stderr.
        out() << QString::fromUtf8(McpServerEntry::inServers(*assistant, entry->toJson(*assistant))) << Qt::endl;
        err() << InstallMcpCommand::tr("%1 keeps its servers in its own settings, which llm-sandbox does not edit. In "
                                       "Cherry Studio open Settings → MCP Servers → Add Server → Import from JSON, "
                                       "paste the JSON above and confirm.")
                     .arg(assistant->title())
              << Qt::endl;
        return 0;
    }
    const bool dry = parser.isSet(dryRun);
    return report(*assistant, *file,
                  file->install(McpServerEntry::kName, entry->toJson(*assistant), dry, entry->holdsSecret()), dry);
}

int uninstallMcpCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        InstallMcpCommand::tr("Remove llm-sandbox from an assistant's MCP configuration file, and nothing else."));
    parser.addHelpOption();
    const QCommandLineOption client = clientOption();
    const QCommandLineOption project = projectOption();
    const QCommandLineOption dryRun = dryRunOption();
    parser.addOptions({client, project, dryRun});
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    if (!parser.positionalArguments().isEmpty()) {
        printError(InstallMcpCommand::tr(
            "uninstall-mcp takes no arguments besides its options; see `llm-sandbox uninstall-mcp --help`."));
        return ExitUsage;
    }
    const std::optional<AssistantClient> assistant = clientFrom(parser, client);
    if (!assistant) {
        return ExitUsage;
    }
    const std::optional<McpConfigFile> file = fileOf(*assistant, parser, project);
    if (!file) {
        return ExitUsage;
    }
    if (!assistant->editsFile()) {
        err() << InstallMcpCommand::tr("%1 keeps its servers in its own settings, which llm-sandbox does not edit: "
                                       "remove llm-sandbox there (Settings → MCP Servers).")
                     .arg(assistant->title())
              << Qt::endl;
        return 0;
    }
    const bool dry = parser.isSet(dryRun);
    return report(*assistant, *file, file->uninstall(McpServerEntry::kName, dry), dry);
}

} // namespace sandbox::cli
