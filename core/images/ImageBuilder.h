#pragma once

#include "backend/ContainerBackend.h"
#include "images/ImageCatalog.h"
#include "util/Result.h"

namespace sandbox {

/// Builds the images of a language's chain that the engine does not have yet.
class ImageBuilder final
{
public:
    ImageBuilder(ContainerBackend &backend, const ImageCatalog &catalog);

    /// Another engine to copy missing images from before building anything: an image with the
    /// same reference there is the same definition (tags are definition hashes), and copying it
    /// takes a minute where building takes many. Images it lacks are still built here.
    void setCopySource(ContainerBackend *source) { m_source = source; }

    /// Ensures every image of `language`'s chain exists; `progress` gets one line per step.
    Result<void> ensure(const Language &language, const ProgressCallback &progress);

private:
    /// Copies the images of `chain` this engine lacks and the copy source has; a failure only
    /// means they are built instead.
    void copyMissing(const QList<ImageDefinition> &chain, const ProgressCallback &progress);
    Result<void> build(const ImageDefinition &image, const ProgressCallback &progress);
    Result<void> buildRootfs(const ImageDefinition &image, const ProgressCallback &progress);

    ContainerBackend &m_backend;
    const ImageCatalog &m_catalog;
    ContainerBackend *m_source = nullptr;
};

} // namespace sandbox
