#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <utility>

namespace sandbox {

/// How many runs go at once, engine-wide (SandboxSettings::maxRuns). Each holds a container: without a bound, one
/// token holder's calls (64 HTTP sessions of 16 calls each) would start a thousand. Runs beyond it wait their turn.
class RunSlots final
{
public:
    /// A place taken; it is given back when this goes.
    class Slot final
    {
    public:
        explicit Slot(RunSlots *owner) : m_owner(owner) {}
        Slot(Slot &&other) noexcept : m_owner(std::exchange(other.m_owner, nullptr)) {}
        Slot(const Slot &) = delete;
        Slot &operator=(const Slot &) = delete;
        Slot &operator=(Slot &&) = delete;
        ~Slot();

    private:
        RunSlots *m_owner;
    };

    explicit RunSlots(int capacity) : m_capacity(capacity) {}

    /// Takes a place, waiting while all are taken; `waiting(running)` is told at once and then every `every` while
    /// it waits. Nothing when `stop` is requested first.
    std::optional<Slot> take(std::stop_token stop, const std::function<void(int running)> &waiting,
                             std::chrono::milliseconds every = std::chrono::seconds(5));

    int capacity() const { return m_capacity; }

private:
    void giveBack();

    const int m_capacity;
    mutable std::mutex m_mutex;
    std::condition_variable_any m_freed;
    int m_running = 0;
};

} // namespace sandbox
