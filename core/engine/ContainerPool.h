#pragma once

#include "engine/SandboxContainer.h"
#include "util/Result.h"

#include <QString>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace sandbox {

/// Warm sandbox containers per key (backend, language, image), so a run pays neither a
/// container start nor an exec: it takes a container whose runner is already waiting. The
/// runner resets a container between runs (workdir and scratch emptied, every leftover
/// process killed); a container is replaced after `maxUses` runs (its successor warmed while it serves its last
/// tenth), after any run that did not end cleanly, and after `idleTimeout` unused. Under a burst of concurrent runs
/// (many clients at once) it keeps more than `maxIdlePerKey` (as many as runs of the key went at once within the last
/// `burstIdleTimeout`, up to kBurstIdle): the next runs of the burst take them instead of starting containers; those
/// beyond `maxIdlePerKey` go after `burstIdleTimeout` unused. Containers are removed on the pool's own thread, never a
/// run's. Thread-safe.
class ContainerPool final
{
public:
    struct Options
    {
        int maxIdlePerKey = 2; ///< 0 disables pooling: every run gets a fresh container
        std::chrono::seconds idleTimeout{300};
        int maxUses = 100;
        std::chrono::seconds burstIdleTimeout{30};
    };
    /// The most containers per key kept idle during a burst.
    static constexpr int kBurstIdle = 16;
    /// The most containers of a key started for runs at once; more runs wait for one of those or for a container given
    /// back.
    static constexpr int kMaxStarting = 2;
    using Factory = std::function<Result<std::unique_ptr<SandboxContainer>>()>;

    explicit ContainerPool(Options options);
    /// Removes every idle container and waits for containers still being warmed.
    ~ContainerPool();
    ContainerPool(const ContainerPool &) = delete;
    ContainerPool &operator=(const ContainerPool &) = delete;

    /// A warm container for `key`, or a new one from `create` (which may wait for one being started or given back).
    Result<std::unique_ptr<SandboxContainer>> acquire(const QString &key, const Factory &create);
    /// Gives a container back after a run; `reusable` is false when the run did not end cleanly.
    void release(std::unique_ptr<SandboxContainer> container, bool reusable);
    /// Starts one container for `key` in the background, unless one is idle already that is not about to retire
    /// (within a tenth of `maxUses` of it).
    void prewarm(const QString &key, const Factory &create);
    /// Removes every idle container and pools none from now on: containers given back are removed, and those being
    /// warmed are removed once started. For an engine that is retired while its runs finish (AppContext::reconnect),
    /// so none of its warm containers outlives them. Blocks while the idle containers are removed.
    void drain();
    /// Removes every idle container (they died with their engine, or cannot be trusted to have outlived it); pooling
    /// goes on. Blocks while they are removed.
    void clear();
    /// Idle containers per key (for tests and the GUI).
    int idleCount(const QString &key) const;
    /// Idle containers of the keys `matches` accepts.
    int idleCount(const std::function<bool(const QString &key)> &matches) const;

private:
    void reap();
    bool hasIdleWithUsesLeft(const QString &key) const; ///< with m_mutex held
    /// How many containers of `key` may wait idle now (with m_mutex held).
    int idleCap(const QString &key) const;
    /// A container of `key` was handed to a run (with m_mutex held).
    void noteAcquired(const QString &key);

    Options m_options;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<QString, std::vector<std::unique_ptr<SandboxContainer>>> m_idle;
    /// Runs of a key: how many have a container now, and the most at once lately; containers acquire() is starting.
    struct Demand
    {
        int starting = 0;
        int busy = 0;
        int peak = 0;
        std::chrono::steady_clock::time_point peakAt;
    };
    std::map<QString, Demand> m_demand;
    /// Given back and not kept: the reaper removes them.
    std::vector<std::unique_ptr<SandboxContainer>> m_retiring;
    int m_warming = 0;
    bool m_stopping = false;
    std::thread m_reaper;
};

} // namespace sandbox
