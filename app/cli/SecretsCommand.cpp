#include "cli/SecretsCommand.h"

#include "cli/CliContext.h"
#include "cli/TerminalInput.h"
#include "network/NetworkSecret.h"
#include "secrets/KeychainSecretStore.h"
#include "util/FutureWait.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace sandbox::cli {

namespace {

class SecretsCommand final
{
    Q_DECLARE_TR_FUNCTIONS(SecretsCommand)
};

QString keychainEntry(const QString &name)
{
    return KeychainSecretStore::kDefaultService + QLatin1Char('/') + NetworkSecret::keychainKey(name);
}

int setSecret(const QString &name, const QStringList &hosts, const QString &header)
{
    auto binding = NetworkSecret::make(name, hosts, header);
    if (!binding) {
        printError(binding.error().message);
        return ExitUsage;
    }
    auto secrets = NetworkSecretsFile::load();
    if (!secrets) {
        printError(secrets.error().message);
        return ExitFailure;
    }
    const QByteArray value =
        readSecret(SecretsCommand::tr("Value of %1 (sent to %2 only): ").arg(name, binding->hosts.join(u' ')));
    if (auto usable = NetworkSecret::checkValue(value); !usable) {
        printError(SecretsCommand::tr("%1 Nothing was stored.").arg(usable.error().message));
        return ExitUsage;
    }
    KeychainSecretStore keychain;
    if (auto stored = waitInEventLoop(keychain.set(NetworkSecret::keychainKey(name), value)); !stored) {
        printError(SecretsCommand::tr("The secret %1 could not be kept in the system keychain: %2. Nothing was stored.")
                       .arg(name, stored.error().message));
        return ExitFailure;
    }
    secrets->removeIf([&name](const NetworkSecret &each) { return each.name == name; });
    secrets->append(*binding);
    if (auto saved = NetworkSecretsFile::save(*secrets); !saved) {
        printError(saved.error().message);
        return ExitFailure;
    }
    err() << SecretsCommand::tr("Stored %1 in the system keychain as %2. A run allowed to reach %3 sees only a "
                                "placeholder in $%1; its egress proxy sends \"%4\" to %3 in its place.")
                 .arg(name, keychainEntry(name), binding->hosts.join(QStringLiteral(", ")), binding->header)
          << Qt::endl;
    return 0;
}

int removeSecret(const QString &name)
{
    auto secrets = NetworkSecretsFile::load();
    if (!secrets) {
        printError(secrets.error().message);
        return ExitFailure;
    }
    KeychainSecretStore keychain;
    if (auto removed = waitInEventLoop(keychain.remove(NetworkSecret::keychainKey(name))); !removed) {
        printError(
            SecretsCommand::tr("Could not remove %1 from the system keychain: %2.").arg(name, removed.error().message));
        return ExitFailure;
    }
    const qsizetype before = secrets->size();
    secrets->removeIf([&name](const NetworkSecret &each) { return each.name == name; });
    if (secrets->size() != before) {
        if (auto saved = NetworkSecretsFile::save(*secrets); !saved) {
            printError(saved.error().message);
            return ExitFailure;
        }
    }
    err() << SecretsCommand::tr("Removed the secret %1 (if there was one).").arg(name) << Qt::endl;
    return 0;
}

int listSecrets(bool json)
{
    auto secrets = NetworkSecretsFile::load();
    if (!secrets) {
        printError(secrets.error().message);
        return ExitFailure;
    }
    if (json) {
        QJsonArray entries;
        for (const NetworkSecret &secret : std::as_const(*secrets)) {
            entries.append(secret.toJson());
        }
        out() << QJsonDocument(entries).toJson(QJsonDocument::Indented) << Qt::flush;
        return 0;
    }
    if (secrets->isEmpty()) {
        err() << SecretsCommand::tr("No secrets: `llm-sandbox secrets set NAME --host HOST` stores one.") << Qt::endl;
        return 0;
    }
    QList<QStringList> rows{{SecretsCommand::tr("NAME"), SecretsCommand::tr("HOSTS"), SecretsCommand::tr("HEADER"),
                             SecretsCommand::tr("STORED")}};
    for (const NetworkSecret &secret : std::as_const(*secrets)) {
        rows << QStringList{secret.name, secret.hosts.join(u','), secret.header, secret.createdAt};
    }
    printColumns(rows);
    return 0;
}

} // namespace

int secretsCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        SecretsCommand::tr("Keep secrets that a run's egress proxy adds to its requests to the hosts they are bound "
                           "to; the sandbox sees only a placeholder."));
    parser.addHelpOption();
    const QCommandLineOption hostOption(QStringLiteral("host"),
                                        SecretsCommand::tr("set: a host the secret is sent to (repeat for more)."),
                                        QStringLiteral("HOST"));
    parser.addOption(hostOption);
    const QCommandLineOption headerOption(
        QStringLiteral("header"),
        SecretsCommand::tr("set: the header that carries it, {} where the value goes (default: "
                           "'Authorization: Bearer {}')."),
        QStringLiteral("HEADER"), QStringLiteral("Authorization: Bearer {}"));
    parser.addOption(headerOption);
    const QCommandLineOption jsonOption(QStringLiteral("json"), SecretsCommand::tr("list: as JSON."));
    parser.addOption(jsonOption);
    parser.addPositionalArgument(
        QStringLiteral("set NAME | list | remove NAME"),
        SecretsCommand::tr("set: store a secret (its value typed, or read from stdin) in the system keychain, bound "
                           "to --host. list: show the secrets (never their values). remove: forget one."));
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    const QStringList positional = parser.positionalArguments();
    const QString action = positional.value(0);
    if (action == QLatin1String("list") && positional.size() == 1) {
        return listSecrets(parser.isSet(jsonOption));
    }
    if (action == QLatin1String("set") && positional.size() == 2) {
        return setSecret(positional[1], parser.values(hostOption), parser.value(headerOption));
    }
    if (action == QLatin1String("remove") && positional.size() == 2) {
        return removeSecret(positional[1]);
    }
    printError(
        SecretsCommand::tr("use `llm-sandbox secrets set NAME --host HOST [--header 'Authorization: Bearer {}']`, "
                           "`llm-sandbox secrets list [--json]` or `llm-sandbox secrets remove NAME`."));
    return ExitUsage;
}

} // namespace sandbox::cli
