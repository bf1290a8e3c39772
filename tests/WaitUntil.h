#pragma once

#include <chrono>
#include <thread>

namespace sandbox::test {

/// Checks `condition` every `interval` until it holds or `timeout` has passed; true once it holds.
/// Tests wait for conditions, never for durations: the timeout only ends a test that would otherwise
/// hang, so make it generous — it is no bound on how fast the code must be. Pass a longer `interval`
/// when checking the condition is expensive (a round trip to a container engine).
template <typename Condition>
bool waitUntil(Condition &&condition, std::chrono::milliseconds timeout = std::chrono::seconds(30),
               std::chrono::milliseconds interval = std::chrono::milliseconds(5))
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= deadline) {
            return false;
        }
        std::this_thread::sleep_for(interval);
    }
    return true;
}

} // namespace sandbox::test
