#include "engine/ContainerPool.h"

#include <QLoggingCategory>
#include <algorithm>

Q_LOGGING_CATEGORY(lcPool, "sandbox.pool")

namespace sandbox {

ContainerPool::ContainerPool(Options options) : m_options(options)
{
    m_reaper = std::thread([this] { reap(); });
}

ContainerPool::~ContainerPool()
{
    std::map<QString, std::vector<std::unique_ptr<SandboxContainer>>> idle;
    {
        std::unique_lock lock(m_mutex);
        m_stopping = true;
        m_changed.notify_all();
        m_changed.wait(lock, [this] { return m_warming == 0; });
        idle.swap(m_idle);
    }
    m_reaper.join();
    m_retiring.clear();
    // `idle` goes out of scope here: every container is removed, outside the lock.
}

Result<std::unique_ptr<SandboxContainer>> ContainerPool::acquire(const QString &key, const Factory &create)
{
    std::unique_lock lock(m_mutex);
    // A burst of runs does not start a container each at once (fifty at once on two cores take a quarter of a minute
    // each): while kMaxStarting of its key are being started, a run waits for one of them or for a container given
    // back, which takes a fraction of that. Without a deadline: runs that all gave up waiting at once would start
    // their containers at once again (and under gVisor starve the runs in progress into their timeouts).
    for (;;) {
        auto it = m_idle.find(key);
        if (it != m_idle.end() && !it->second.empty()) {
            // The most used first: it retires soonest, and a successor warmed ahead of that waits its turn.
            auto &idle = it->second;
            const auto chosen = std::max_element(idle.begin(), idle.end(),
                                                 [](const auto &a, const auto &b) { return a->uses() < b->uses(); });
            std::unique_ptr<SandboxContainer> container = std::move(*chosen);
            idle.erase(chosen);
            noteAcquired(key);
            qCDebug(lcPool) << "reusing" << container->id().left(12) << "for" << key;
            return container;
        }
        if (m_stopping || m_options.maxIdlePerKey == 0 || m_demand[key].starting < kMaxStarting) {
            break;
        }
        m_changed.wait(lock);
    }
    ++m_demand[key].starting;
    lock.unlock();
    auto created = create();
    lock.lock();
    --m_demand[key].starting;
    if (created) {
        noteAcquired(key);
    }
    m_changed.notify_all();
    return created;
}

void ContainerPool::release(std::unique_ptr<SandboxContainer> container, bool reusable)
{
    container->markUsed();
    {
        std::lock_guard lock(m_mutex);
        const QString key = container->poolKey();
        if (auto demand = m_demand.find(key); demand != m_demand.end()) {
            demand->second.busy = std::max(0, demand->second.busy - 1);
        }
        if (!m_stopping) {
            auto &idle = m_idle[key];
            if (reusable && container->uses() < m_options.maxUses && int(idle.size()) < idleCap(key)) {
                idle.push_back(std::move(container));
                m_changed.notify_all(); // for a run waiting for one
            } else {
                // Removed on the reaper's thread: the run that gave it back answers now.
                m_retiring.push_back(std::move(container));
                m_changed.notify_all();
            }
            return;
        }
    }
    container.reset(); // stopping (no reaper any more): removed now, outside the lock
}

void ContainerPool::noteAcquired(const QString &key)
{
    Demand &demand = m_demand[key];
    ++demand.busy;
    const auto now = std::chrono::steady_clock::now();
    if (demand.busy >= demand.peak || now - demand.peakAt > m_options.burstIdleTimeout) {
        demand.peak = demand.busy;
        demand.peakAt = now;
    }
}

int ContainerPool::idleCap(const QString &key) const
{
    if (m_options.maxIdlePerKey == 0) {
        return 0;
    }
    const auto found = m_demand.find(key);
    if (found == m_demand.end()) {
        return m_options.maxIdlePerKey;
    }
    const Demand &demand = found->second;
    const bool recent = std::chrono::steady_clock::now() - demand.peakAt <= m_options.burstIdleTimeout;
    const int going = std::max(demand.busy, recent ? demand.peak : 0);
    return std::max(m_options.maxIdlePerKey, std::min(going, kBurstIdle));
}

void ContainerPool::prewarm(const QString &key, const Factory &create)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping || m_options.maxIdlePerKey == 0 || m_warming > 0 || hasIdleWithUsesLeft(key)) {
            return;
        }
        ++m_warming;
    }
    std::thread([this, key, create] {
        auto container = create();
        if (!container) {
            qCDebug(lcPool).noquote() << "prewarming" << key << "failed:" << container.error().message;
        }
        std::unique_lock lock(m_mutex);
        if (container && !m_stopping && int(m_idle[key].size()) < idleCap(key)) {
            m_idle[key].push_back(std::move(*container));
        } else if (container) {
            lock.unlock();
            container->reset();
            lock.lock();
        }
        --m_warming;
        m_changed.notify_all();
    }).detach();
}

