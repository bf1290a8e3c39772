#include "cli/ImagesCommand.h"

#include "AppContext.h"
#include "cli/BuildProgressView.h"
#include "cli/CliContext.h"
#include "images/ImageBuilder.h"
#include "images/ImageCatalog.h"
#include "lang/LanguageRegistry.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QThread>
#include <sys/ioctl.h>
#include <unistd.h>

namespace sandbox::cli {

namespace {

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
          int jobs)
{
    const ImageCatalog catalog = context.catalog();
    ImageBuilder builder(backend, catalog);
    if (!copyFrom.isEmpty()) {
        auto source = context.backend(copyFrom);
        if (!source) {
            printError(source.error().message);
            return exitStatusFor(source.error());
        }
        if (auto reachable = (*source)->probe(); !reachable) {
            printError(reachable.error().message);
            return exitStatusFor(reachable.error());
        }
        builder.setCopySource(source->get());
    }
    QElapsedTimer timer;
    timer.start();
    const bool terminal = ::isatty(STDERR_FILENO) == 1 && qEnvironmentVariable("TERM") != QLatin1String("dumb");
    BuildProgressView view(err(), terminal, terminalWidth());
    const auto built = builder.ensureAll(languages, jobs, [&](const ImageBuildEvent &event) { view.handle(event); });
    view.finish();
    if (!built) {
        printError(built.error().message);
        return exitStatusFor(built.error());
    }
    err() << "All images ready in " << QString::number(timer.elapsed() / 1000.0, 'f', 1) << " s" << Qt::endl;
    return 0;
}

QString age(const QDateTime &created)
{
    if (!created.isValid()) {
        return QStringLiteral("-");
    }
    const qint64 seconds = created.secsTo(QDateTime::currentDateTimeUtc());
    if (seconds < 3600) {
        return QStringLiteral("%1 min").arg(std::max<qint64>(seconds / 60, 0));
    }
    if (seconds < 2 * 86400) {
        return QStringLiteral("%1 h").arg(seconds / 3600);
    }
    return QStringLiteral("%1 days").arg(seconds / 86400);
}

QString megabytes(qint64 bytes)
{
    return QStringLiteral("%1 MB").arg(bytes / (1000 * 1000));
}

int list(AppContext &context, ContainerBackend &backend)
{
    const ImageCatalog catalog = context.catalog();
    auto images = backend.listImages(ImageCatalog::imageLabel());
    if (!images) {
        printError(images.error().message);
        return exitStatusFor(images.error());
    }
    const auto info = [&](const QString &reference) -> const ImageInfo * {
        for (const ImageInfo &image : *images) {
            if (image.reference == reference) {
                return &image;
            }
        }
        return nullptr;
    };
    const QString row = QStringLiteral("%1 %2 %3 %4 %5 %6\n");
    out() << row.arg(QStringLiteral("LANGUAGE"), -11)
                 .arg(QStringLiteral("VERSION"), -9)
                 .arg(QStringLiteral("IMAGE"), -36)
                 .arg(QStringLiteral("SIZE"), 8)
                 .arg(QStringLiteral("AGE"), -8)
                 .arg(QStringLiteral("STATUS"));
    for (const Language &language : LanguageRegistry::instance().languages()) {
        auto image = catalog.runImage(language);
        if (!image) {
            printError(image.error().message);
            return exitStatusFor(image.error());
        }
        const ImageInfo *present = info(*image);
        out() << row.arg(language.name, -11)
                     .arg(present ? present->labels.value(ImageBuilder::versionLabel(), QStringLiteral("?"))
                                  : QStringLiteral("-"),
                          -9)
                     .arg(*image, -36)
                     .arg(present ? megabytes(present->sizeBytes) : QStringLiteral("-"), 8)
                     .arg(present ? age(present->created) : QStringLiteral("-"), -8)
                     .arg(present ? QStringLiteral("present")
                                  : QStringLiteral("missing (llm-sandbox images build %1)").arg(language.name));
    }
    out() << "\nAll images built by llm-sandbox in the " << backend.name()
          << " engine (sizes include the layers they share):\n";
    for (const ImageInfo &image : *images) {
        out() << QStringLiteral("  %1 %2  %3\n")
                     .arg(image.reference, -44)
                     .arg(megabytes(image.sizeBytes), 8)
                     .arg(age(image.created));
    }
    out().flush();
    return 0;
}

/// The registry of `images push`: --registry, else LLM_SANDBOX_REGISTRY (as the kubernetes backend reads it), without
/// a trailing slash; empty when neither names one.
QString registryFrom(const QString &option)
{
    QString registry =
        option.trimmed().isEmpty() ? qEnvironmentVariable("LLM_SANDBOX_REGISTRY").trimmed() : option.trimmed();
    while (registry.endsWith(QLatin1Char('/'))) {
        registry.chop(1);
    }
    return registry;
}

/// Tags each language's image as REGISTRY/<its name> and pushes it: the references the kubernetes backend asks
/// its pods for when LLM_SANDBOX_REGISTRY names the same registry.
int push(AppContext &context, ContainerBackend &backend, const QList<Language> &languages, const QString &registry)
{
    const ImageCatalog catalog = context.catalog();
    QStringList pushed;
    for (const Language &language : languages) {
        auto image = catalog.runImage(language);
        if (!image) {
            printError(image.error().message);
            return exitStatusFor(image.error());
        }
        const QString target = registry + u'/' + *image;
        err() << "Pushing " << *image << " as " << target << Qt::endl;
        if (auto tagged = backend.tagImage(*image, target); !tagged) {
            printError(tagged.error().message);
            return exitStatusFor(tagged.error());
        }
        auto sent = backend.pushImage(target, [&](const QString &line) { err() << "  " << line << Qt::endl; });
        if (!sent) {
            printError(sent.error().message);
            return exitStatusFor(sent.error());
        }
        pushed << target;
    }
    err() << "Pushed " << pushed.size() << (pushed.size() == 1 ? " image" : " images") << " to " << registry
          << "; for the kubernetes backend set LLM_SANDBOX_REGISTRY=" << registry << Qt::endl;
    for (const QString &reference : pushed) {
        out() << reference << '\n';
    }
    out().flush();
    return 0;
}

} // namespace

int imagesCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Build and list the sandbox images."));
    parser.addHelpOption();
    const QCommandLineOption backendOption = cli::backendOption();
    parser.addOption(backendOption);
    const QCommandLineOption copyFromOption(
        QStringLiteral("copy-from"),
        QStringLiteral("build: copy the images the NAME engine already has (e.g. docker) instead of building them."),
        QStringLiteral("NAME"));
    parser.addOption(copyFromOption);
    const QCommandLineOption jobsOption(
        QStringLiteral("jobs"),
        QStringLiteral("build: how many languages to build at once (default 3; builds mostly wait for downloads)."),
        QStringLiteral("N"), QStringLiteral("3"));
    parser.addOption(jobsOption);
    const QCommandLineOption registryOption(
        QStringLiteral("registry"), QStringLiteral("push: the registry to push to (default: $LLM_SANDBOX_REGISTRY)."),
        QStringLiteral("HOST[:PORT]"));
    parser.addOption(registryOption);
    parser.addPositionalArgument(
        QStringLiteral("build [LANG...] | list | push [LANG...]"),
        QStringLiteral("build: build the images of LANG (all languages when none is given); images whose definition "
                       "did not change are kept. list: show them. push: build what is missing, then push the images "
                       "of LANG to the registry as REGISTRY/llm-sandbox/LANG:TAG."));
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    QStringList positional = parser.positionalArguments();
    const QString action = positional.isEmpty() ? QString() : positional.takeFirst();
    if (action != QLatin1String("build") && action != QLatin1String("list") && action != QLatin1String("push")) {
        printError(QStringLiteral("use `llm-sandbox images build [LANG...]`, `llm-sandbox images list` or "
                                  "`llm-sandbox images push [--registry HOST[:PORT]] [LANG...]`."));
        return ExitUsage;
    }
    const QString registry = registryFrom(parser.value(registryOption));
    if (action == QLatin1String("push") && registry.isEmpty()) {
        printError(QStringLiteral("images push needs a registry: name it with --registry HOST[:PORT] or "
                                  "LLM_SANDBOX_REGISTRY (the same variable the kubernetes backend pulls from)."));
        return ExitUsage;
    }
    QString backendName = parser.value(backendOption);
    if (action == QLatin1String("push") && backendName == QLatin1String("kubernetes")) {
        printError(QStringLiteral("images push sends images from the engine that has them: use --backend docker or "
                                  "--backend podman (the kubernetes backend then pulls them from the registry)."));
        return ExitUsage;
    }
    auto context = AppContext::create({.source = QStringLiteral("cli"), .backendName = backendName});
    if (!context) {
        printError(context.error().message);
        return exitStatusFor(context.error());
    }
    if (action == QLatin1String("push") && backendName.isEmpty() &&
        (*context)->defaultBackend() == QLatin1String("kubernetes")) {
        // BACKEND=kubernetes is what users of a cluster have set; the images they push live in the local engine.
        backendName = QStringLiteral("docker");
        err() << "images push: the kubernetes backend has no images of its own; pushing from docker "
                 "(--backend podman for Podman's)"
              << Qt::endl;
    }
    auto backend = (*context)->backend(backendName);
    if (!backend) {
        printError(backend.error().message);
        return exitStatusFor(backend.error());
    }
    if (action == QLatin1String("list")) {
        return list(**context, **backend);
    }
    auto languages = selectLanguages(positional);
    if (!languages) {
        printError(languages.error().message);
        return ExitUsage;
    }
    bool jobsValid = false;
    const int jobs = parser.value(jobsOption).toInt(&jobsValid);
    if (!jobsValid || jobs < 1) {
        printError(QStringLiteral("--jobs takes a number of at least 1."));
        return ExitUsage;
    }
    if (const int built = build(**context, **backend, *languages, parser.value(copyFromOption), jobs);
        built != 0 || action == QLatin1String("build")) {
        return built;
    }
    return push(**context, **backend, *languages, registry);
}

} // namespace sandbox::cli
