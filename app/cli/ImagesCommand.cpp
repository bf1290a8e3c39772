#include "cli/ImagesCommand.h"

#include "AppContext.h"
#include "ErrorText.h"
#include "cli/BuildProgressView.h"
#include "cli/CliContext.h"
#include "cli/TerminalInput.h"
#include "images/ImageBuilder.h"
#include "images/ImageCatalog.h"
#include "images/ImageInventory.h"
#include "images/ImagePusher.h"
#include "lang/LanguageRegistry.h"
#include "secrets/KeychainSecretStore.h"
#include "secrets/RegistryCredentialStore.h"
#include "settings/UserSettings.h"
#include "util/FutureWait.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QLocale>
#include <QThread>
#include <sys/ioctl.h>
#include <unistd.h>

namespace sandbox::cli {

namespace {

class ImagesCommand final
{
    Q_DECLARE_TR_FUNCTIONS(ImagesCommand)
};

Result<QList<Language>> selectLanguages(const QStringList &names)
{
    if (names.isEmpty()) {
        return LanguageRegistry::instance().languages();
    }
    QList<Language> chosen;
    for (const QString &name : names) {
        auto language = LanguageRegistry::instance().find(name);
        if (!language) {
            return language.error();
        }
        chosen.append(*language);
    }
    return chosen;
}

int terminalWidth()
{
    winsize size{};
    return ::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : 100;
}

int build(AppContext &context, ContainerBackend &backend, const QList<Language> &languages, const QString &copyFrom,
          int jobs, ImageBuilder::Scope scope)
{
    const ImageCatalog catalog = context.catalog();
    ImageBuilder builder(backend, catalog);
    if (!copyFrom.isEmpty()) {
        auto source = context.backend(copyFrom);
        if (!source) {
            printError(source.error());
            return exitStatusFor(source.error());
        }
        if (auto reachable = (*source)->probe(); !reachable) {
            printError(reachable.error());
            return exitStatusFor(reachable.error());
        }
        ImageStore *sourceStore = (*source)->imageStore();
        if (!sourceStore) {
            const Error error = (*source)->noImageStore(QStringLiteral("Copying images from %1").arg(copyFrom));
            printError(error);
            return exitStatusFor(error);
        }
        builder.setCopySource(sourceStore);
    }
    QElapsedTimer timer;
    timer.start();
    const bool terminal = ::isatty(STDERR_FILENO) == 1 && qEnvironmentVariable("TERM") != QLatin1String("dumb");
    BuildProgressView view(err(), terminal, terminalWidth());
    const auto built = builder.ensureAll(
        languages, jobs, [&](const ImageBuildEvent &event) { view.handle(event); }, scope);
    view.finish();
    if (!built) {
        printError(built.error());
        return exitStatusFor(built.error());
    }
    err() << ImagesCommand::tr("All images ready in %1 s").arg(timer.elapsed() / 1000.0, 0, 'f', 1) << Qt::endl;
    return 0;
}

QString age(const QDateTime &created)
{
    if (!created.isValid()) {
        return QStringLiteral("-");
    }
    const qint64 seconds = created.secsTo(QDateTime::currentDateTimeUtc());
    if (seconds < 3600) {
        return ImagesCommand::tr("%1 min").arg(std::max<qint64>(seconds / 60, 0));
    }
    if (seconds < 2 * 86400) {
        return ImagesCommand::tr("%1 h").arg(seconds / 3600);
    }
    return ImagesCommand::tr("%n days", nullptr, int(seconds / 86400));
}

/// In the binary units the desktop app shows too ("312.4 MiB").
QString dataSize(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

int list(AppContext &context, ImageStore &backend)
{
    const ImageCatalog catalog = context.catalog();
    const ImageInventory inventory(backend, catalog);
    auto languages = inventory.languages();
    if (!languages) {
        printError(languages.error());
        return exitStatusFor(languages.error());
    }
    // Columns of fixed widths (in terminal columns: a translated header or age may hold wide characters).
    const auto row = [](const QStringList &cells) {
        out() << padded(cells[0], -11) << ' ' << padded(cells[1], -9) << ' ' << padded(cells[2], -36) << ' '
              << padded(cells[3], 10) << ' ' << padded(cells[4], -8) << ' ' << cells[5] << '\n';
    };
    row({ImagesCommand::tr("LANGUAGE"), ImagesCommand::tr("VERSION"), ImagesCommand::tr("IMAGE"),
         ImagesCommand::tr("SIZE"), ImagesCommand::tr("AGE"), ImagesCommand::tr("STATUS")});
    for (const LanguageImage &image : *languages) {
        if (image.reference.isEmpty()) {
            printError(image.error);
            return exitStatusFor(image.error);
        }
        row({image.language,
             image.present ? (image.version.isEmpty() ? QStringLiteral("?") : image.version) : QStringLiteral("-"),
             image.reference, image.present ? dataSize(image.sizeBytes) : QStringLiteral("-"),
             image.present ? age(image.created) : QStringLiteral("-"),
             image.present ? ImagesCommand::tr("present")
                           : ImagesCommand::tr("missing (llm-sandbox images build %1)").arg(image.language)});
    }
    auto images = inventory.built();
    if (!images) {
        printError(images.error());
        return exitStatusFor(images.error());
    }
    out() << '\n'
          << ImagesCommand::tr(
                 "All images built by llm-sandbox in the %1 engine (sizes include the layers they share):")
                 .arg(backend.name())
          << '\n';
    for (const ImageInfo &image : *images) {
        out() << QStringLiteral("  %1 %2  %3\n")
                     .arg(image.reference, -44)
                     .arg(dataSize(image.sizeBytes), 10)
                     .arg(age(image.created));
    }
    out().flush();
    return 0;
}

/// `images prune`: removes the images of definitions that changed since they were built.
int prune(AppContext &context, ImageStore &backend)
{
    const ImageCatalog catalog = context.catalog();
    auto pruned = ImageInventory(backend, catalog).prune([](const QString &line) { err() << line << Qt::endl; });
    if (!pruned) {
        printError(pruned.error());
        return exitStatusFor(pruned.error());
    }
    const QString removed =
        ImagesCommand::tr("Removed %n superseded image(s) (%1)", nullptr, int(pruned->removed.size()))
            .arg(dataSize(pruned->bytes));
    err() << (pruned->kept.isEmpty()
                  ? removed
                  : ImagesCommand::tr("%1; kept %n that containers still use", nullptr, int(pruned->kept.size()))
                        .arg(removed))
          << Qt::endl;
    return 0;
}

/// The password of a login: typed without echo on a terminal, else all of stdin (readSecret()).
QString readPassword(const QString &username, const QString &registry)
{
    return QString::fromUtf8(readSecret(ImagesCommand::tr("Password for %1 at %2: ").arg(username, registry)));
}

QString keychainEntry(const QString &registry)
{
    return KeychainSecretStore::kDefaultService + QLatin1Char('/') + RegistryCredentialStore::secretKey(registry);
}

/// `images login`: the registry must accept the login (asked through the engine that will push) before the
/// keychain keeps it.
int login(ImageStore &backend, const QString &registry, QString username)
{
    const QString host = RegistryCredentials::registryHost(registry);
    if (username.isEmpty() && ::isatty(STDIN_FILENO) == 1) {
        username = promptLine(ImagesCommand::tr("Username for %1: ").arg(host), false).trimmed();
    }
    if (username.isEmpty()) {
        printError(
            ImagesCommand::tr("images login needs a username: --username NAME (the password comes from stdin)."));
        return ExitUsage;
    }
    const RegistryCredentials credentials{
        .username = username, .password = readPassword(username, host), .serverAddress = host};
    if (credentials.password.isEmpty()) {
        printError(ImagesCommand::tr("images login read no password: pipe it to stdin (`llm-sandbox images login %1 "
                                     "--username %2 < file`) or type it when asked.")
                       .arg(host, username));
        return ExitUsage;
    }
    if (auto accepted = backend.checkRegistryLogin(credentials); !accepted) {
        printError(ImagesCommand::tr("%1 Nothing was stored.").arg(errorLine(accepted.error())));
        return exitStatusFor(accepted.error());
    }
    KeychainSecretStore keychain;
    RegistryCredentialStore logins(keychain);
    if (auto stored = waitInEventLoop(logins.save(credentials)); !stored) {
        printError(ImagesCommand::tr("The registry %1 accepted the login, but it could not be kept: %2.")
                       .arg(host, stored.error().message));
        return ExitFailure;
    }
    err() << ImagesCommand::tr(
                 "Login Succeeded: %1 at %2, kept in the system keychain as %3; images push sends it to %2")
                 .arg(username, host, keychainEntry(host))
          << Qt::endl;
    return 0;
}

/// `images logout`: forgets the login; the registry is not asked.
int logout(const QString &registry)
{
    const QString host = RegistryCredentials::registryHost(registry);
    KeychainSecretStore keychain;
    RegistryCredentialStore logins(keychain);
    if (auto removed = waitInEventLoop(logins.remove(host)); !removed) {
        printError(ImagesCommand::tr("Could not remove the login of %1: %2.").arg(host, removed.error().message));
        return ExitFailure;
    }
    err() << ImagesCommand::tr("Removed the login of %1 from the system keychain (if there was one).").arg(host)
          << Qt::endl;
    return 0;
}

/// The login `images login` kept for `registry`; none when there is none, or when no keychain answers (a
/// registry without logins still takes the push).
RegistryCredentials storedLogin(const QString &registry)
{
    KeychainSecretStore keychain;
    RegistryCredentialStore logins(keychain);
    const auto stored = waitInEventLoop(logins.load(registry));
    if (!stored) {
        err() << ImagesCommand::tr("images push: no login from the system keychain (%1); pushing without one")
                     .arg(stored.error().message)
              << Qt::endl;
        return {};
    }
    if (!stored->has_value()) {
        return {};
    }
    err() << ImagesCommand::tr("Using the login of %1 for %2 from the system keychain")
                 .arg((*stored)->username, (*stored)->serverAddress)
          << Qt::endl;
    return **stored;
}

/// Tags each language's image as REGISTRY/<its name> and pushes it (ImagePusher).
int push(AppContext &context, ImageStore &backend, const QList<Language> &languages, const QString &registry)
{
    const ImageCatalog catalog = context.catalog();
    const RegistryCredentials credentials = storedLogin(registry);
    auto pushed = ImagePusher(backend, catalog).push(languages, registry, credentials, [](const QString &line) {
        err() << line << Qt::endl;
    });
    if (!pushed) {
        printError(pushed.error());
        return exitStatusFor(pushed.error());
    }
    err() << ImagesCommand::tr("Pushed %n image(s) to %1; for the kubernetes backend set LLM_SANDBOX_REGISTRY=%1",
                               nullptr, int(pushed->size()))
                 .arg(registry)
          << Qt::endl;
    for (const QString &reference : *pushed) {
        out() << reference << '\n';
    }
    out().flush();
    return 0;
}

} // namespace

int imagesCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(ImagesCommand::tr("Build and list the sandbox images."));
    parser.addHelpOption();
    const QCommandLineOption backendOption = cli::backendOption();
    parser.addOption(backendOption);
    const QCommandLineOption copyFromOption(
        QStringLiteral("copy-from"),
        ImagesCommand::tr("build: copy the images the NAME engine already has (e.g. docker) instead of building them."),
        QStringLiteral("NAME"));
    parser.addOption(copyFromOption);
    const QCommandLineOption jobsOption(
        QStringLiteral("jobs"),
        ImagesCommand::tr("build: how many languages to build at once (default 3; builds mostly wait for downloads)."),
        QStringLiteral("N"), QStringLiteral("3"));
    parser.addOption(jobsOption);
    const QCommandLineOption runImagesOption(
        QStringLiteral("run-images-only"),
        ImagesCommand::tr("build: only the images code runs in, not the builder and egress proxy of library installs "
                          "(the first install builds them)."));
    parser.addOption(runImagesOption);
    const QCommandLineOption registryOption(
        QStringLiteral("registry"),
        ImagesCommand::tr("push: the registry to push to (default: $LLM_SANDBOX_REGISTRY, else the one saved on the "
                          "desktop app's Backends page)."),
        QStringLiteral("HOST[:PORT]"));
    parser.addOption(registryOption);
    const QCommandLineOption usernameOption(
        QStringLiteral("username"),
        ImagesCommand::tr("login: the registry account (asked on a terminal when not given); the password or token "
                          "is read from stdin."),
        QStringLiteral("NAME"));
    parser.addOption(usernameOption);
    parser.addPositionalArgument(
        QStringLiteral("build [LANG...] | list | prune | push [LANG...] | login REGISTRY | logout REGISTRY"),
        ImagesCommand::tr(
            "build: build the images of LANG (all languages when none is given); images whose definition "
            "did not change are kept. list: show them. prune: remove the images of older definitions "
            "(not those containers use). push: build what is missing, then push the images "
            "of LANG to the registry as REGISTRY/llm-sandbox/LANG:TAG, with the login kept for it. login: "
            "check a login with REGISTRY and keep it in the system keychain. logout: forget it."));
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    QStringList positional = parser.positionalArguments();
    const QString action = positional.isEmpty() ? QString() : positional.takeFirst();
    const bool pushing = action == QLatin1String("push");
    const bool loggingIn = action == QLatin1String("login");
    if (action != QLatin1String("build") && action != QLatin1String("list") && action != QLatin1String("prune") &&
        !pushing && !loggingIn && action != QLatin1String("logout")) {
        printError(ImagesCommand::tr("use `llm-sandbox images build [LANG...]`, `llm-sandbox images list`, "
                                     "`llm-sandbox images prune`, "
                                     "`llm-sandbox images push [--registry HOST[:PORT]] [LANG...]` or "
                                     "`llm-sandbox images login|logout REGISTRY`."));
        return ExitUsage;
    }
    if (parser.isSet(runImagesOption) && action != QLatin1String("build")) {
        printError(ImagesCommand::tr("--run-images-only goes with `images build` only."));
        return ExitUsage;
    }
    const bool loginOrLogout = loggingIn || action == QLatin1String("logout");
    if (loginOrLogout && positional.size() > 1) {
        printError(ImagesCommand::tr("images %1 takes one registry, and the password only from stdin.").arg(action));
        return ExitUsage;
    }
    QString registry = ImagePusher::registryFrom(loginOrLogout ? positional.value(0) : parser.value(registryOption));
    if (pushing && registry.isEmpty()) {
        // The registry the kubernetes backend's pods pull from when the variable is unset.
        registry = ImagePusher::registryFrom(UserSettings().connection().registry);
    }
    if ((pushing || loginOrLogout) && registry.isEmpty()) {
        printError(ImagesCommand::tr("images %1 needs a registry: name it with %2 or LLM_SANDBOX_REGISTRY (the same "
                                     "variable the kubernetes backend pulls from), or save it on the desktop app's "
                                     "Backends page.")
                       .arg(action, pushing ? QStringLiteral("--registry HOST[:PORT]") : QStringLiteral("REGISTRY")));
        return ExitUsage;
    }
    if (action == QLatin1String("logout")) {
        return logout(registry);
    }
    QString backendName = parser.value(backendOption);
    if ((pushing || loggingIn) && backendName == QLatin1String("kubernetes")) {
        printError(ImagesCommand::tr("images %1 works through the engine that has the images: use --backend docker or "
                                     "--backend podman (the kubernetes backend then pulls them from the registry).")
                       .arg(action));
        return ExitUsage;
    }
    auto context = AppContext::create({.source = RunSource::Cli, .backendName = backendName});
    if (!context) {
        printError(context.error());
        return exitStatusFor(context.error());
    }
    if ((pushing || loggingIn) && backendName.isEmpty() &&
        (*context)->defaultBackend() == QLatin1String("kubernetes")) {
        // BACKEND=kubernetes is what users of a cluster have set; the images they push live in the local engine.
        backendName = QStringLiteral("docker");
        err() << ImagesCommand::tr("images %1: the kubernetes backend has no images of its own; using docker "
                                   "(--backend podman for Podman)")
                     .arg(action)
              << Qt::endl;
    }
    auto backend = (*context)->backend(backendName);
    if (!backend) {
        printError(backend.error());
        return exitStatusFor(backend.error());
    }
    ImageStore *store = (*backend)->imageStore();
    if (!store) {
        const Error error = (*backend)->noImageStore(QStringLiteral("`images %1`").arg(action));
        printError(error);
        return exitStatusFor(error);
    }
    if (action == QLatin1String("list")) {
        return list(**context, *store);
    }
    if (action == QLatin1String("prune")) {
        return prune(**context, *store);
    }
    if (loggingIn) {
        return login(*store, registry, parser.value(usernameOption).trimmed());
    }
    auto languages = selectLanguages(positional);
    if (!languages) {
        printError(languages.error());
        return ExitUsage;
    }
    bool jobsValid = false;
    const int jobs = parser.value(jobsOption).toInt(&jobsValid);
    if (!jobsValid || jobs < 1) {
        printError(ImagesCommand::tr("--jobs takes a number of at least 1."));
        return ExitUsage;
    }
    if (const int built =
            build(**context, **backend, *languages, parser.value(copyFromOption), jobs,
                  parser.isSet(runImagesOption) ? ImageBuilder::Scope::RunChain : ImageBuilder::Scope::Everything);
        built != 0 || action == QLatin1String("build")) {
        return built;
    }
    return push(**context, *store, *languages, registry);
}

} // namespace sandbox::cli
