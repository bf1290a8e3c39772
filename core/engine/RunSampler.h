#pragma once

#include "backend/ContainerBackend.h"

#include <QString>
#include <chrono>
#include <functional>
#include <memory>

namespace sandbox {

/// Samples the container a program runs in through the engine's stats API (ContainerBackend::containerStats)
/// while it runs, for the journal's CPU and memory series of the run. Its thread waits `firstAfter` before the
/// first sample (a run that ends sooner costs the engine nothing), then samples about every `interval` (Docker's
/// and Podman's answer takes a second of its own: CPU use is the difference of two readings). Stopping never waits
/// for a sample in flight: after stop() (or the destructor) returns, `sink` is not called again.
class RunSampler final
{
public:
    using Sink = std::function<void(const ContainerStats &)>;

    RunSampler(std::shared_ptr<ContainerBackend> backend, QString containerId, Sink sink,
               std::chrono::milliseconds firstAfter = std::chrono::milliseconds(300),
               std::chrono::milliseconds interval = std::chrono::milliseconds(500));
    ~RunSampler();
    RunSampler(const RunSampler &) = delete;
    RunSampler &operator=(const RunSampler &) = delete;

    void stop();

    /// Waits until the threads of every sampler of `backend` have ended (a stopped one ends when its sample in flight
    /// is answered), or `timeout` has passed; false then. For the end of an engine: a thread still inside the
    /// backend's client when the program exits crashes it.
    static bool waitForThreads(const ContainerBackend *backend, std::chrono::milliseconds timeout);

private:
    struct Shared;
    std::shared_ptr<Shared> m_shared;
};

} // namespace sandbox
