#include "images/ImageCatalog.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <algorithm>

namespace sandbox {

namespace {

const QString kRepository = QStringLiteral("llm-sandbox/");

QString definitionHash(const QString &parent, const QList<FileEntry> &files)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(parent.toUtf8());
    hash.addData(QByteArrayView("\0", 1));
    for (const FileEntry &file : files) {
        hash.addData(file.path.toUtf8());
        hash.addData(QByteArray(QByteArray::number(file.mode) + '\0' + QByteArray::number(file.data.size()) + '\0'));
        hash.addData(file.data);
    }
    return QString::fromLatin1(hash.result().toHex().left(12));
}

ImageDefinition dockerfileImage(const QString &name, const QString &parent, QList<FileEntry> context)
{
    ImageDefinition image;
    image.name = name;
    image.kind = ImageDefinition::Kind::Dockerfile;
    image.hash = definitionHash(parent, context);
    image.reference = kRepository + name + QLatin1Char(':') + image.hash;
    image.context = std::move(context);
    image.buildArgs.insert(QStringLiteral("BASE"), parent);
    return image;
}

ImageDefinition externalImage(const QString &name, const QString &reference)
{
    ImageDefinition image;
    image.name = name;
    image.kind = ImageDefinition::Kind::External;
    image.reference = reference;
    image.hash = definitionHash(reference, {});
    return image;
}

} // namespace

ImageCatalog::ImageCatalog(QString runnerPath, QHash<QString, QString> overrides, QString baseOverride)
    : m_runnerPath(std::move(runnerPath)), m_overrides(std::move(overrides)), m_baseOverride(std::move(baseOverride))
{}

QString ImageCatalog::defaultRunnerPath()
{
    if (const QString fromEnvironment = qEnvironmentVariable("LLM_SANDBOX_RUNNER"); !fromEnvironment.isEmpty()) {
        return fromEnvironment;
    }
    return runnerPathFor(QCoreApplication::applicationDirPath());
}

QString ImageCatalog::runnerPathFor(const QString &programDir)
{
    const QDir dir(programDir);
    const QString runner = QStringLiteral("llm-sandbox-runner");
    for (const QString &candidate : {runner, QString(QStringLiteral(LLM_SANDBOX_INSTALLED_RUNNER_DIR "/") + runner)}) {
        if (QFileInfo::exists(dir.filePath(candidate))) {
            return QDir::cleanPath(dir.filePath(candidate));
        }
    }
    return dir.filePath(runner);
}

Result<QList<FileEntry>> ImageCatalog::resourceFiles(const QString &folder) const
{
    QList<FileEntry> files;
    const QString root = QStringLiteral(":/") + folder;
    if (!QFileInfo(root).isDir()) {
        return Error{QStringLiteral("No image definition \"%1\" is built into this program.").arg(folder)};
    }
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (!file.open(QIODevice::ReadOnly)) {
            return Error{QStringLiteral("Could not read the built-in file %1.").arg(file.fileName())};
        }
        files.append(FileEntry{file.fileName().mid(root.size() + 1), file.readAll(), 0644});
    }
    std::sort(files.begin(), files.end(), [](const FileEntry &a, const FileEntry &b) { return a.path < b.path; });
    return files;
}

Result<QList<ImageDefinition>> ImageCatalog::chainFor(const Language &language) const
{
    {
        QMutexLocker lock(&m_cacheMutex);
        if (auto it = m_cache.constFind(language.name); it != m_cache.constEnd()) {
            return *it;
        }
    }

    QList<ImageDefinition> chain;
    QString runtime = m_overrides.value(language.name);
    if (runtime.isEmpty()) {
        auto base = baseChain();
        auto packages = resourceFiles(QStringLiteral("images/") + language.imageName);
        if (!base) {
            return base.error();
        }
        if (!packages) {
            return packages.error();
        }
        chain = *base;
        chain.append(
            dockerfileImage(language.imageName + QStringLiteral("-runtime"), chain.last().reference, *packages));
    } else {
        chain.append(externalImage(language.imageName + QStringLiteral("-runtime"), runtime));
    }

    // The runner layer: the runner binary and this language's capture hooks.
    auto context = resourceFiles(QStringLiteral("images/runner"));
    if (!context) {
        return context.error();
    }
    auto runner = runnerFile();
    if (!runner) {
        return runner.error();
    }
    context->append(*runner);
    if (auto capture = resourceFiles(QStringLiteral("capture/") + language.name)) {
        for (FileEntry file : *capture) {
            file.path = QStringLiteral("capture/%1/%2").arg(language.name, file.path);
            context->append(file);
        }
    } else {
        // Languages without hooks still get the folder the Dockerfile copies.
        context->append(FileEntry{QStringLiteral("capture/README"), "Chart capture hooks.\n", 0644});
    }
    // The library installers and the persistent interpreters of sessions.
    for (const QString &folder : {QStringLiteral("tools"), QStringLiteral("session")}) {
        auto files = resourceFiles(folder);
        if (!files) {
            return files.error();
        }
        for (FileEntry file : *files) {
            file.path = folder + QLatin1Char('/') + file.path;
            context->append(file);
        }
    }
    const QString finalName =
        m_overrides.contains(language.name) ? language.imageName + QStringLiteral("-custom") : language.imageName;
    chain.append(dockerfileImage(finalName, chain.last().reference, *context));

    QMutexLocker lock(&m_cacheMutex);
    m_cache.insert(language.name, chain);
    return chain;
}

