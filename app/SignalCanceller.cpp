#include "SignalCanceller.h"

#include <pthread.h>
#include <signal.h>

namespace sandbox {

namespace {

sigset_t handledSignals()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGUSR2); // wakes the waiter when the canceller goes away
    return set;
}

} // namespace

SignalCanceller::SignalCanceller()
{
    const sigset_t set = handledSignals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    m_waiter = std::thread([this, set] {
        int signal = 0;
        while (sigwait(&set, &signal) == 0) {
            if (signal == SIGUSR2) {
                return;
            }
            m_source.request_stop();
        }
    });
}

SignalCanceller::~SignalCanceller()
{
    pthread_kill(m_waiter.native_handle(), SIGUSR2);
    m_waiter.join();
    const sigset_t set = handledSignals();
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

} // namespace sandbox
