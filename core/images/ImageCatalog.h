#pragma once

#include "images/ImageDefinition.h"
#include "lang/Language.h"
#include "util/Result.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QString>

namespace sandbox {

/// The image definitions shipped in the binary (resources/images/, resources/capture/) and
/// the references they build to. Every image the engine runs ends with the runner layer;
/// a language's runtime can be replaced by any image the user names.
class ImageCatalog final
{
public:
    /// `runnerPath`: the static llm-sandbox-runner binary; `overrides`: language -> image.
    ImageCatalog(QString runnerPath, QHash<QString, QString> overrides, QString baseOverride = {});

    /// The images to build, parents first, ending with the image runs use.
    Result<QList<ImageDefinition>> chainFor(const Language &language) const;
    /// The reference of the image runs of `language` use.
    Result<QString> runImage(const Language &language) const;
    /// The reference of the image `language`'s library installs run in: the run image plus the build tools of the
    /// language (Language::LibraryInstaller::builderPackages), or the run image itself when it needs none or is the
    /// user's.
    Result<QString> builderImage(const Language &language) const;
    /// The reference of the egress proxy image of library installs (resources/images/proxy).
    Result<QString> proxyImage() const;
    /// Every image `language` needs, parents first: its run chain (chainFor), its builder and the egress proxy with
    /// what they stand on. `upTo`: only the images that `upTo` (one of them) is built from, ending with it.
    Result<QList<ImageDefinition>> imagesFor(const Language &language, const QString &upTo = {}) const;

    /// Label put on every image the product builds (value: the definition's name).
    static QString imageLabel() { return QStringLiteral("io.llm-sandbox.image"); }

    /// Where the runner binary is: $LLM_SANDBOX_RUNNER, else runnerPathFor() of this executable's folder.
    static QString defaultRunnerPath();
    /// Where the runner of a program in `programDir` is: beside it (a build tree, bin/), else where the install puts
    /// it (bin/../libexec/llm-sandbox/, the path from CMAKE_INSTALL_BINDIR to CMAKE_INSTALL_LIBEXECDIR). A runner
    /// found nowhere gets the path beside the program, which `doctor` reports as missing.
    static QString runnerPathFor(const QString &programDir);

private:
    Result<QList<FileEntry>> resourceFiles(const QString &folder) const;
    /// The root filesystem and the common base layer, parents first.
    Result<QList<ImageDefinition>> baseChain() const;
    /// The egress proxy's image, built on the last of `base` (baseChain()).
    Result<ImageDefinition> proxyDefinition(const QList<ImageDefinition> &base) const;
    /// The runner binary (m_runnerPath) as a file of an image's build context; ImageMissing when it is not there.
    Result<FileEntry> runnerFile() const;

    QString m_runnerPath;
    QHash<QString, QString> m_overrides;
    QString m_baseOverride;
    mutable QMutex m_cacheMutex;
    mutable QHash<QString, QList<ImageDefinition>> m_cache;
};

} // namespace sandbox