Result<QList<ImageDefinition>> ImageCatalog::baseChain() const
{
    QList<ImageDefinition> chain;
    ImageDefinition root;
    if (m_baseOverride.isEmpty()) {
        auto conf = resourceFiles(QStringLiteral("images/rootfs"));
        if (!conf) {
            return conf.error();
        }
        root.name = QStringLiteral("rootfs");
        root.kind = ImageDefinition::Kind::Rootfs;
        root.context = *conf;
        root.hash = definitionHash({}, root.context);
        root.reference = kRepository + root.name + QLatin1Char(':') + root.hash;
    } else {
        root = externalImage(QStringLiteral("rootfs"), m_baseOverride);
    }
    chain.append(root);
    auto base = resourceFiles(QStringLiteral("images/base"));
    if (!base) {
        return base.error();
    }
    chain.append(dockerfileImage(QStringLiteral("base"), root.reference, *base));
    return chain;
}

Result<QList<ImageDefinition>> ImageCatalog::imagesFor(const Language &language, const QString &upTo) const
{
    auto chain = chainFor(language);
    if (!chain) {
        return chain.error();
    }
    auto base = baseChain();
    if (!base) {
        return base.error();
    }
    auto proxy = proxyDefinition(*base);
    if (!proxy) {
        return proxy.error();
    }
    auto builder = resourceFiles(QStringLiteral("images/builder"));
    if (!builder) {
        return builder.error();
    }
    QList<ImageDefinition> images = *chain;
    const QStringList &packages = language.libraries.builderPackages;
    if (!packages.isEmpty() && !m_overrides.contains(language.name)) {
        builder->append(FileEntry{QStringLiteral("packages"), packages.join(u' ').toUtf8() + '\n', 0644});
        images.append(
            dockerfileImage(language.imageName + QStringLiteral("-builder"), chain->last().reference, *builder));
    }
    base->append(*proxy);
    for (const ImageDefinition &image : *base) {
        if (std::none_of(images.begin(), images.end(),
                         [&](const ImageDefinition &known) { return known.reference == image.reference; })) {
            images.append(image);
        }
    }
    if (upTo.isEmpty()) {
        return images;
    }
    // Only what `upTo` stands on: follow the BASE build argument down, then put the images back in build order.
    QList<ImageDefinition> needed;
    for (QString wanted = upTo; !wanted.isEmpty();) {
        const auto found = std::find_if(images.begin(), images.end(),
                                        [&](const ImageDefinition &image) { return image.reference == wanted; });
        if (found == images.end()) {
            break;
        }
        needed.prepend(*found);
        wanted = found->buildArgs.value(QStringLiteral("BASE"));
    }
    if (needed.isEmpty()) {
        return Error{QStringLiteral("%1 is not an image of %2.").arg(upTo, language.displayName),
                     ErrorCode::ImageMissing};
    }
    return needed;
}

Result<QString> ImageCatalog::builderImage(const Language &language) const
{
    auto images = imagesFor(language);
    if (!images) {
        return images.error();
    }
    const QString name = language.imageName + QStringLiteral("-builder");
    for (const ImageDefinition &image : *images) {
        if (image.name == name) {
            return image.reference;
        }
    }
    return runImage(language);
}

Result<ImageDefinition> ImageCatalog::proxyDefinition(const QList<ImageDefinition> &base) const
{
    auto proxy = resourceFiles(QStringLiteral("images/proxy"));
    if (!proxy) {
        return proxy.error();
    }
    // The runner relays the proxy's socket to squid (start-proxy): one thread for every connection.
    auto runner = runnerFile();
    if (!runner) {
        return runner.error();
    }
    proxy->append(*runner);
    return dockerfileImage(QStringLiteral("proxy"), base.last().reference, *proxy);
}

Result<FileEntry> ImageCatalog::runnerFile() const
{
    QFile runner(m_runnerPath);
    if (!runner.open(QIODevice::ReadOnly)) {
        return Error{QStringLiteral("The sandbox runner binary is missing at %1 (set LLM_SANDBOX_RUNNER to its path).")
                         .arg(m_runnerPath),
                     ErrorCode::ImageMissing};
    }
    return FileEntry{QStringLiteral("llm-sandbox-runner"), runner.readAll(), 0755};
}

Result<QString> ImageCatalog::proxyImage() const
{
    auto base = baseChain();
    if (!base) {
        return base.error();
    }
    auto proxy = proxyDefinition(*base);
    if (!proxy) {
        return proxy.error();
    }
    return proxy->reference;
}

Result<QString> ImageCatalog::runImage(const Language &language) const
{
    auto chain = chainFor(language);
    if (!chain) {
        return chain.error();
    }
    return chain->last().reference;
}

} // namespace sandbox
