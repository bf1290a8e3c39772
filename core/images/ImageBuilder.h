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

    /// Ensures every image of `language`'s chain exists; `progress` gets one line per step.
    Result<void> ensure(const Language &language, const ProgressCallback &progress);

private:
    Result<void> build(const ImageDefinition &image, const ProgressCallback &progress);
    Result<void> buildRootfs(const ImageDefinition &image, const ProgressCallback &progress);

    ContainerBackend &m_backend;
    const ImageCatalog &m_catalog;
};

} // namespace sandbox
