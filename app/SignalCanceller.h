#pragma once

#include <stop_token>
#include <thread>

namespace sandbox {

/// Turns SIGINT, SIGTERM and SIGHUP into a stop request while it lives, so Ctrl-C kills
/// the sandboxed program and removes its container instead of leaving them behind.
/// Create it before any other thread starts: the signals are blocked in every thread and
/// taken by one waiting thread.
class SignalCanceller final
{
public:
    SignalCanceller();
    ~SignalCanceller();
    SignalCanceller(const SignalCanceller &) = delete;
    SignalCanceller &operator=(const SignalCanceller &) = delete;

    std::stop_token token() const { return m_source.get_token(); }

private:
    std::stop_source m_source;
    std::thread m_waiter;
};

} // namespace sandbox
