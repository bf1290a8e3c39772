#include "folders/ResultWriter.h"

#include "util/FileDescriptor.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScopeGuard>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace sandbox {

namespace {

constexpr qint64 kMiB = 1024 * 1024;
/// What is read and written at a time: a large result is never held whole.
constexpr qint64 kChunkBytes = kMiB;
/// "summary (2).csv" up to this: a folder with that many copies of a name is a sign of a loop, not of a wish.
constexpr int kMaxNumberedNames = 999;
constexpr int kMaxNameBytes = 255;

QString systemError(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

/// `bytes` as a person reads a size: "100 MiB", "1.5 MiB", "12 KiB", "7 bytes".
QString sizeText(qint64 bytes)
{
    if (bytes >= kMiB) {
        return bytes % kMiB == 0 ? QStringLiteral("%1 MiB").arg(bytes / kMiB)
                                 : QStringLiteral("%1 MiB").arg(double(bytes) / double(kMiB), 0, 'f', 1);
    }
    if (bytes >= 1024) {
        return QStringLiteral("%1 KiB").arg(bytes / 1024);
    }
    return bytes == 1 ? QStringLiteral("1 byte") : QStringLiteral("%1 bytes").arg(bytes);
}

/// `name` quoted for a message: at most 80 characters, control characters written as \n or \u0007 so a message stays
/// one line and shows what the name holds.
QString quoted(const QString &name)
{
    QString shown;
    for (const QChar c : name.left(80)) {
        if (c == QLatin1Char('\n')) {
            shown += QStringLiteral("\\n");
        } else if (c == QLatin1Char('\r')) {
            shown += QStringLiteral("\\r");
        } else if (c == QLatin1Char('\t')) {
            shown += QStringLiteral("\\t");
        } else if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format ||
                   c.category() == QChar::Separator_Line || c.category() == QChar::Separator_Paragraph) {
            shown += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        } else {
            shown += c;
        }
    }
    if (name.size() > 80) {
        shown += QStringLiteral("...");
    }
    return QLatin1Char('"') + shown + QLatin1Char('"');
}

/// Characters that make a name show as another: right-to-left overrides turn "report\u202Ecsv.exe" into a ".csv".
bool isDirectionControl(char16_t c)
{
    return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

/// What kind of thing a stat says is at a name, for a message.
QString kindOf(mode_t mode)
{
    if (S_ISLNK(mode)) {
        return QStringLiteral("a symbolic link");
    }
    if (S_ISDIR(mode)) {
        return QStringLiteral("a folder");
    }
    if (S_ISFIFO(mode)) {
        return QStringLiteral("a named pipe");
    }
    if (S_ISSOCK(mode)) {
        return QStringLiteral("a socket");
    }
    if (S_ISCHR(mode) || S_ISBLK(mode)) {
        return QStringLiteral("a device");
    }
    return QStringLiteral("not a regular file");
}

/// Opens the folder at the absolute `path` one component at a time without following a symbolic link at any of them:
/// a folder replaced by a link (to ~/.ssh, to /etc) since it was shared is not written through. -1 with errno set.
int openFolderNoFollow(const QByteArray &path)
{
    if (!path.startsWith('/')) {
        errno = EINVAL;
        return -1;
    }
    FileDescriptor current(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (current.get() < 0) {
        return -1;
    }
    const QList<QByteArray> components = path.split('/');
    qsizetype last = components.size() - 1;
    while (last >= 0 && components[last].isEmpty()) {
        --last;
    }
    for (qsizetype i = 0; i <= last; ++i) {
        const QByteArray &component = components[i];
        if (component.isEmpty() || component == ".") {
            continue;
        }
        if (component == "..") {
            errno = EINVAL; // a shared folder's path is canonical: ".." means someone edited it
            return -1;
        }
        // The folder itself is opened for reading, the folders above it only as places on the way.
        const int flags = (i == last ? O_RDONLY : O_PATH) | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
        const int next = ::openat(current.get(), component.constData(), flags);
        if (next < 0) {
            return -1;
        }
        current.reset(next);
    }
    return current.release();
}

} // namespace

ResultWriter::ResultWriter(ResultLimits limits) : m_limits(limits) {}

void ResultWriter::countEarlier(int files, qint64 bytes)
{
    m_files += files;
    m_bytes += bytes;
}

Result<void> ResultWriter::checkName(const QString &name)
{
    const auto refused = [&](const QString &why) {
        return Error{QStringLiteral("The file name %1 is refused: %2.").arg(quoted(name), why), ErrorCode::BadRequest};
    };
    if (name.isEmpty()) {
        return Error{QStringLiteral("A result needs a file name."), ErrorCode::BadRequest};
    }
    if (name.contains(QLatin1Char('/')) || name.contains(QLatin1Char('\\'))) {
        const QString plain = name.section(QRegularExpression(QStringLiteral("[/\\\\]")), -1);
        return refused(
            QStringLiteral("results are saved directly in the shared folder, without subfolders, so a name may not "
                           "contain '/' or '\\'%1")
                .arg(plain.isEmpty() ? QString()
                                     : QStringLiteral(" (a plain name such as %1 is fine)").arg(quoted(plain))));
    }
    if (name.startsWith(QLatin1Char('.'))) {
        return refused(
            QStringLiteral("a name may not start with '.', so no hidden files such as .bashrc and no \"..\""));
    }
    for (const QChar c : name) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Separator_Line ||
            c.category() == QChar::Separator_Paragraph) {
            return refused(QStringLiteral("a name may not contain line breaks, tabs or other control characters"));
        }
        if (isDirectionControl(c.unicode())) {
            return refused(QStringLiteral("a name may not contain text direction controls, which make it read as "
                                          "another name"));
        }
    }
    // A lone surrogate has no UTF-8 form: the name on disk would be another one.
    if (QString::fromUtf8(name.toUtf8()) != name) {
        return refused(QStringLiteral("it is not valid Unicode"));
    }
    if (name.front().isSpace() || name.back().isSpace()) {
        return refused(QStringLiteral("a name may not start or end with a space"));
    }
    if (name.endsWith(QLatin1Char('.'))) {
        return refused(QStringLiteral("a name may not end with a dot"));
    }
    if (const qsizetype bytes = name.toUtf8().size(); bytes > kMaxNameBytes) {
        return refused(QStringLiteral("it is %1 bytes long in UTF-8, and a file name may have at most %2")
                           .arg(bytes)
                           .arg(kMaxNameBytes));
    }
    return {};
}

