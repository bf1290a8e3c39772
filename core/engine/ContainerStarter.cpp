#include "engine/ContainerStarter.h"

#include <chrono>

namespace sandbox {

namespace {

constexpr std::chrono::seconds kRunnerStartTimeout{20};

} // namespace

ContainerStarter::ContainerStarter(ContainerBackend &backend, const ImageCatalog &catalog, ContainerSpecFactory specs)
    : m_backend(backend), m_images(backend, catalog), m_specs(std::move(specs))
{}

Result<std::unique_ptr<SandboxContainer>> ContainerStarter::start(const Language &language, const QString &image,
                                                                  const ProgressSink &progress,
                                                                  const QString &networkMode)
{
    auto created = m_images.createContainer(m_specs.make(image, networkMode), language, [&](const QString &line) {
        if (progress) {
            progress(RunProgress{RunProgress::Kind::ImageBuild, line});
        }
    });
    if (!created) {
        return created.error();
    }
    // From here on the container is removed whatever happens.
    auto stream = m_backend.startAttached(*created);
    if (!stream) {
        (void)m_backend.removeContainer(*created);
        return stream.error();
    }
    auto container = std::make_unique<SandboxContainer>(m_backend, *created, image,
                                                        std::make_unique<RunnerClient>(std::move(*stream)));
    if (auto ready = container->runner().waitReady(kRunnerStartTimeout); !ready) {
        return ready.error();
    }
    return container;
}

} // namespace sandbox
