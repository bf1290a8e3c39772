#pragma once

// What /proc says about a server under load: its memory, descriptors, threads and CPU time.

#include "LoadPhase.h"

#include <QFile>
#include <QTimer>
#include <QtGlobal>

namespace sandbox::mcpload {

/// What /proc says about a process.
struct ProcessSample
{
    qint64 rssKb = -1; ///< resident memory now (VmRSS)
    qint64 hwmKb = -1; ///< its peak since the start or the last resetPeaks() (VmHWM)
    int threads = -1;
    int fds = -1;      ///< open file descriptors
    qint64 cpuMs = -1; ///< user and system CPU time since it started (ProcessSampler: since resetPeaks())
};

/// User and system CPU time of a process in ms, from /proc/PID/stat (fields 14 and 15, after the command's name).
qint64 cpuTimeMs(qint64 pid);

ProcessSample sampleProcess(qint64 pid);

/// Samples a process every 200 ms while the event loop runs, and keeps the peaks.
class ProcessSampler final
{
public:
    explicit ProcessSampler(qint64 pid) : m_pid(pid)
    {
        QObject::connect(&m_timer, &QTimer::timeout, [this] { sample(); });
        m_timer.start(kSampleInterval);
        resetPeaks();
    }

    /// Peaks from now on: VmHWM too, where the kernel lets us reset it (/proc/PID/clear_refs, the owner or root).
    void resetPeaks()
    {
        QFile clearRefs(QStringLiteral("/proc/%1/clear_refs").arg(m_pid));
        if (clearRefs.open(QIODevice::WriteOnly)) {
            clearRefs.write("5");
        }
        m_peak = ProcessSample{};
        m_cpuAtReset = cpuTimeMs(m_pid);
        sample();
    }

    /// The largest sampled values, VmHWM now, and the CPU time used since resetPeaks().
    ProcessSample peaks()
    {
        sample();
        ProcessSample peaks = m_peak;
        peaks.cpuMs = cpuTimeMs(m_pid) - m_cpuAtReset;
        return peaks;
    }

private:
    void sample()
    {
        const ProcessSample now = sampleProcess(m_pid);
        m_peak.rssKb = std::max(m_peak.rssKb, now.rssKb);
        m_peak.hwmKb = now.hwmKb;
        m_peak.threads = std::max(m_peak.threads, now.threads);
        m_peak.fds = std::max(m_peak.fds, now.fds);
    }

    qint64 m_pid;
    QTimer m_timer;
    ProcessSample m_peak;
    qint64 m_cpuAtReset = 0;
};

double mib(qint64 kb);

} // namespace sandbox::mcpload
