#include "engine/RunSlots.h"

namespace sandbox {

RunSlots::Slot::~Slot()
{
    if (m_owner) {
        m_owner->giveBack();
    }
}

std::optional<RunSlots::Slot> RunSlots::take(std::stop_token stop, const std::function<void(int running)> &waiting,
                                             std::chrono::milliseconds every)
{
    std::unique_lock lock(m_mutex);
    while (m_running >= m_capacity) {
        if (waiting) {
            const int running = m_running;
            lock.unlock();
            waiting(running);
            lock.lock();
        }
        m_freed.wait_for(lock, stop, every, [this] { return m_running < m_capacity; });
        if (stop.stop_requested()) {
            return std::nullopt;
        }
    }
    ++m_running;
    return std::optional<Slot>(std::in_place, this);
}

void RunSlots::giveBack()
{
    {
        const std::lock_guard lock(m_mutex);
        --m_running;
    }
    // All: one woken waiter may be ending (its run was cancelled) and would take the wake-up with it.
    m_freed.notify_all();
}

} // namespace sandbox
