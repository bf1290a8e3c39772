#pragma once

#include "backend/ContainerBackend.h"
#include "images/ImageCatalog.h"
#include "util/Result.h"

#include <QMutex>
#include <QStringList>
#include <atomic>
#include <functional>

namespace sandbox {

/// One thing that happened to one image of a build, for displays that follow every image on its own line.
struct ImageBuildEvent
{
    enum class Kind
    {
        UpToDate, ///< the engine has it already
        Started,  ///< building (or copying) began
        Output,   ///< a line of the build's output (`line`)
        Finished, ///< built; `seconds` took
        Failed    ///< `line` says why
    };

    QString reference; ///< llm-sandbox/NAME:HASH
    QString name;      ///< rootfs, base, python-runtime, python, ...
    Kind kind = Kind::Output;
    QString line;
    double seconds = 0;
};

using ImageBuildCallback = std::function<void(const ImageBuildEvent &event)>;

/// Builds the images of language chains that the engine does not have yet. The last image of a
/// chain (the one runs use) carries the language's version, asked from the image below it once,
/// when it is built (label versionLabel()).
class ImageBuilder final
{
public:
    ImageBuilder(ContainerBackend &backend, const ImageCatalog &catalog);

    /// Another engine to copy missing images from before building anything: an image with the
    /// same reference there is the same definition (tags are definition hashes), and copying it
    /// takes a minute where building takes many. Images it lacks are still built here.
    void setCopySource(ContainerBackend *source) { m_source = source; }

    /// Stops ensure() or ensureAll() running on another thread: the image being built stops within a second, and
    /// the images this builder made or copied since it started are removed again, so a cancelled build leaves the
    /// engine's images as they were (and never a name on an unfinished image). The call returns ErrorCode::Cancelled.
    void cancel() { m_cancelled = true; }

    /// Ensures every image `language` needs exists (ImageCatalog::imagesFor: its run chain, its builder, the egress
    /// proxy), or with `upTo` only the images that one stands on; `progress` gets one line per step.
    Result<void> ensure(const Language &language, const ProgressCallback &progress, const QString &upTo = {});

    /// Ensures the chains of all `languages`: the images they share (root filesystem, base) first,
    /// then the rest of each chain, `jobs` languages at a time. `events` may be called from several
    /// threads at once.
    Result<void> ensureAll(const QList<Language> &languages, int jobs, const ImageBuildCallback &events);

    /// Label holding the language version the image reports ("3.13.5", "1.24.4").
    static QString versionLabel() { return QStringLiteral("io.llm-sandbox.version"); }
    /// The version label of the image runs of `language` use; empty when that image is not built yet (or was
    /// built before images carried it).
    static Result<QString> builtVersion(ContainerBackend &backend, const ImageCatalog &catalog,
                                        const Language &language);

private:
    /// Builds the images of `images` (some of `language`'s, parents first) the engine lacks, in order.
    Result<void> ensureImages(const Language &language, const QList<ImageDefinition> &images,
                              const ImageBuildCallback &events);
    /// Copies the images of `chain` this engine lacks and the copy source has; a failure only
    /// means they are built instead.
    void copyMissing(const QList<ImageDefinition> &chain, const ProgressCallback &progress);
    Result<void> build(const ImageDefinition &image, const QHash<QString, QString> &labels,
                       const ProgressCallback &progress);
    Result<void> buildRootfs(const ImageDefinition &image, const ProgressCallback &progress);
    /// The version `language`'s runtime image `image` reports; empty when it could not be asked.
    QString askVersion(const Language &language, const QString &image, const ProgressCallback &progress);

    /// A cancelled call's result: the images made since it started are removed first.
    Error rollBack(const QString &what);
    void remember(const QString &reference);

    ContainerBackend &m_backend;
    const ImageCatalog &m_catalog;
    ContainerBackend *m_source = nullptr;
    std::atomic_bool m_cancelled = false;
    QMutex m_madeMutex;
    QStringList m_made; ///< references made or copied by this builder, in order
};

} // namespace sandbox
