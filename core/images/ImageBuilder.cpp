#include "images/ImageBuilder.h"

#include "backend/ImageTransfer.h"
#include "backend/TarArchive.h"
#include "images/ImageProbe.h"
#include "lang/LanguageRegistry.h"
#include "util/TemporaryPaths.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QMutex>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThreadPool>
#include <optional>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcImages, "sandbox.images")

namespace sandbox {

namespace {

QHash<QString, QString> parseConf(const QByteArray &text)
{
    QHash<QString, QString> values;
    for (const QByteArray &raw : text.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#')) {
            continue;
        }
        const int equals = int(line.indexOf('='));
        if (equals > 0) {
            values.insert(QString::fromUtf8(line.left(equals).trimmed()),
                          QString::fromUtf8(line.mid(equals + 1).trimmed()));
        }
    }
    return values;
}

} // namespace

ImageBuilder::ImageBuilder(ContainerBackend &engine, const ImageCatalog &catalog)
    : m_engine(engine), m_backend(*engine.imageStore()), m_catalog(catalog)
{}

Result<void> ImageBuilder::ensure(const Language &language, const ProgressCallback &progress, const QString &upTo)
{
    auto chain = m_catalog.imagesFor(language, upTo);
    if (!chain) {
        return chain.error();
    }
    if (m_source) {
        copyMissing(*chain, progress);
    }
    auto ensured = ensureImages(language, *chain, [&](const ImageBuildEvent &event) {
        switch (event.kind) {
        case ImageBuildEvent::Kind::UpToDate:
            progress(QStringLiteral("%1: up to date").arg(event.reference));
            break;
        case ImageBuildEvent::Kind::Started:
            progress(QStringLiteral("%1: building").arg(event.reference));
            break;
        case ImageBuildEvent::Kind::Output:
            progress(QStringLiteral("  ") + event.line);
            break;
        case ImageBuildEvent::Kind::Finished:
            progress(QStringLiteral("%1: built in %2 s").arg(event.reference).arg(event.seconds, 0, 'f', 1));
            break;
        case ImageBuildEvent::Kind::Failed:
            break; // the error is the result
        }
    });
    if (m_cancelled) {
        return rollBack(QStringLiteral("The build of the %1 images was cancelled").arg(language.name));
    }
    return ensured;
}

void ImageBuilder::remember(const QString &reference, const QString &previousId)
{
    QMutexLocker lock(&m_madeMutex);
    m_made.append(Made{.reference = reference, .previousId = previousId});
}

QString ImageBuilder::imageId(const QString &reference)
{
    const auto images = m_backend.listImages(ImageCatalog::imageLabel());
    if (images) {
        for (const ImageInfo &image : *images) {
            // Podman may store the name qualified ("localhost/llm-sandbox/...").
            if (image.reference == reference || image.reference.endsWith(QLatin1Char('/') + reference)) {
                return image.id;
            }
        }
    }
    return {};
}

Error ImageBuilder::rollBack(const QString &what)
{
    QMutexLocker lock(&m_madeMutex);
    QStringList kept;
    // Children first: an image another one is built on goes after it.
    for (auto it = m_made.crbegin(); it != m_made.crend(); ++it) {
        Result<void> undone;
        if (it->previousId.isEmpty()) {
            undone = m_backend.removeImage(it->reference);
        } else if (const QString madeId = imageId(it->reference); madeId != it->previousId) {
            // The name goes back to the image it named before the rebuild; the rebuilt one, nameless now, goes.
            undone = m_backend.tagImage(it->previousId, it->reference);
            if (undone && !madeId.isEmpty()) {
                undone = m_backend.removeImage(madeId);
            }
        }
        if (!undone) {
            qCWarning(lcImages).noquote()
                << "could not undo" << it->reference << "after the cancel:" << undone.error().message;
            kept << it->reference;
        }
    }
    m_made.clear();
    return Error{kept.isEmpty() ? QStringLiteral("%1; nothing it made was kept.").arg(what)
                                : QStringLiteral("%1; still there (in use): %2.").arg(what, kept.join(u", ")),
                 ErrorCode::Cancelled};
}

