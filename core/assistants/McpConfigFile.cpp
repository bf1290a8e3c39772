#include "assistants/McpConfigFile.h"

#include "settings/UserSettings.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace sandbox {

namespace {

constexpr QFileDevice::Permissions kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

Result<void> saveAtomically(const QString &path, const QByteArray &bytes, bool privateFile)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return Error{QStringLiteral("cannot write %1: %2").arg(path, file.errorString()), ErrorCode::Internal};
    }
    // Before the first byte, so the secret is never readable by others, not even in the temporary file.
    if (privateFile) {
        file.setPermissions(kOwnerOnly);
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
