#include "engine/RunSampler.h"

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace sandbox {

namespace {

/// The sampling threads that have not ended yet, by the backend they ask. Never destroyed: a thread may end after the
/// statics.
struct Threads
{
    std::mutex mutex;
    std::condition_variable ended;
    std::map<const ContainerBackend *, int> running;
};

Threads &threads()
{
    static Threads *const instance = new Threads;
    return *instance;
}

} // namespace

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
    const ContainerBackend *const asked = backend.get();
    {
        const std::lock_guard lock(threads().mutex);
        ++threads().running[asked];
    }
    // Detached: a sample in flight (up to the engine's answer) must not hold up the end of the run; waitForThreads()
    // lets the end of an engine wait for it.
    std::thread([shared = m_shared, backend = std::move(backend), id = std::move(containerId), firstAfter, interval,
                 asked] {
        struct Ended
        {
            const ContainerBackend *backend;
            ~Ended()
            {
                const std::lock_guard lock(threads().mutex);
                if (--threads().running[backend] == 0) {
                    threads().running.erase(backend);
                }
                threads().ended.notify_all();
            }
        } ended{asked};
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

bool RunSampler::waitForThreads(const ContainerBackend *backend, std::chrono::milliseconds timeout)
{
    std::unique_lock lock(threads().mutex);
    return threads().ended.wait_for(lock, timeout, [backend] { return !threads().running.contains(backend); });
}

void RunSampler::stop()
{
    std::lock_guard lock(m_shared->mutex);
    m_shared->stopped = true;
    m_shared->sink = nullptr;
    m_shared->wake.notify_all();
}

} // namespace sandbox
