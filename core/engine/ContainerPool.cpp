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
    // `idle` goes out of scope here: every container is removed, outside the lock.
}

Result<std::unique_ptr<SandboxContainer>> ContainerPool::acquire(const QString &key, const Factory &create)
{
    {
        std::lock_guard lock(m_mutex);
        auto it = m_idle.find(key);
        if (it != m_idle.end() && !it->second.empty()) {
            // The most used first: it retires soonest, and a successor warmed ahead of that waits its turn.
            auto &idle = it->second;
            const auto chosen = std::max_element(idle.begin(), idle.end(),
                                                 [](const auto &a, const auto &b) { return a->uses() < b->uses(); });
            std::unique_ptr<SandboxContainer> container = std::move(*chosen);
            idle.erase(chosen);
            qCDebug(lcPool) << "reusing" << container->id().left(12) << "for" << key;
            return container;
        }
    }
    return create();
}

void ContainerPool::release(std::unique_ptr<SandboxContainer> container, bool reusable)
{
    container->markUsed();
    if (reusable && container->uses() < m_options.maxUses) {
        std::lock_guard lock(m_mutex);
        auto &idle = m_idle[container->poolKey()];
        if (!m_stopping && int(idle.size()) < m_options.maxIdlePerKey) {
            idle.push_back(std::move(container));
            return;
        }
    }
    container.reset(); // removed now, outside the lock
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
        if (container && !m_stopping && int(m_idle[key].size()) < m_options.maxIdlePerKey) {
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
    std::map<QString, std::vector<std::unique_ptr<SandboxContainer>>> idle;
    {
        std::lock_guard lock(m_mutex);
        // What stops the pool for the destructor stops it here: release() and the warming threads keep nothing, and
        // the reaper ends (nothing will be idle again). The destructor still waits for the warming threads.
        m_stopping = true;
        idle.swap(m_idle);
        m_changed.notify_all();
    }
    qCDebug(lcPool) << "drained" << idle.size() << "key(s)";
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

void ContainerPool::reap()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        m_changed.wait_for(lock, std::chrono::seconds(5));
        const auto now = std::chrono::steady_clock::now();
        std::vector<std::unique_ptr<SandboxContainer>> expired;
        for (auto &[key, idle] : m_idle) {
            for (auto it = idle.begin(); it != idle.end();) {
                if (now - (*it)->lastUsed() > m_options.idleTimeout) {
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