Result<void> ImageBuilder::ensureAll(const QList<Language> &languages, int jobs, const ImageBuildCallback &events,
                                     Scope scope)
{
    QList<QList<ImageDefinition>> chains;
    QHash<QString, int> uses; // reference -> how many chains have it
    for (const Language &language : languages) {
        auto chain = scope == Scope::RunChain ? m_catalog.chainFor(language) : m_catalog.imagesFor(language);
        if (!chain) {
            return chain.error();
        }
        for (const ImageDefinition &image : *chain) {
            ++uses[image.reference];
        }
        chains.append(*chain);
    }
    if (m_source) {
        QList<ImageDefinition> all;
        QSet<QString> seen;
        for (const auto &chain : chains) {
            for (const ImageDefinition &image : chain) {
                if (!seen.contains(image.reference)) {
                    seen.insert(image.reference);
                    all.append(image);
                }
            }
        }
        copyMissing(all, [&](const QString &line) {
            events(ImageBuildEvent{.reference = {}, .name = {}, .kind = ImageBuildEvent::Kind::Output, .line = line});
        });
    }

    // The images several chains share come first, one after the other (a chain's shared images are its first).
    QSet<QString> done;
    for (int i = 0; i < chains.size(); ++i) {
        QList<ImageDefinition> shared;
        for (const ImageDefinition &image : chains[i]) {
            if (uses.value(image.reference) > 1 && !done.contains(image.reference)) {
                shared.append(image);
                done.insert(image.reference);
            }
        }
        if (auto built = ensureImages(languages[i], shared, events); !built) {
            return m_cancelled ? rollBack(QStringLiteral("The image build was cancelled")) : built;
        }
    }

    // Then each language's own images; the engine builds several at once, and a build mostly waits
    // for the network and dpkg, so two or three in parallel finish sooner even on two cores.
    QThreadPool pool;
    pool.setMaxThreadCount(std::max(1, jobs));
    QMutex errorMutex;
    std::optional<Error> firstError;
    for (int i = 0; i < chains.size(); ++i) {
        QList<ImageDefinition> own;
        for (const ImageDefinition &image : chains[i]) {
            if (!done.contains(image.reference)) {
                own.append(image);
            }
        }
        pool.start([&, i, own] {
            if (auto built = ensureImages(languages[i], own, events); !built) {
                QMutexLocker lock(&errorMutex);
                if (!firstError) {
                    firstError = built.error();
                }
            }
        });
    }
    pool.waitForDone();
    if (m_cancelled) {
        return rollBack(QStringLiteral("The image build was cancelled"));
    }
    if (firstError) {
        return *firstError;
    }
    return {};
}

