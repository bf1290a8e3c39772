#include "images/ImageProvisioner.h"

#include "images/ImageBuilder.h"

namespace sandbox {

ImageProvisioner::ImageProvisioner(ContainerBackend &backend, const ImageCatalog &catalog)
    : m_backend(backend), m_catalog(catalog)
{}

Result<QString> ImageProvisioner::createContainer(const ContainerSpec &spec, const Language &language,
                                                  const ProgressCallback &progress)
{
    // Creating first and asking afterwards: the image is there on every run but the first.
    auto created = m_backend.createContainer(spec);
    if (created) {
        return created;
    }
    // Without an image store of its own (Kubernetes) the cluster pulls the image, and its error says what failed.
    ImageStore *store = m_backend.imageStore();
    if (!store) {
        return created.error();
    }
    auto present = store->hasImage(spec.image);
    if (!present || *present) {
        return created.error();
    }
    progress(QStringLiteral("Building the %1 image (first use)...").arg(language.displayName));
    ImageBuilder builder(m_backend, m_catalog);
    if (auto built = builder.ensure(language, progress, spec.image); !built) {
        return built.error().withCode(ErrorCode::ImageMissing);
    }
    return m_backend.createContainer(spec);
}

} // namespace sandbox
