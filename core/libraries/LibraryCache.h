#pragma once

#include "util/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace sandbox {

struct Language;
struct LibraryInstallPlan;

/// Library sets installed once: what an install packed for the code's sandbox (LibraryInstall), kept per user in
/// their cache folder (0700, files 0600), so that a later call in any process — the app, `--mcp`, `run` — unpacks it
/// instead of installing again. An entry is keyed by everything its content depends on (keyFor()); its archive is
/// checked against its SHA-256 before it is used, and one that does not match is removed, never used. The folder is
/// kept under a size cap by removing the least recently used entries. Safe for several processes at once: files are
/// written whole and renamed into place, and an entry that vanished is a miss.
class LibraryCache final
{
public:
    /// What is known of an entry, besides its archive (KEY.tar.gz next to KEY.json).
    struct Entry
    {
        QString key;
        QString language;
        QStringList libraries;
        QString image;
        qint64 archiveBytes = 0;
        qint64 unpackedBytes = 0;
        QByteArray sha256; ///< of the archive, hex
        QDateTime created;
        QDateTime lastUsed;
    };
    /// An entry found and verified.
    struct Hit
    {
        QByteArray archive;
        qint64 unpackedBytes = 0;
    };

    /// The cache in `folder` (empty: none, every call a miss) kept under `capBytes`.
    LibraryCache(QString folder, qint64 capBytes);

    /// $LLM_SANDBOX_LIBRARY_CACHE ("off": none), else the user's cache folder's llm-sandbox/libraries.
    static QString defaultFolder();
    /// What an install's result depends on: the language, the images it was installed with and for, the libraries
    /// (sorted), the install's command, environment (registry, index and mirror settings), offline files and the
    /// registries it may reach. SHA-256, hex.
    static QString keyFor(const Language &language, const QString &image, const QString &builderImage,
                          const QStringList &libraries, const LibraryInstallPlan &plan);

    [[nodiscard]] bool isEnabled() const { return !m_folder.isEmpty(); }
    const QString &folder() const { return m_folder; }
    qint64 capBytes() const { return m_capBytes; }

    /// The entry of `key`, verified, its last use now; nullopt when there is none, or it failed the check (then it is
    /// removed and `problem` says so).
    std::optional<Hit> find(const QString &key, QString *problem = nullptr);
    /// Keeps `archive` as the entry `entry` describes (its key, language, libraries, image, unpacked size), then
    /// removes the least recently used entries beyond the cap (never the new one).
    Result<void> store(Entry entry, const QByteArray &archive);
    /// Every entry, most recently used first.
    [[nodiscard]] QList<Entry> entries() const;
    /// Removes every entry, or those `only` names (by key or language); returns the bytes freed.
    Result<qint64> prune(const QStringList &only = {});

private:
    void evict(const QString &keep);
    bool remove(const QString &key);
    QString path(const QString &key, const char *suffix) const;

    QString m_folder;
    qint64 m_capBytes;
};

} // namespace sandbox