Result<void> ImageBuilder::rebuild(const Language &language, const ImageBuildCallback &events)
{
    auto chain = m_catalog.imagesFor(language);
    if (!chain) {
        return chain.error();
    }
    QSet<QString> others; // what the other languages need too
    for (const Language &other : LanguageRegistry::instance().languages()) {
        if (other.name == language.name) {
            continue;
        }
        if (auto images = m_catalog.imagesFor(other)) {
            for (const ImageDefinition &image : *images) {
                others.insert(image.reference);
            }
        }
    }
    QList<ImageDefinition> shared;
    QList<ImageDefinition> own;
    for (const ImageDefinition &image : *chain) {
        const bool ours = !others.contains(image.reference) && image.kind != ImageDefinition::Kind::External;
        (ours ? own : shared).append(image);
    }
    const QString cancelled = QStringLiteral("The rebuild of the %1 images was cancelled").arg(language.name);
    if (auto ensured = ensureImages(language, shared, events); !ensured) {
        return m_cancelled ? rollBack(cancelled) : ensured;
    }
    auto rebuilt = ensureImages(language, own, events, Present::Rebuild);
    if (m_cancelled) {
        return rollBack(cancelled);
    }
    if (!rebuilt) {
        // A failed rebuild changes nothing either: the images rebuilt before the failure give their names back.
        (void)rollBack(QStringLiteral("The rebuild of the %1 images failed").arg(language.name));
        return Error{rebuilt.error().message + QStringLiteral(" The previous images keep their names."),
                     rebuilt.error().code};
    }
    // The images the names left behind: nothing names them any more (one a container still uses stays).
    QMutexLocker lock(&m_madeMutex);
    for (auto it = m_made.crbegin(); it != m_made.crend(); ++it) {
        if (!it->previousId.isEmpty() && it->previousId != imageId(it->reference)) {
            if (auto removed = m_backend.removeImage(it->previousId); !removed) {
                qCWarning(lcImages).noquote()
                    << "kept the image" << it->reference << "named before the rebuild:" << removed.error().message;
            }
        }
    }
    return {};
}

Result<void> ImageBuilder::ensureImages(const Language &language, const QList<ImageDefinition> &images,
                                        const ImageBuildCallback &events, Present present)
{
    for (const ImageDefinition &image : images) {
        if (m_cancelled) {
            return Error{QStringLiteral("The image build was cancelled."), ErrorCode::Cancelled};
        }
        const auto event = [&](ImageBuildEvent::Kind kind, const QString &line = {}, double seconds = 0) {
            events(ImageBuildEvent{
                .reference = image.reference, .name = image.name, .kind = kind, .line = line, .seconds = seconds});
        };
        auto there = m_backend.hasImage(image.reference);
        if (!there) {
            event(ImageBuildEvent::Kind::Failed, there.error().message);
            return there.error();
        }
        if (*there && present == Present::Keep) {
            event(ImageBuildEvent::Kind::UpToDate);
            continue;
        }
        const QString previousId = *there ? imageId(image.reference) : QString();
        if (image.kind == ImageDefinition::Kind::External) {
            const Error error{
                QStringLiteral("The image %1 (chosen for %2) is not in the %3 engine: pull or build it first.")
                    .arg(image.reference, language.name, m_backend.name()),
                ErrorCode::ImageMissing};
            event(ImageBuildEvent::Kind::Failed, error.message);
            return error;
        }
        QElapsedTimer timer;
        timer.start();
        event(ImageBuildEvent::Kind::Started);
        const ProgressCallback output = [&](const QString &line) {
            event(ImageBuildEvent::Kind::Output, line);
        };
        QHash<QString, QString> labels{{ImageCatalog::imageLabel(), image.name}};
        if (const auto runImage = m_catalog.runImage(language); runImage && image.reference == *runImage) {
            if (const QString version = askVersion(language, image.buildArgs.value(QStringLiteral("BASE")), output);
                !version.isEmpty()) {
                labels.insert(versionLabel(), version);
            }
        }
        if (m_cancelled) {
            return Error{QStringLiteral("The image build was cancelled."), ErrorCode::Cancelled};
        }
        const BuildCache cache = present == Present::Rebuild ? BuildCache::Ignore : BuildCache::Use;
        if (auto built = build(image, labels, cache, output); !built) {
            event(ImageBuildEvent::Kind::Failed, built.error().message);
            return built;
        }
        remember(image.reference, previousId);
        event(ImageBuildEvent::Kind::Finished, {}, timer.elapsed() / 1000.0);
    }
    return {};
}

Result<QString> ImageBuilder::builtVersion(ImageStore &backend, const ImageCatalog &catalog, const Language &language)
{
    auto reference = catalog.runImage(language);
    if (!reference) {
        return reference.error();
    }
    auto images = backend.listImages(ImageCatalog::imageLabel());
    if (!images) {
        return images.error();
    }
    for (const ImageInfo &image : *images) {
        // Podman may store the name qualified ("localhost/llm-sandbox/...").
        if (image.reference == *reference || image.reference.endsWith(QLatin1Char('/') + *reference)) {
            return image.labels.value(versionLabel());
        }
    }
    return QString();
}

