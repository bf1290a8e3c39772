#include "assistants/McpConfigFile.h"

#include "settings/UserSettings.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace sandbox {

namespace {

/// Writes `bytes` to a new file beside `path`, created 0600 (mkostemp) and never changed: no moment in which another
/// user could open it, keep the descriptor and read the secret written after; then renames it over `path`.
Result<void> savePrivately(const QString &path, const QByteArray &bytes)
{
    const auto failed = [&path](int error) {
        return Error{QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(error))),
                     ErrorCode::Internal};
    };
    QByteArray temporary = QFile::encodeName(path) + ".XXXXXX";
    const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
    if (fd < 0) {
        return failed(errno);
    }
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t written = ::write(fd, bytes.constData() + done, std::size_t(bytes.size() - done));
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            const int error = errno;
            ::close(fd);
            ::unlink(temporary.constData());
            return failed(error);
        }
        done += written;
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0 ||
        ::rename(temporary.constData(), QFile::encodeName(path).constData()) != 0) {
        const int error = errno;
        ::unlink(temporary.constData());
        return failed(error);
    }
    return {};
}

Result<void> saveAtomically(const QString &path, const QByteArray &bytes, bool privateFile)
{
    if (privateFile) {
        return savePrivately(path, bytes);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return Error{QStringLiteral("cannot write %1: %2").arg(path, file.errorString()), ErrorCode::Internal};
    }
    file.write(bytes);
    if (!file.commit()) {
        return Error{QStringLiteral("cannot write %1: %2").arg(path, file.errorString()), ErrorCode::Internal};
    }
    return {};
}

} // namespace

McpConfigFile::McpConfigFile(QString path, McpConfigEditor::Format format)
    : m_path(std::move(path)), m_editor(std::move(format))
{}

QString McpConfigFile::absolutePath() const
{
    return QFileInfo(m_path).absoluteFilePath();
}

Result<McpConfigFile::Contents> McpConfigFile::read() const
{
    const QFileInfo info(m_path);
    if (!info.exists()) {
        return Contents{};
    }
    if (!info.isFile()) {
        return Error{QStringLiteral("%1 is not a file").arg(m_path), ErrorCode::BadRequest};
    }
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly)) {
        return Error{QStringLiteral("cannot read %1: %2").arg(m_path, file.errorString()), ErrorCode::BadRequest};
    }
    return Contents{true, file.readAll()};
}

std::optional<McpConfigEditor::Problem> McpConfigFile::problem(const QString &name) const
{
    const Result<Contents> contents = read();
    return contents ? m_editor.problem(contents->bytes, name) : std::nullopt;
}

Error McpConfigFile::refused(const Error &error) const
{
    return Error{QStringLiteral("%1: %2. The file was left as it is: fix it (or move it away), then try again.")
                     .arg(m_path, error.message),
                 error.code};
}

Result<void> McpConfigFile::write(const Contents &before, const QByteArray &after, bool privateFile) const
{
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath())) {
        return Error{QStringLiteral("cannot create the folder %1").arg(QFileInfo(m_path).absolutePath()),
                     ErrorCode::Internal};
    }
    if (before.exists) {
        const bool backupPrivate = privateFile || !(QFile::permissions(m_path) & QFileDevice::ReadOther);
        if (const Result<void> saved = saveAtomically(backupPathOf(m_path), before.bytes, backupPrivate); !saved) {
            return saved;
        }
    }
    if (const Result<void> saved = saveAtomically(m_path, after, privateFile); !saved) {
        return saved;
    }
    return {};
}

Result<McpConfigFile::Change> McpConfigFile::install(const QString &name, const nlohmann::ordered_json &entry,
                                                     bool dryRun, bool privateFile) const
{
    const Result<Contents> contents = read();
    if (!contents) {
        return contents.error();
    }
    const Result<QByteArray> after = m_editor.withEntry(contents->bytes, name, entry);
    if (!after) {
        return refused(after.error());
    }
    Change change{.before = contents->bytes, .after = *after};
    if (!contents->exists) {
        change.outcome = Change::Outcome::Created;
    } else if (*after == contents->bytes) {
        change.outcome = Change::Outcome::Unchanged;
        return change;
    } else {
        const Result<std::optional<nlohmann::ordered_json>> previous = m_editor.entry(contents->bytes, name);
        change.outcome = previous && previous->has_value() ? Change::Outcome::Updated : Change::Outcome::Added;
    }
    if (dryRun) {
        return change;
    }
    if (const Result<void> written = write(*contents, *after, privateFile); !written) {
        return written.error();
    }
    if (contents->exists) {
        change.backupPath = backupPathOf(m_path);
    }
    if (!m_editor.hasServers(contents->bytes)) {
        UserSettings().setAddedServersObject(absolutePath(), true);
    } else if (change.outcome == Change::Outcome::Added) {
        UserSettings().setAddedServersObject(absolutePath(), false); // the object was the user's
    }
    return change;
}

Result<McpConfigFile::Change> McpConfigFile::uninstall(const QString &name, bool dryRun) const
{
    const Result<Contents> contents = read();
    if (!contents) {
        return contents.error();
    }
    const bool ourObject = UserSettings().addedServersObject(absolutePath());
    const Result<QByteArray> after = m_editor.withoutEntry(contents->bytes, name,
                                                           ourObject ? McpConfigEditor::ServersObject::RemoveWhenEmpty
                                                                     : McpConfigEditor::ServersObject::Keep);
    if (!after) {
        return refused(after.error());
    }
    Change change{.before = contents->bytes, .after = *after};
    if (*after == contents->bytes) {
        change.outcome = Change::Outcome::NotInstalled;
        return change;
    }
    change.outcome = Change::Outcome::Removed;
    if (dryRun) {
        return change;
    }
    const bool privateFile = !(QFile::permissions(m_path) & QFileDevice::ReadOther);
    if (const Result<void> written = write(*contents, *after, privateFile); !written) {
        return written.error();
    }
    change.backupPath = backupPathOf(m_path);
    UserSettings().setAddedServersObject(absolutePath(), false);
    return change;
}

Result<std::optional<nlohmann::ordered_json>> McpConfigFile::entry(const QString &name) const
{
    const Result<Contents> contents = read();
    if (!contents) {
        return contents.error();
    }
    const Result<std::optional<nlohmann::ordered_json>> found = m_editor.entry(contents->bytes, name);
    if (!found) {
        return refused(found.error());
    }
    return found;
}

} // namespace sandbox
