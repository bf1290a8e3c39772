#pragma once

#include "UniqueFd.h"

namespace runner {

// Turns SIGCHLD and the termination signals into a pollable descriptor (signalfd). As PID 1 the runner must reap
// orphans it never started, and the kernel ignores SIGTERM for PID 1 unless it is handled, so both need to be
// part of the event loop rather than asynchronous handlers.
class SignalMonitor final
{
public:
    struct Pending final
    {
        bool childExited = false;
        bool terminate = false;
    };

    SignalMonitor();

    int fd() const { return m_fd.get(); }
    Pending drain();

    // Undoes the runner's signal mask in a freshly forked child; async-signal-safe.
    static void resetInChild();

private:
    UniqueFd m_fd;
};

} // namespace runner
