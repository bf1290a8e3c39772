#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>

namespace sandbox::test {

/// Holds fake runs open until the test opens it, so a test can act while a run is in progress
/// (cancel it, remove an observer, kill its container). Thread-safe.
class FakeRunGate final
{
public:
    /// Lets every run waiting at the gate (and every later one) go on.
    void open();
    bool isOpen() const;
    /// How many runs have reached the gate so far.
    int arrivals() const;
    /// Waits until `count` runs have reached the gate; false when `timeout` passed first.
    bool waitForArrivals(int count = 1, std::chrono::milliseconds timeout = std::chrono::seconds(10)) const;

    /// For the fake runner: a run reached the gate.
    void arrive();
    /// For the fake runner: waits until the gate is open or `interrupted()` is true. Whoever changes
    /// what `interrupted` reads calls wake() afterwards.
    void waitUntilOpen(const std::function<bool()> &interrupted);
    void wake();

private:
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_changed;
    bool m_open = false;
    int m_arrivals = 0;
};

} // namespace sandbox::test
