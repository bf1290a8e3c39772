#include "engine/RunSampler.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace sandbox {

/// What the sampling thread and its owner share; the thread keeps it (and the backend) alive until it ends.
struct RunSampler::Shared
{
    std::mutex mutex;
    std::condition_variable wake;
    bool stopped = false;
    Sink sink;
};

RunSampler::RunSampler(std::shared_ptr<ContainerBackend> backend, QString containerId, Sink sink,
                       std::chrono::milliseconds firstAfter, std::chrono::milliseconds interval)
    : m_shared(std::make_shared<Shared>())
{
    m_shared->sink = std::move(sink);
    // Detached: a sample in flight (up to the engine's answer) must not hold up the end of the run.
    std::thread([shared = m_shared, backend = std::move(backend), id = std::move(containerId), firstAfter, interval] {
        std::chrono::milliseconds wait = firstAfter;
        for (;;) {
            {
                std::unique_lock lock(shared->mutex);
                if (shared->wake.wait_for(lock, wait, [&] { return shared->stopped; })) {
                    return;
                }
            }
            auto sample = backend->containerStats(id);
            std::lock_guard lock(shared->mutex);
            if (shared->stopped) {
                return;
            }
            if (!sample && sample.error().code == ErrorCode::Unavailable) {
                return; // a cluster without the metrics API: no series
            }
            if (sample) {
                shared->sink(*sample);
            }
            wait = interval;
        }
    }).detach();
}

RunSampler::~RunSampler()
{
    stop();
}

void RunSampler::stop()
{
    std::lock_guard lock(m_shared->mutex);
    m_shared->stopped = true;
    m_shared->sink = nullptr;
    m_shared->wake.notify_all();
}

} // namespace sandbox
