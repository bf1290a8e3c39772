#include "fakes/FakeRunGate.h"

namespace sandbox::test {

void FakeRunGate::open()
{
    {
        std::lock_guard lock(m_mutex);
        m_open = true;
    }
    m_changed.notify_all();
}

bool FakeRunGate::isOpen() const
{
    std::lock_guard lock(m_mutex);
    return m_open;
}

int FakeRunGate::arrivals() const
{
    std::lock_guard lock(m_mutex);
    return m_arrivals;
}

bool FakeRunGate::waitForArrivals(int count, std::chrono::milliseconds timeout) const
{
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [&] { return m_arrivals >= count; });
}

void FakeRunGate::arrive()
{
    {
        std::lock_guard lock(m_mutex);
        ++m_arrivals;
    }
    m_changed.notify_all();
}

void FakeRunGate::waitUntilOpen(const std::function<bool()> &interrupted)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_open || interrupted(); });
}

void FakeRunGate::wake()
{
    // Taking the lock orders the caller's change before a waiter's next look at `interrupted`.
    std::lock_guard lock(m_mutex);
    m_changed.notify_all();
}

} // namespace sandbox::test
