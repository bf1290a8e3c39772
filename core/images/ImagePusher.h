#pragma once

#include "backend/ContainerBackend.h"
#include "backend/RegistryCredentials.h"
#include "images/ImageCatalog.h"
#include "lang/Language.h"
#include "util/Result.h"

#include <QStringList>
#include <atomic>

namespace sandbox {

/// Pushes the run images of languages from a local engine to a registry as REGISTRY/<their reference>: the
/// references the kubernetes backend asks its pods for when LLM_SANDBOX_REGISTRY names the same registry. What
/// `images push` and the Backends page's Kubernetes panel do.
class ImagePusher final
{
public:
    ImagePusher(ImageStore &backend, const ImageCatalog &catalog);

    /// The registry to push to: `option` when it names one, else LLM_SANDBOX_REGISTRY (as the kubernetes backend
    /// reads it), trimmed and without a trailing slash; empty when neither names one.
    static QString registryFrom(const QString &option);
    /// `reference` as the registry keeps it: REGISTRY/llm-sandbox/NAME:TAG.
    static QString targetFor(const QString &registry, const QString &reference);

    /// Stops push() running on another thread: the layer upload stops within a second, and the call returns
    /// ErrorCode::Cancelled.
    void cancel() { m_cancelled = true; }

    /// Tags each language's run image as targetFor() and pushes it with `credentials` (none when empty), the
    /// engine's layer progress going to `progress`; returns the pushed references. The registry gets a tag only
    /// from a complete push (the manifest goes last); a push that fails or is cancelled removes the local registry
    /// tag it made, so no name is left on what did not arrive. A language whose run image the engine lacks is an
    /// ErrorCode::ImageMissing error (nothing is built here).
    Result<QStringList> push(const QList<Language> &languages, const QString &registry,
                             const RegistryCredentials &credentials, const ProgressCallback &progress);

private:
    ImageStore &m_backend;
    const ImageCatalog &m_catalog;
    std::atomic_bool m_cancelled = false;
};

} // namespace sandbox
