#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace sandbox::test {

/// Waits until `condition` holds, looking again every millisecond; false when `deadline` passed first.
/// For conditions other threads bring about without a signal a test could wait on (a pool's prewarm thread).
inline bool waitUntil(const std::function<bool()> &condition,
                      std::chrono::milliseconds deadline = std::chrono::seconds(10))
{
    const auto giveUpAt = std::chrono::steady_clock::now() + deadline;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > giveUpAt) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

} // namespace sandbox::test
