#include "util/PrivateFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <cerrno>
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

bool PrivateFiles::write(const QString &path, const QByteArray &data, QString *error)
{
    // The permissions go on the temporary file QSaveFile writes, before the data does.
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly) && file.setPermissions(kOwnerOnly) && file.write(data) == data.size() &&
        file.commit()) {
        return true;
    }
    if (error) {
        *error = file.errorString();
    }
    return false;
}

bool PrivateFiles::restrict(const QString &path)
{
    const QByteArray name = QFile::encodeName(path);
    // An existing file by its name only: closing a descriptor of it would drop every POSIX lock this process holds
    // on it — SQLite's on an open database among them, after which another process can take it for unused.
    if (::chmod(name.constData(), 0600) == 0) {
        return true;
    }
    if (errno != ENOENT) {
        return false;
    }
    // O_CREAT with 0600: never a moment in which a new file is readable by others.
    const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        return errno == EEXIST && ::chmod(name.constData(), 0600) == 0;
    }
    ::close(fd);
    return true;
}

} // namespace sandbox
