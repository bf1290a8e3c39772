#include "cli/ImagesCommand.h"

#include "AppContext.h"
#include "cli/CliContext.h"
#include "images/ImageBuilder.h"
#include "images/ImageCatalog.h"
#include "lang/LanguageRegistry.h"

#include <QCommandLineParser>
#include <QElapsedTimer>

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

int build(AppContext &context, ContainerBackend &backend, const QList<Language> &languages, const QString &copyFrom)
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
    for (const Language &language : languages) {
        err() << "==> " << language.displayName << Qt::endl;
        auto built = builder.ensure(language, [](const QString &line) { err() << line << Qt::endl; });
        if (!built) {
            printError(built.error().message);
            return exitStatusFor(built.error());
        }
    }
    err() << "All images ready in " << QString::number(timer.elapsed() / 1000.0, 'f', 1) << " s" << Qt::endl;
    return 0;
}

int list(AppContext &context, ContainerBackend &backend)
{
    const ImageCatalog catalog = context.catalog();
    out() << QStringLiteral("%1 %2 %3\n")
                 .arg(QStringLiteral("LANGUAGE"), -12)
                 .arg(QStringLiteral("IMAGE"), -40)
                 .arg(QStringLiteral("STATUS"));
    for (const Language &language : LanguageRegistry::instance().languages()) {
        auto image = catalog.runImage(language);
        if (!image) {
            printError(image.error().message);
            return exitStatusFor(image.error());
        }
        auto present = backend.hasImage(*image);
        if (!present) {
            printError(present.error().message);
            return exitStatusFor(present.error());
        }
        out() << QStringLiteral("%1 %2 %3\n")
                     .arg(language.name, -12)
                     .arg(*image, -40)
                     .arg(*present ? QStringLiteral("present")
                                   : QStringLiteral("missing (llm-sandbox images build %1)").arg(language.name));
    }
    auto images = backend.listImages(ImageCatalog::imageLabel());
    if (!images) {
        printError(images.error().message);
        return exitStatusFor(images.error());
    }
    out() << "\nAll images built by llm-sandbox in the " << backend.name() << " engine:\n";
    for (const ImageInfo &image : *images) {
        out() << QStringLiteral("  %1 %2 MB  %3\n")
                     .arg(image.reference, -44)
                     .arg(image.sizeBytes / (1024 * 1024), 6)
                     .arg(image.created.toString(Qt::ISODate));
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
    parser.addPositionalArgument(QStringLiteral("build [LANG...] | list"),
                                 QStringLiteral("build: build the images of LANG (all languages when none is given); "
                                                "images whose definition did not change are kept. list: show them."));
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    QStringList positional = parser.positionalArguments();
    const QString action = positional.isEmpty() ? QString() : positional.takeFirst();
    if (action != QLatin1String("build") && action != QLatin1String("list")) {
        printError(QStringLiteral("use `llm-sandbox images build [LANG...]` or `llm-sandbox images list`."));
        return ExitUsage;
    }
    auto context = AppContext::create({.source = QStringLiteral("cli"), .backendName = parser.value(backendOption)});
    if (!context) {
        printError(context.error().message);
        return exitStatusFor(context.error());
    }
    auto backend = (*context)->backend();
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
    return build(**context, **backend, *languages, parser.value(copyFromOption));
}

} // namespace sandbox::cli
