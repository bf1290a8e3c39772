#pragma once

#include "backend/ContainerBackend.h"
#include "images/ImageCatalog.h"
#include "lang/Language.h"
#include "util/Result.h"

namespace sandbox {

/// Creates sandbox containers, building the image on first use: when creating fails because the image is not
/// there, the language's image chain is built (parents first) and creating is tried once more.
class ImageProvisioner final
{
public:
    ImageProvisioner(ContainerBackend &backend, const ImageCatalog &catalog);

    /// The id of a new (not started) container of `spec`, whose image is one of `language`'s (ImageCatalog::imagesFor).
    /// `progress` gets the lines of an image build. An image that could not be built is an ImageMissing error.
    Result<QString> createContainer(const ContainerSpec &spec, const Language &language,
                                    const ProgressCallback &progress);

private:
    ContainerBackend &m_backend;
    const ImageCatalog &m_catalog;
};

} // namespace sandbox