void ContainerPool::drain()
{
    {
        std::lock_guard lock(m_mutex);
        // What stops the pool for the destructor stops it here: release() and the warming threads keep nothing, and
        // the reaper ends (nothing will be idle again). The destructor still waits for the warming threads.
        m_stopping = true;
    }
    clear();
}

void ContainerPool::clear()
{
    std::map<QString, std::vector<std::unique_ptr<SandboxContainer>>> idle;
    std::vector<std::unique_ptr<SandboxContainer>> retiring;
    {
        std::lock_guard lock(m_mutex);
        idle.swap(m_idle);
        retiring.swap(m_retiring);
        m_changed.notify_all();
    }
    qCDebug(lcPool) << "removing the idle containers of" << idle.size() << "key(s)";
    // `idle` goes out of scope here: every container is removed, outside the lock.
}

bool ContainerPool::hasIdleWithUsesLeft(const QString &key) const
{
    // A container in the second half of its uses does not count: its successor starts now, so it is ready, and its
    // preloaded interpreter (which takes a second to import its modules) too, before the first one retires.
    const int margin = std::max(1, m_options.maxUses / 2);
    auto it = m_idle.find(key);
    return it != m_idle.end() && std::any_of(it->second.begin(), it->second.end(), [&](const auto &container) {
               return m_options.maxUses - container->uses() > margin;
           });
}

int ContainerPool::idleCount(const QString &key) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_idle.find(key);
    return it == m_idle.end() ? 0 : int(it->second.size());
}

int ContainerPool::idleCount(const std::function<bool(const QString &key)> &matches) const
{
    std::lock_guard lock(m_mutex);
    int count = 0;
    for (const auto &[key, idle] : m_idle) {
        count += matches(key) ? int(idle.size()) : 0;
    }
    return count;
}

void ContainerPool::reap()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        m_changed.wait_for(lock, std::chrono::seconds(5), [this] { return m_stopping || !m_retiring.empty(); });
        const auto now = std::chrono::steady_clock::now();
        std::vector<std::unique_ptr<SandboxContainer>> expired = std::exchange(m_retiring, {});
        for (auto &[key, idle] : m_idle) {
            // The most recently used last: a burst's surplus (beyond maxIdlePerKey) goes after burstIdleTimeout, the
            // rest after idleTimeout.
            std::sort(idle.begin(), idle.end(),
                      [](const auto &a, const auto &b) { return a->lastUsed() < b->lastUsed(); });
            auto surplus = std::max<std::ptrdiff_t>(0, std::ssize(idle) - m_options.maxIdlePerKey);
            for (auto it = idle.begin(); it != idle.end();) {
                const auto timeout = surplus-- > 0 ? m_options.burstIdleTimeout : m_options.idleTimeout;
                if (now - (*it)->lastUsed() > timeout) {
                    expired.push_back(std::move(*it));
                    it = idle.erase(it);
                } else {
                    ++it;
                }
            }
        }
        if (!expired.empty()) {
            lock.unlock();
            expired.clear();
            lock.lock();
        }
    }
}

} // namespace sandbox
