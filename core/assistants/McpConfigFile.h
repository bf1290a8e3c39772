#pragma once

#include "assistants/McpConfigEditor.h"
#include "util/Result.h"

#include <QByteArray>
#include <QString>

namespace sandbox {

/// One assistant's MCP configuration file on disk, changed through McpConfigEditor: the new content is written
/// atomically (QSaveFile) after the previous content was saved as `<file>.bak`; nothing is written when nothing
/// changes, so a second install neither rewrites the file nor replaces the backup. A file that is not valid JSON is
/// refused and left as it is. A missing file (and its folders) is created.
class McpConfigFile final
{
public:
    struct Change
    {
        enum class Outcome
        {
            Created,      ///< the file did not exist; it does now, with our entry
            Added,        ///< our entry was added to the file
            Updated,      ///< our entry was there with other content; it was replaced
            Unchanged,    ///< our entry was there already as it is: nothing written
            Removed,      ///< our entry was removed
            NotInstalled, ///< there was no entry of ours to remove: nothing written
        };
        Outcome outcome = Outcome::Unchanged;
        QByteArray before;  ///< the file's content before (empty when it did not exist)
        QByteArray after;   ///< its content after (or what it would be, for a dry run)
        QString backupPath; ///< where `before` was saved; empty when nothing was written or there was no file
    };

    McpConfigFile(QString path, McpConfigEditor::Format format);

    const QString &path() const { return m_path; }
    static QString backupPathOf(const QString &path) { return path + QStringLiteral(".bak"); }

    /// Adds or replaces servers[`name`]. With `dryRun` nothing is written: the Change says what would be. With
    /// `privateFile` (the entry holds a secret) the file and its backup are made readable by the user alone.
    Result<Change> install(const QString &name, const nlohmann::ordered_json &entry, bool dryRun,
                           bool privateFile) const;
    /// Removes servers[`name`], leaving every other byte as it was; the servers object goes too when install()
    /// added it and ours was its last member (UserSettings::addedServersObject()).
    Result<Change> uninstall(const QString &name, bool dryRun) const;
    /// servers[`name`] as the file has it now; nullopt when the file or the entry does not exist.
    Result<std::optional<nlohmann::ordered_json>> entry(const QString &name) const;
    /// What in the file's content stops install() and uninstall() of `name`, as data (the desktop app words it in
    /// the user's language); nullopt when nothing does, or when the file cannot be read (their errors say that).
    std::optional<McpConfigEditor::Problem> problem(const QString &name) const;

private:
    struct Contents
    {
        bool exists = false;
        QByteArray bytes;
    };
    QString absolutePath() const;
    Result<Contents> read() const;
    Result<void> write(const Contents &before, const QByteArray &after, bool privateFile) const;
    Error refused(const Error &error) const;

    QString m_path;
    McpConfigEditor m_editor;
};

} // namespace sandbox
