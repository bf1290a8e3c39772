#include "SignalMonitor.h"

#include <csignal>
#include <sys/signalfd.h>
#include <system_error>

namespace runner {

namespace {

sigset_t monitoredSignals()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    return set;
}

} // namespace

SignalMonitor::SignalMonitor()
{
    // An ignored SIGCHLD inherited from our parent would make the kernel auto-reap steps and wait4() lose their
    // exit status and rusage.
    struct sigaction action
    {
    };
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(SIGCHLD, &action, nullptr);

    const sigset_t set = monitoredSignals();
    if (sigprocmask(SIG_BLOCK, &set, nullptr) != 0) {
        throw std::system_error(errno, std::generic_category(), "sigprocmask");
    }
    m_fd.reset(signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK));
    if (!m_fd.valid()) {
        throw std::system_error(errno, std::generic_category(), "signalfd");
    }
}

SignalMonitor::Pending SignalMonitor::drain()
{
    Pending pending;
    signalfd_siginfo info{};
    while (::read(m_fd.get(), &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
        if (info.ssi_signo == SIGCHLD) {
            pending.childExited = true;
        } else {
            pending.terminate = true;
        }
    }
    return pending;
}

void SignalMonitor::resetInChild()
{
    sigset_t empty;
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, nullptr);
    // The runner ignores SIGPIPE for itself; ignored dispositions survive execve, and user programs expect the
    // default (e.g. `yes | head` must terminate).
    struct sigaction action
    {
    };
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(SIGPIPE, &action, nullptr);
}

} // namespace runner
