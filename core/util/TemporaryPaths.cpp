#include "util/TemporaryPaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>
#include <mutex>

namespace sandbox {

namespace {

std::mutex s_mutex;

QStringList &paths()
{
    static QStringList list;
    return list;
}

} // namespace

TemporaryPaths::Registration::Registration(QString path) : m_path(std::move(path))
{
    const std::lock_guard lock(s_mutex);
    paths().append(m_path);
}

TemporaryPaths::Registration::~Registration()
{
    const std::lock_guard lock(s_mutex);
    paths().removeOne(m_path);
}

void TemporaryPaths::removeAll()
{
    const std::lock_guard lock(s_mutex);
    for (const QString &path : std::as_const(paths())) {
        if (QFileInfo(path).isDir()) {
            QDir(path).removeRecursively();
        } else {
            QFile::remove(path);
        }
    }
    paths().clear();
}

QStringList TemporaryPaths::registered()
{
    const std::lock_guard lock(s_mutex);
    return paths();
}

} // namespace sandbox
