#pragma once

#include "engine/ContainerSpecFactory.h"
#include "engine/RunProgress.h"
#include "engine/SandboxContainer.h"
#include "images/ImageProvisioner.h"
#include "lang/Language.h"
#include "util/Result.h"

#include <functional>
#include <memory>

namespace sandbox {

/// Starts sandbox containers: a hardened container of the image (built on first use), started, with its runner
/// ready for requests. Thread-safe.
class ContainerStarter final
{
public:
    using ProgressSink = std::function<void(const RunProgress &)>;

    ContainerStarter(ContainerBackend &backend, const ImageCatalog &catalog, ContainerSpecFactory specs);

    /// A started container of `image` (the run image of `language`) whose runner has answered. `networkMode`
    /// overrides the settings' (an install step's network). The container is removed on every failure.
    Result<std::unique_ptr<SandboxContainer>> start(const Language &language, const QString &image,
                                                    const ProgressSink &progress, const QString &networkMode = {});

private:
    ContainerBackend &m_backend;
    ImageProvisioner m_images;
    ContainerSpecFactory m_specs;
};

} // namespace sandbox