QString ResultWriter::numberedName(const QString &name, int attempt)
{
    // The number goes before the extension, and before ".tar" of "x.tar.gz": the file still opens as what it is.
    qsizetype dot = name.lastIndexOf(QLatin1Char('.'));
    const qsizetype previous = dot > 0 ? name.lastIndexOf(QLatin1Char('.'), dot - 1) : -1;
    if (previous > 0 && name.mid(previous, dot - previous).compare(QLatin1String(".tar"), Qt::CaseInsensitive) == 0) {
        dot = previous;
    }
    QString stem = dot > 0 ? name.left(dot) : name;
    const QString extension = dot > 0 ? name.mid(dot) : QString();
    const QString number = QStringLiteral(" (%1)").arg(attempt);
    while (!stem.isEmpty() && (stem + number + extension).toUtf8().size() > kMaxNameBytes) {
        stem.chop(stem.back().isLowSurrogate() && stem.size() > 1 ? 2 : 1);
    }
    return stem + number + extension;
}

Result<SavedResult> ResultWriter::save(const SharedFolder &folder, const QString &name, const QByteArray &bytes,
                                       bool overwrite)
{
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    return save(folder, name, buffer, bytes.size(), overwrite);
}

Result<SavedResult> ResultWriter::save(const SharedFolder &folder, const QString &name, QIODevice &content, qint64 size,
                                       bool overwrite)
{
    const QString where = folder.mountPath();
    if (!folder.writable) {
        return Error{QStringLiteral("%1 is shared read-only: results are saved only in a folder the user shared with "
                                    "\"results may be saved here\".")
                         .arg(where),
                     ErrorCode::BadRequest};
    }
    if (auto valid = checkName(name); !valid) {
        return valid.error();
    }
    if (size > m_limits.maxFileBytes) {
        return Error{QStringLiteral("%1 is %2, over the limit of %3 per saved file.")
                         .arg(quoted(name), sizeText(size), sizeText(m_limits.maxFileBytes)),
                     ErrorCode::LimitReached};
    }
    if (m_files >= m_limits.maxFiles) {
        return Error{QStringLiteral("%1 was not saved: this run has saved %2 files, the limit of files saved per run.")
                         .arg(quoted(name))
                         .arg(m_files),
                     ErrorCode::LimitReached};
    }
    if (m_bytes + size > m_limits.maxTotalBytes) {
        return Error{QStringLiteral("%1 (%2) was not saved: with it this run's saved files would come to %3, over the "
                                    "limit of %4 per run.")
                         .arg(quoted(name), sizeText(size), sizeText(m_bytes + size), sizeText(m_limits.maxTotalBytes)),
                     ErrorCode::LimitReached};
    }

    const auto failed = [&](const QString &why) {
        return Error{QStringLiteral("%1 could not be saved in %2: %3.").arg(quoted(name), where, why),
                     ErrorCode::Internal};
    };
    const FileDescriptor directory(openFolderNoFollow(QFile::encodeName(folder.path)));
    if (directory.get() < 0) {
        const int error = errno;
        if (error == ELOOP || error == ENOTDIR) {
            return Error{QStringLiteral("%1 was not saved: the shared folder %2 is no longer a folder on the host (it "
                                        "or a folder above it was replaced by a symbolic link or a file).")
                             .arg(quoted(name), where),
                         ErrorCode::BadRequest};
        }
        if (error == ENOENT) {
            return Error{QStringLiteral("%1 was not saved: the shared folder %2 no longer exists on the host.")
                             .arg(quoted(name), where),
                         ErrorCode::NotFound};
        }
        return failed(QStringLiteral("the folder cannot be opened (%1)").arg(systemError(error)));
    }

    const QByteArray target = name.toUtf8();
    // Only a regular file is ever replaced or numbered around; a link, a folder, a pipe or a device at the name is
    // refused, whether or not overwriting is allowed.
    const auto checkTarget = [&](const QByteArray &entry) -> Result<void> {
        struct stat info
        {
        };
        if (::fstatat(directory.get(), entry.constData(), &info, AT_SYMLINK_NOFOLLOW) != 0 || S_ISREG(info.st_mode)) {
            return {};
        }
        return Error{QStringLiteral("%1 was not saved: %2/%3 is %4, and results replace or sit beside regular files "
                                    "only.")
                         .arg(quoted(name), where, QString::fromUtf8(entry), kindOf(info.st_mode)),
                     ErrorCode::BadRequest};
    };
    if (auto checked = checkTarget(target); !checked) {
        return checked.error();
    }

    // The temporary file is hidden (a dot file) and created afresh: O_EXCL with O_NOFOLLOW never opens what is there.
    QByteArray temporary;
    FileDescriptor file;
    for (int attempt = 0; attempt < 16 && file.get() < 0; ++attempt) {
        temporary = QByteArrayLiteral(".llm-sandbox-") +
                    QByteArray::number(QRandomGenerator::global()->generate64(), 36) + QByteArrayLiteral(".part");
        file.reset(::openat(directory.get(), temporary.constData(),
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (file.get() < 0 && errno != EEXIST) {
            break;
        }
    }
    if (file.get() < 0) {
        const int error = errno;
        return error == EACCES || error == EPERM || error == EROFS
                   ? Error{QStringLiteral("%1 was not saved: llm-sandbox may not write in the shared folder %2 (%3).")
                               .arg(quoted(name), where, systemError(error)),
                           ErrorCode::BadRequest}
                   : failed(systemError(error));
    }
    bool published = false;
    const auto removeTemporary = qScopeGuard([&] {
        if (!published) {
            ::unlinkat(directory.get(), temporary.constData(), 0);
        }
    });

    QCryptographicHash hash(QCryptographicHash::Sha256);
    QByteArray chunk;
    qint64 written = 0;
    while (written < size) {
        chunk.resize(qMin(kChunkBytes, size - written));
        qint64 got = content.read(chunk.data(), chunk.size());
        if (got == 0 && !content.atEnd() && content.waitForReadyRead(30000)) {
            continue;
        }
        if (got <= 0) {
            return failed(
                got < 0 ? content.errorString()
                        : QStringLiteral("its content ended after %1 of %2").arg(sizeText(written), sizeText(size)));
        }
        hash.addData(QByteArrayView(chunk.constData(), got));
        for (qint64 done = 0; done < got;) {
            const ssize_t n = ::write(file.get(), chunk.constData() + done, size_t(got - done));
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                return failed(systemError(errno));
            }
            done += n;
        }
        written += got;
    }
    // The mode is set, not left to the umask: readable by the user's programs, never executable.
    if (::fchmod(file.get(), 0644) != 0) {
        return failed(systemError(errno));
    }
    if (::close(file.release()) != 0) {
        return failed(systemError(errno));
    }

    QString savedName;
    for (int attempt = 1; attempt <= kMaxNumberedNames && savedName.isEmpty(); ++attempt) {
        const QString candidate = attempt == 1 ? name : numberedName(name, attempt);
        const QByteArray entry = candidate.toUtf8();
        if (overwrite && attempt == 1) {
            // rename() replaces the name itself, never what a link there points to; a folder there makes it fail.
            if (auto checked = checkTarget(entry); !checked) {
                return checked.error();
            }
            if (::renameat(directory.get(), temporary.constData(), directory.get(), entry.constData()) != 0) {
                return failed(systemError(errno));
            }
            savedName = candidate;
            break;
        }
        if (::renameat2(directory.get(), temporary.constData(), directory.get(), entry.constData(), RENAME_NOREPLACE) ==
            0) {
            savedName = candidate;
            break;
        }
        if (errno == EEXIST) {
            continue;
        }
        if (errno != EINVAL && errno != ENOSYS) {
            return failed(systemError(errno));
        }
        // A file system without renameat2's flags: a hard link is made only where nothing is, then the temporary
        // name goes.
        if (::linkat(directory.get(), temporary.constData(), directory.get(), entry.constData(), 0) == 0) {
            ::unlinkat(directory.get(), temporary.constData(), 0);
            savedName = candidate;
            break;
        }
        if (errno != EEXIST) {
            return failed(systemError(errno));
        }
    }
    if (savedName.isEmpty()) {
        return Error{QStringLiteral("%1 was not saved: %2 already holds it and %3 numbered copies of it.")
                         .arg(quoted(name), where)
                         .arg(kMaxNumberedNames - 1),
                     ErrorCode::LimitReached};
    }
    published = true;
    ++m_files;
    m_bytes += written;
    return SavedResult{.folderName = folder.name,
                       .folderPath = folder.path,
                       .fileName = savedName,
                       .bytes = written,
                       .sha256 = QString::fromLatin1(hash.result().toHex()),
                       .savedAt = QDateTime::currentDateTimeUtc()};
}

} // namespace sandbox
