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
    /// `engine` must have an image store (ContainerBackend::imageStore()): the images are built there, and its
    /// containers tell a built image's version.
    ImageBuilder(ContainerBackend &engine, const ImageCatalog &catalog);

    /// Another engine to copy missing images from before building anything: an image with the
    /// same reference there is the same definition (tags are definition hashes), and copying it
    /// takes a minute where building takes many. Images it lacks are still built here.
    void setCopySource(ImageStore *source) { m_source = source; }

    /// Stops ensure(), ensureAll() or rebuild() running on another thread: the image being built or copied stops
    /// within a second, and the images this builder made or copied since it started are removed again (a rebuilt
    /// name goes back to the image it named before), so a cancelled build leaves the engine's images as they were
    /// (and never a name on an unfinished image). The call returns ErrorCode::Cancelled.
    void cancel() { m_cancelled = true; }

    /// Ensures every image `language` needs exists (ImageCatalog::imagesFor: its run chain, its builder, the egress
    /// proxy), or with `upTo` only the images that one stands on; `progress` gets one line per step.
    Result<void> ensure(const Language &language, const ProgressCallback &progress, const QString &upTo = {});

    /// Which images of a language ensureAll() builds.
    enum class Scope
    {
        Everything, ///< ImageCatalog::imagesFor: the run chain, the builder and the egress proxy
        RunChain    ///< ImageCatalog::chainFor: only what runs start from (a library install builds the rest on
                    ///< first use, through ImageProvisioner)
    };

    /// Ensures the images of all `languages`: the images they share (root filesystem, base) first,
    /// then the rest of each language's, `jobs` languages at a time. `events` may be called from several
    /// threads at once.
    Result<void> ensureAll(const QList<Language> &languages, int jobs, const ImageBuildCallback &events,
                           Scope scope = Scope::Everything);

    /// Builds `language`'s own images again, present or not, without the engine's build cache (fresh packages):
    /// those of ImageCatalog::imagesFor that no other language needs (its runtime, run image and builder). The
    /// images it shares with other languages (root filesystem, base, egress proxy) are only ensured. Each name
    /// moves to its new image when that image is complete.
    Result<void> rebuild(const Language &language, const ImageBuildCallback &events);

    /// Label holding the language version the image reports ("3.13.5", "1.24.4").
    static QString versionLabel() { return QStringLiteral("io.llm-sandbox.version"); }
    /// The version label of the image runs of `language` use; empty when that image is not built yet (or was
    /// built before images carried it).
    static Result<QString> builtVersion(ImageStore &backend, const ImageCatalog &catalog, const Language &language);

private:
    enum class Present
    {
        Keep,   ///< an image the engine has is up to date
        Rebuild ///< built again without the cache
    };
    /// Builds the images of `images` (some of `language`'s, parents first) the engine lacks (or all of them, with
    /// Present::Rebuild), in order.
    Result<void> ensureImages(const Language &language, const QList<ImageDefinition> &images,
                              const ImageBuildCallback &events, Present present = Present::Keep);
    /// Copies the images of `chain` this engine lacks and the copy source has; a failure only
    /// means they are built instead.
    void copyMissing(const QList<ImageDefinition> &chain, const ProgressCallback &progress);
    Result<void> build(const ImageDefinition &image, const QHash<QString, QString> &labels, BuildCache cache,
                       const ProgressCallback &progress);
    Result<void> buildRootfs(const ImageDefinition &image, const ProgressCallback &progress);
    /// The version `language`'s runtime image `image` reports; empty when it could not be asked.
    QString askVersion(const Language &language, const QString &image, const ProgressCallback &progress);

    /// The id of the image the engine names `reference`; empty when there is none.
    QString imageId(const QString &reference);

    /// A cancelled call's result: the images made since it started are removed first, and the names rebuilt
    /// images took go back to the images they named before.
    Error rollBack(const QString &what);
    /// `reference` was made (or copied) by this builder; `previousId`: the image it named before (a rebuild).
    void remember(const QString &reference, const QString &previousId = {});

    ContainerBackend &m_engine;
    ImageStore &m_backend;
    const ImageCatalog &m_catalog;
    ImageStore *m_source = nullptr;
    std::atomic_bool m_cancelled = false;
    QMutex m_madeMutex;
    struct Made
    {
        QString reference;
        QString previousId;
    };
    QList<Made> m_made; ///< images made or copied by this builder, in order
};

} // namespace sandbox
