#include "ProcessSampler.h"

#include <QDir>
#include <QFile>
#include <algorithm>
#include <unistd.h>

namespace sandbox::mcpload {

qint64 cpuTimeMs(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) {
        return -1;
    }
    const QByteArray line = stat.readAll();
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13) {
        return -1;
    }
    return (fields[11].toLongLong() + fields[12].toLongLong()) * 1000 / ::sysconf(_SC_CLK_TCK);
}

ProcessSample sampleProcess(qint64 pid)
{
    ProcessSample sample;
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly)) {
        return sample;
    }
    const auto number = [](const QByteArray &line, qsizetype prefix) {
        return line.mid(prefix).trimmed().split(' ').first().toLongLong();
    };
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) {
            sample.rssKb = number(line, 6);
        } else if (line.startsWith("VmHWM:")) {
            sample.hwmKb = number(line, 6);
        } else if (line.startsWith("Threads:")) {
            sample.threads = int(number(line, 8));
        }
    }
    sample.cpuMs = cpuTimeMs(pid);
    // Pipes and sockets are links to nothing: System keeps them in the count.
    sample.fds = int(QDir(QStringLiteral("/proc/%1/fd").arg(pid))
                         .entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)
                         .size());
    return sample;
}

double mib(qint64 kb)
{
    return double(kb) / 1024.0;
}

} // namespace sandbox::mcpload
