#pragma once

#include "backend/ContainerBackend.h"
#include "images/ImageCatalog.h"
#include "util/Result.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace sandbox {

/// The image one language's runs use, as an engine has it (`images list`, the Backends page).
struct LanguageImage
{
    QString language;
    QString reference; ///< the run image; empty when the catalog could not name it (`error` says why)
    Error error;       ///< why `reference` is empty
    bool present = false;
    QString version; ///< from the image's version label; empty when absent or unlabelled
    qint64 sizeBytes = 0;
    QDateTime created;
};

/// What the sandbox images of one engine are: per language present or not, all the images llm-sandbox built there,
/// and the superseded ones (old tags of our definitions, which pile up on disk as definitions change).
class ImageInventory final
{
public:
    ImageInventory(ImageStore &backend, const ImageCatalog &catalog);

    /// The run image of every language, in the registry's order. Blocking.
    Result<QList<LanguageImage>> languages() const;
    /// Every image carrying ImageCatalog::imageLabel().
    Result<QList<ImageInfo>> built() const;
    /// The images named llm-sandbox/NAME:TAG that no current definition builds (ImageCatalog::imagesFor of every
    /// language): what prune() removes. Images a user tagged elsewhere (a registry's copies) are not ours to judge.
    Result<QList<ImageInfo>> superseded() const;

    struct PruneResult
    {
        QStringList removed;
        QStringList kept; ///< "reference: why" of those the engine kept (a container still uses them)
        qint64 bytes = 0; ///< the sizes of the removed images (layers they shared with others stay)
    };
    /// Removes superseded() (never forced: an image a container uses stays). `progress` gets a line per image.
    Result<PruneResult> prune(const ProgressCallback &progress = {}) const;

private:
    ImageStore &m_backend;
    const ImageCatalog &m_catalog;
};

} // namespace sandbox