QString ImageBuilder::askVersion(const Language &language, const QString &image, const ProgressCallback &progress)
{
    auto output = ImageProbe::run(m_engine, image, language.versionCommand);
    if (!output) {
        progress(QStringLiteral("could not ask the %1 version: %2").arg(language.displayName, output.error().message));
        return {};
    }
    const QString version = ImageProbe::versionIn(*output);
    progress(
        version.isEmpty()
            ? QStringLiteral("no version in the output of `%1`").arg(language.versionCommand.join(QLatin1Char(' ')))
            : QStringLiteral("%1 %2").arg(language.displayName, version));
    return version;
}

void ImageBuilder::copyMissing(const QList<ImageDefinition> &chain, const ProgressCallback &progress)
{
    QStringList copyable;
    for (const ImageDefinition &image : chain) {
        auto here = m_backend.hasImage(image.reference);
        if (!here || *here) {
            continue; // an error here surfaces in ensure()
        }
        auto there = m_source->hasImage(image.reference);
        if (!there) {
            progress(QStringLiteral("  not copying from %1: %2").arg(m_source->name(), there.error().message));
            return;
        }
        if (*there) {
            copyable << image.reference;
        }
    }
    if (copyable.isEmpty()) {
        return;
    }
    QElapsedTimer timer;
    timer.start();
    progress(QStringLiteral("%1: copying from %2").arg(copyable.join(QStringLiteral(", ")), m_source->name()));
    auto copied = ImageTransfer::copy(
        *m_source, m_backend, copyable, [&](const QString &line) { progress(QStringLiteral("  ") + line); },
        &m_cancelled);
    if (m_cancelled) {
        return; // the copy removed what it brought; the caller rolls back the rest
    }
    if (!copied) {
        progress(QStringLiteral("  copying failed, building instead: %1").arg(copied.error().message));
        return;
    }
    for (const QString &reference : copyable) {
        remember(reference);
    }
    progress(QStringLiteral("copied from %1 in %2 s").arg(m_source->name()).arg(timer.elapsed() / 1000.0, 0, 'f', 1));
}

Result<void> ImageBuilder::build(const ImageDefinition &image, const QHash<QString, QString> &labels, BuildCache cache,
                                 const ProgressCallback &progress)
{
    if (image.kind == ImageDefinition::Kind::Rootfs) {
        return buildRootfs(image, progress);
    }
    auto context = TarArchive::fromFiles(image.context);
    if (!context) {
        return context.error();
    }
    return m_backend.buildImage(*context, image.reference, image.buildArgs, labels, cache, progress, &m_cancelled);
}

