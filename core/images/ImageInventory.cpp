#include "images/ImageInventory.h"

#include "images/ImageBuilder.h"
#include "lang/LanguageRegistry.h"

#include <QSet>

namespace sandbox {

ImageInventory::ImageInventory(ImageStore &backend, const ImageCatalog &catalog)
    : m_backend(backend), m_catalog(catalog)
{}

Result<QList<ImageInfo>> ImageInventory::built() const
{
    return m_backend.listImages(ImageCatalog::imageLabel());
}

Result<QList<LanguageImage>> ImageInventory::languages() const
{
    auto images = built();
    if (!images) {
        return images.error();
    }
    QList<LanguageImage> languages;
    for (const Language &language : LanguageRegistry::instance().languages()) {
        LanguageImage entry{.language = language.name};
        auto reference = m_catalog.runImage(language);
        if (!reference) {
            entry.error = reference.error();
            languages.append(entry);
            continue;
        }
        entry.reference = *reference;
        for (const ImageInfo &image : *images) {
            // Podman may store the name qualified ("localhost/llm-sandbox/...").
            if (image.reference == *reference || image.reference.endsWith(u'/' + *reference)) {
                entry.present = true;
                entry.version = image.labels.value(ImageBuilder::versionLabel());
                entry.sizeBytes = image.sizeBytes;
                entry.created = image.created;
                break;
            }
        }
        languages.append(entry);
    }
    return languages;
}

Result<QList<ImageInfo>> ImageInventory::superseded() const
{
    QSet<QString> current;
    for (const Language &language : LanguageRegistry::instance().languages()) {
        auto images = m_catalog.imagesFor(language);
        if (!images) {
            // Without every current reference an image in use could pass for an old one.
            return images.error();
        }
        for (const ImageDefinition &image : *images) {
            current.insert(image.reference);
        }
    }
    auto images = built();
    if (!images) {
        return images.error();
    }
    QList<ImageInfo> old;
    for (const ImageInfo &image : *images) {
        if (image.reference.startsWith(QLatin1String("llm-sandbox/")) && !current.contains(image.reference)) {
            old.append(image);
        }
    }
    return old;
}

Result<ImageInventory::PruneResult> ImageInventory::prune(const ProgressCallback &progress) const
{
    auto old = superseded();
    if (!old) {
        return old.error();
    }
    PruneResult result;
    for (const ImageInfo &image : *old) {
        if (auto removed = m_backend.removeImage(image.reference); !removed) {
            result.kept << QStringLiteral("%1: %2").arg(image.reference, removed.error().message);
            if (progress) {
                progress(QStringLiteral("kept %1: %2").arg(image.reference, removed.error().message));
            }
            continue;
        }
        result.removed << image.reference;
        result.bytes += image.sizeBytes;
        if (progress) {
            progress(QStringLiteral("removed %1").arg(image.reference));
        }
    }
    return result;
}

} // namespace sandbox
