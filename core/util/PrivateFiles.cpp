#include "util/PrivateFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbox {

namespace {

constexpr QFileDevice::Permissions kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

} // namespace

bool PrivateFiles::makeDirectory(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList missing;
    for (QString folder = absolute; !QFileInfo::exists(folder); folder = QFileInfo(folder).path()) {
        missing.prepend(folder);
        if (folder == QFileInfo(folder).path()) {
            break;
        }
    }
    for (const QString &folder : missing) {
        if (!QDir().mkdir(folder, kOwnerOnly | QFileDevice::ExeOwner) && !QFileInfo(folder).isDir()) {
            return false;
        }
    }
    return QFileInfo(absolute).isDir();
}

bool PrivateFiles::restrict(QFileDevice &file)
{
    return file.setPermissions(kOwnerOnly);
}

bool PrivateFiles::restrict(const QString &path)
{
    // O_CREAT with 0600: never a moment in which a new file is readable by others.
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        return false;
    }
    const bool restricted = ::fchmod(fd, 0600) == 0;
    ::close(fd);
    return restricted;
}

} // namespace sandbox