Result<void> ImageBuilder::buildRootfs(const ImageDefinition &image, const ProgressCallback &progress)
{
    const auto conf = parseConf(image.context.value(0).data);
    const QString debootstrap = QStandardPaths::findExecutable(QStringLiteral("debootstrap"),
                                                               {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
    if (debootstrap.isEmpty() && QStandardPaths::findExecutable(QStringLiteral("debootstrap")).isEmpty()) {
        return Error{QStringLiteral("Building the base image needs debootstrap (apt-get install debootstrap), or set "
                                    "LLM_SANDBOX_BASE_IMAGE to an existing Debian 13 image."),
                     ErrorCode::ImageMissing};
    }
    if (::geteuid() != 0) {
        return Error{
            QStringLiteral("Building the base image runs debootstrap, which needs root. Run `llm-sandbox "
                           "images build` as root once, or set LLM_SANDBOX_BASE_IMAGE to an existing Debian 13 "
                           "image."),
            ErrorCode::ImageMissing};
    }
    // /var/tmp: a root filesystem does not fit a small /tmp.
    QTemporaryDir work(QStringLiteral("/var/tmp/llm-sandbox-rootfs-XXXXXX"));
    if (!work.isValid()) {
        return Error{QStringLiteral("Could not create a folder for the base image: %1").arg(work.errorString())};
    }
    // A server told to go at once (a second SIGTERM) removes it before it exits.
    const TemporaryPaths::Registration registration(work.path());
    const QString rootDir = work.filePath(QStringLiteral("rootfs"));
    const QString tarPath = work.filePath(QStringLiteral("rootfs.tar"));

    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    QStringList arguments{QStringLiteral("--variant=") +
                              conf.value(QStringLiteral("variant"), QStringLiteral("minbase")),
                          conf.value(QStringLiteral("suite"), QStringLiteral("trixie")), rootDir,
                          qEnvironmentVariable("LLM_SANDBOX_DEBIAN_MIRROR", conf.value(QStringLiteral("mirror")))};
    progress(QStringLiteral("debootstrap %1").arg(arguments.join(QLatin1Char(' '))));
    process.start(debootstrap.isEmpty() ? QStringLiteral("debootstrap") : debootstrap, arguments);
    if (!process.waitForStarted()) {
        return Error{QStringLiteral("Could not start debootstrap: %1").arg(process.errorString())};
    }
    QByteArray log;
    while (process.state() != QProcess::NotRunning) {
        if (m_cancelled) {
            process.kill();
            process.waitForFinished();
            return Error{QStringLiteral("The image build was cancelled."), ErrorCode::Cancelled};
        }
        process.waitForReadyRead(1000);
        while (process.canReadLine()) {
            const QByteArray line = process.readLine();
            log.append(line);
            // The phases, not every package: "I: Validating", "I: Installing core packages", ...
            if (line.startsWith("E:") || line.startsWith("W:") ||
                (line.startsWith("I: ") && !line.startsWith("I: Retrieving ") && !line.startsWith("I: Validating ") &&
                 !line.startsWith("I: Extracting ") && !line.startsWith("I: Unpacking ") &&
                 !line.startsWith("I: Configuring ") && !line.startsWith("I: Checking "))) {
                progress(QString::fromUtf8(line).trimmed());
            }
        }
    }
    log.append(process.readAll());
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        return Error{QStringLiteral("debootstrap failed (exit %1): %2")
                         .arg(process.exitCode())
                         .arg(QString::fromUtf8(log.right(1000)).trimmed()),
                     ErrorCode::ImageMissing};
    }
    // What debootstrap leaves behind that no sandbox reads: the downloaded packages, apt's lists and caches
    // (every later layer runs apt-get update anyway) and documentation; a smaller root filesystem is a
    // smaller layer under every language.
    for (const QString &folder :
         {QStringLiteral("var/cache/apt/archives"), QStringLiteral("var/lib/apt/lists"),
          QStringLiteral("usr/share/doc"), QStringLiteral("usr/share/man"), QStringLiteral("usr/share/info")}) {
        QDirIterator it(QDir(rootDir).filePath(folder), QDir::Files | QDir::Hidden | QDir::System,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile::remove(it.next());
        }
    }
    for (const QString &cache :
         {QStringLiteral("var/cache/apt/pkgcache.bin"), QStringLiteral("var/cache/apt/srcpkgcache.bin")}) {
        QFile::remove(QDir(rootDir).filePath(cache));
    }
    progress(QStringLiteral("packing the root filesystem"));
    if (auto packed = TarArchive::writeDirectory(rootDir, tarPath); !packed) {
        return packed;
    }
    progress(QStringLiteral("importing into the %1 engine").arg(m_backend.name()));
    return m_backend.importImage(tarPath, image.reference, {{ImageCatalog::imageLabel(), image.name}},
                                 [](const QString &) {});
}

} // namespace sandbox
