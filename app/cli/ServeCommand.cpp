#include "cli/ServeCommand.h"

#include "AppContext.h"
#include "ErrorText.h"
#include "SignalCanceller.h"
#include "cli/CliContext.h"
#include "engine/ExecutionEngine.h"
#include "journal/JournalRecorder.h"
#include "mcp/McpHost.h"
#include "mcp/http/BearerToken.h"
#include "secrets/KeychainSecretStore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QHostAddress>
#include <memory>
#include <stop_token>

namespace sandbox::cli {

namespace {

class ServeCommand final
{
    Q_DECLARE_TR_FUNCTIONS(ServeCommand)
};

using mcp::BearerToken;

constexpr int kExitStartFailure = 1;

struct ListenAddress
{
    QHostAddress address;
    quint16 port = 0;
};

/// "127.0.0.1:8080", "[::1]:8080" or "localhost:8080"; only addresses, so no DNS answer decides where we listen.
Result<ListenAddress> parseListenAddress(const QString &text)
{
    const auto invalid = [&text] {
        return Error{ServeCommand::tr("--http wants HOST:PORT such as 127.0.0.1:8080, not \"%1\".").arg(text)};
    };
    QString host;
    QString port;
    if (text.startsWith(QLatin1Char('['))) {
        const qsizetype close = text.indexOf(QLatin1String("]:"));
        if (close < 0) {
            return invalid();
        }
        host = text.mid(1, close - 1);
        port = text.mid(close + 2);
    } else {
        const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
        if (colon <= 0 || text.indexOf(QLatin1Char(':')) != colon) {
            return invalid();
        }
        host = text.left(colon);
        port = text.mid(colon + 1);
    }
    bool numeric = false;
    const uint portNumber = port.toUInt(&numeric);
    if (!numeric || portNumber > 65535) {
        return invalid();
    }
    QHostAddress address;
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0) {
        address = QHostAddress(QHostAddress::LocalHost);
    } else if (!address.setAddress(host)) {
        return Error{ServeCommand::tr("--http wants an IP address (or localhost), not \"%1\".").arg(host)};
    }
    return ListenAddress{address, static_cast<quint16>(portNumber)};
}

QString keychainEntry()
{
    return KeychainSecretStore::kDefaultService + QLatin1Char('/') + BearerToken::kSecretKey;
}

/// `serve --show-token`: the token a client needs, on stdout.
int showToken()
{
    const QByteArray fromEnvironment = qgetenv(BearerToken::kEnvironmentVariable);
    if (!fromEnvironment.isEmpty()) {
        out() << fromEnvironment << Qt::endl;
        return 0;
    }
    // QtKeychain answers through the event loop: the future's continuation ends it (no server runs here).
    KeychainSecretStore store;
    QMetaObject::invokeMethod(
        qApp,
        [&store] {
            store.get(BearerToken::kSecretKey).then(qApp, [](const Result<std::optional<QByteArray>> &stored) {
                if (!stored) {
                    printError(httpTokenAdvice(stored.error()));
                    QCoreApplication::exit(kExitStartFailure);
                } else if (!stored->has_value()) {
                    printError(
                        ServeCommand::tr("no token yet: `llm-sandbox serve --http 127.0.0.1:PORT` creates one."));
                    QCoreApplication::exit(kExitStartFailure);
                } else {
                    out() << **stored << Qt::endl;
                    QCoreApplication::exit(0);
                }
            });
        },
        Qt::QueuedConnection);
    return QCoreApplication::exec();
}

} // namespace

QString httpTokenAdvice(const Error &error)
{
    return ServeCommand::tr("cannot keep the HTTP token in the system keychain: %1. Set %2 to a secret of at least %3 "
                            "characters instead, e.g. `export %2=$(head -c 32 /dev/urandom | base64)`, and give "
                            "clients the same value.")
        .arg(error.message, QLatin1String(BearerToken::kEnvironmentVariable))
        .arg(BearerToken::kMinimumLength);
}

int serveCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        ServeCommand::tr("Serve the Model Context Protocol over Streamable HTTP at http://HOST:PORT/mcp."));
    parser.addHelpOption();
    const QCommandLineOption httpOption(
        QStringLiteral("http"),
        ServeCommand::tr("Listen on HOST:PORT (an IP address or localhost; port 0 picks a free one)."),
        QStringLiteral("HOST:PORT"));
    const QCommandLineOption backendOption = cli::backendOption();
    const QCommandLineOption allowRemoteOption(
        QStringLiteral("allow-remote"),
        ServeCommand::tr("Allow a non-loopback HOST: anyone who reaches it with the token can run code."));
    const QCommandLineOption allowOriginOption(
        QStringLiteral("allow-origin"),
        ServeCommand::tr("Also accept requests from web pages of ORIGIN (scheme://host:port); repeatable."),
        QStringLiteral("ORIGIN"));
    const QCommandLineOption showTokenOption(QStringLiteral("show-token"),
                                             ServeCommand::tr("Print the token clients must send, and exit."));
    const QCommandLineOption newTokenOption(
        QStringLiteral("new-token"),
        ServeCommand::tr("Replace the token in the keychain with a new one before serving (old clients get 401)."));
    parser.addOptions(
        {httpOption, backendOption, allowRemoteOption, allowOriginOption, showTokenOption, newTokenOption});
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    if (!parser.positionalArguments().isEmpty()) {
        printError(ServeCommand::tr("serve takes no arguments besides its options; see `llm-sandbox serve --help`."));
        return ExitUsage;
    }
    if (parser.isSet(showTokenOption)) {
        return showToken();
    }
    if (!parser.isSet(httpOption)) {
        printError(ServeCommand::tr("serve needs --http HOST:PORT, e.g. --http 127.0.0.1:8080."));
        return ExitUsage;
    }
    const Result<ListenAddress> listen = parseListenAddress(parser.value(httpOption));
    if (!listen) {
        printError(listen.error());
        return ExitUsage;
    }
    const bool loopback = listen->address.isLoopback();
    if (!loopback && !parser.isSet(allowRemoteOption)) {
        printError(ServeCommand::tr("%1 is not a loopback address: anyone who can reach it could run code in the "
                                    "sandbox. Pass --allow-remote if that is what you want.")
                       .arg(listen->address.toString()));
        return ExitUsage;
    }
    if (!loopback) {
        printError(ServeCommand::tr("warning: serving on %1 without TLS; the token travels in clear text. Prefer "
                                    "127.0.0.1 behind an HTTPS reverse proxy.")
                       .arg(listen->address.toString()));
    }

    // Before any other thread exists: the signals are then blocked everywhere and taken by the canceller's thread.
    SignalCanceller canceller;

    auto context = AppContext::create({.source = RunSource::Http,
                                       .backendName = parser.value(backendOption),
                                       .removeOrphans = true,
                                       .prewarm = {QStringLiteral("python")},
                                       .applyRetention = true});
    // Still serve, as --mcp does, when the settings are invalid or the backend cannot be made: the language tools
    // work, and execute_code answers with what is wrong.
    const Result<ExecutionEngine *> engine =
        context ? (*context)->engine() : Result<ExecutionEngine *>(context.error());
    if (!engine) {
        printError(engine.error());
    }
    mcp::McpHost host(engine, context ? (*context)->recorder() : nullptr);

    mcp::HttpServerOptions options;
    options.address = listen->address;
    options.port = listen->port;
    options.allowRemote = !loopback;
    options.allowedOrigins = parser.values(allowOriginOption);

    // The token comes first, then the server starts; all of it inside the event loop (QtKeychain answers there, and
    // exit() only works once exec() runs), so no request is ever handled inside a nested loop.
    KeychainSecretStore store;
    const QByteArray fromEnvironment = qgetenv(BearerToken::kEnvironmentVariable);
    const bool newToken = parser.isSet(newTokenOption) && fromEnvironment.isEmpty();
    const auto start = [&] {
        QFuture<Result<void>> replaced = newToken ? store.set(BearerToken::kSecretKey, BearerToken::generate())
                                                  : QtFuture::makeReadyFuture(Result<void>());
        replaced
            .then(qApp,
                  [&store, fromEnvironment](const Result<void> &done) {
                      return done ? BearerToken::load(store, fromEnvironment)
                                  : QtFuture::makeReadyFuture(Result<BearerToken::Loaded>(done.error()));
                  })
            .unwrap()
            .then(qApp, [&host, &options](const Result<BearerToken::Loaded> &loaded) {
                if (!loaded) {
                    printError(qEnvironmentVariableIsEmpty(BearerToken::kEnvironmentVariable)
                                   ? httpTokenAdvice(loaded.error())
                                   : errorLine(loaded.error()));
                    QCoreApplication::exit(kExitStartFailure);
                    return;
                }
                switch (loaded->source) {
                case BearerToken::Source::Environment:
                    printError(
                        ServeCommand::tr("token: from %1.").arg(QLatin1String(BearerToken::kEnvironmentVariable)));
                    break;
                case BearerToken::Source::SecretStore:
                    printError(ServeCommand::tr("token: in the system keychain under %1; show it with `llm-sandbox "
                                                "serve --show-token`.")
                                   .arg(keychainEntry()));
                    break;
                case BearerToken::Source::Created:
                    printError(ServeCommand::tr("token: created and stored in the system keychain under %1; show it "
                                                "with `llm-sandbox serve --show-token`.")
                                   .arg(keychainEntry()));
                    break;
                }
                const Result<QUrl> url = host.startHttp(loaded->token, options);
                if (!url) {
                    printError(url.error());
                    QCoreApplication::exit(kExitStartFailure);
                    return;
                }
                // Tests and scripts read the port from this line when they asked for port 0: it stays English.
                printError(QStringLiteral("serving MCP over Streamable HTTP at %1").arg(url->toString()));
            });
    };
    QMetaObject::invokeMethod(qApp, start, Qt::QueuedConnection);

    std::stop_callback onSignal(canceller.token(), [] {
        QMetaObject::invokeMethod(
            qApp, [] { QCoreApplication::exit(0); }, Qt::QueuedConnection);
    });
    const int status = QCoreApplication::exec();
    if (host.state() == mcp::McpHost::State::Running) {
        printError(ServeCommand::tr("stopping: cancelling running calls."));
    }
    host.stopHttpAndWait(); // cancels running calls and waits for their containers to be removed
    return status;
}

} // namespace sandbox::cli
