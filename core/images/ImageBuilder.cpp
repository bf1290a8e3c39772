#include "images/ImageBuilder.h"

#include "backend/ImageTransfer.h"
#include "backend/TarArchive.h"
#include "util/TemporaryPaths.h"

#include <QDir>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
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

ImageBuilder::ImageBuilder(ContainerBackend &backend, const ImageCatalog &catalog)
    : m_backend(backend), m_catalog(catalog)
{}

Result<void> ImageBuilder::ensure(const Language &language, const ProgressCallback &progress)
{
    auto chain = m_catalog.chainFor(language);
    if (!chain) {
        return chain.error();
    }
    if (m_source) {
        copyMissing(*chain, progress);
    }
    for (const ImageDefinition &image : *chain) {
        auto present = m_backend.hasImage(image.reference);
        if (!present) {
            return present.error();
        }
        if (*present) {
            progress(QStringLiteral("%1: up to date").arg(image.reference));
            continue;
        }
        if (image.kind == ImageDefinition::Kind::External) {
            return Error{QStringLiteral("The image %1 (chosen for %2) is not in the %3 engine: pull or build it first.")
                             .arg(image.reference, language.name, m_backend.name()),
                         ErrorCode::ImageMissing};
        }
        QElapsedTimer timer;
        timer.start();
        progress(QStringLiteral("%1: building").arg(image.reference));
        if (auto built = build(image, progress); !built) {
            return built;
        }
        progress(QStringLiteral("%1: built in %2 s").arg(image.reference).arg(timer.elapsed() / 1000.0, 0, 'f', 1));
    }
    return {};
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
    auto copied = ImageTransfer::copy(*m_source, m_backend, copyable,
                                      [&](const QString &line) { progress(QStringLiteral("  ") + line); });
    if (!copied) {
        progress(QStringLiteral("  copying failed, building instead: %1").arg(copied.error().message));
        return;
    }
    progress(QStringLiteral("copied from %1 in %2 s").arg(m_source->name()).arg(timer.elapsed() / 1000.0, 0, 'f', 1));
}

Result<void> ImageBuilder::build(const ImageDefinition &image, const ProgressCallback &progress)
{
    if (image.kind == ImageDefinition::Kind::Rootfs) {
        return buildRootfs(image, progress);
    }
    auto context = TarArchive::fromFiles(image.context);
    if (!context) {
        return context.error();
    }
    const QHash<QString, QString> labels{{ImageCatalog::imageLabel(), image.name}};
    return m_backend.buildImage(*context, image.reference, image.buildArgs, labels,
                                [&](const QString &line) { progress(QStringLiteral("  ") + line); });
}

Result<void> ImageBuilder::buildRootfs(const ImageDefinition &image, const ProgressCallback &progress)
{
    const auto conf = parseConf(image.context.value(0).data);
    const QString debootstrap = QStandardPaths::findExecutable(QStringLiteral("debootstrap"),
                                                               {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
    if (debootstrap.isEmpty() && QStandardPaths::findExecutable(QStringLiteral("debootstrap")).isEmpty()) {
        return Error{QStringLiteral("Building the base image needs debootstrap (apt-get install debootstrap), or set "
                                    "LLM_SANDBOX_BASE_IMAGE to an existing Debian 12 image."),
                     ErrorCode::ImageMissing};
    }
    if (::geteuid() != 0) {
        return Error{
            QStringLiteral("Building the base image runs debootstrap, which needs root. Run `llm-sandbox "
                           "images build` as root once, or set LLM_SANDBOX_BASE_IMAGE to an existing Debian 12 "
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
                          conf.value(QStringLiteral("suite"), QStringLiteral("bookworm")), rootDir,
                          qEnvironmentVariable("LLM_SANDBOX_DEBIAN_MIRROR", conf.value(QStringLiteral("mirror")))};
    progress(QStringLiteral("  debootstrap %1").arg(arguments.join(QLatin1Char(' '))));
    process.start(debootstrap.isEmpty() ? QStringLiteral("debootstrap") : debootstrap, arguments);
    if (!process.waitForStarted()) {
        return Error{QStringLiteral("Could not start debootstrap: %1").arg(process.errorString())};
    }
    QByteArray log;
    while (process.state() != QProcess::NotRunning) {
        process.waitForReadyRead(1000);
        while (process.canReadLine()) {
            const QByteArray line = process.readLine();
            log.append(line);
            // The phases, not every package: "I: Validating", "I: Installing core packages", ...
            if (line.startsWith("E:") || line.startsWith("W:") ||
                (line.startsWith("I: ") && !line.startsWith("I: Retrieving ") && !line.startsWith("I: Validating ") &&
                 !line.startsWith("I: Extracting ") && !line.startsWith("I: Unpacking ") &&
                 !line.startsWith("I: Configuring ") && !line.startsWith("I: Checking "))) {
                progress(QStringLiteral("  ") + QString::fromUtf8(line).trimmed());
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
    progress(QStringLiteral("  packing the root filesystem"));
    if (auto packed = TarArchive::writeDirectory(rootDir, tarPath); !packed) {
        return packed;
    }
    progress(QStringLiteral("  importing into the %1 engine").arg(m_backend.name()));
    return m_backend.importImage(tarPath, image.reference, {{ImageCatalog::imageLabel(), image.name}},
                                 [](const QString &) {});
}

} // namespace sandbox
