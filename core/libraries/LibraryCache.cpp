#include "libraries/LibraryCache.h"

#include "engine/LibraryInstallPlan.h"
#include "lang/Language.h"
#include "util/PrivateFiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <algorithm>

namespace sandbox {

namespace {

bool isKey(const QString &key)
{
    static const QRegularExpression pattern(QStringLiteral("^[0-9a-f]{64}$"));
    return pattern.match(key).hasMatch();
}

QJsonObject toJson(const LibraryCache::Entry &entry)
{
    return {{QStringLiteral("language"), entry.language},
            {QStringLiteral("libraries"), QJsonArray::fromStringList(entry.libraries)},
            {QStringLiteral("image"), entry.image},
            {QStringLiteral("archive_bytes"), entry.archiveBytes},
            {QStringLiteral("unpacked_bytes"), entry.unpackedBytes},
            {QStringLiteral("sha256"), QString::fromLatin1(entry.sha256)},
            {QStringLiteral("created"), entry.created.toString(Qt::ISODateWithMs)},
            {QStringLiteral("last_used"), entry.lastUsed.toString(Qt::ISODateWithMs)}};
}

std::optional<LibraryCache::Entry> readEntry(const QString &key, const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    const QJsonObject json = QJsonDocument::fromJson(file.read(1024 * 1024)).object();
    LibraryCache::Entry entry;
    entry.key = key;
    entry.language = json.value(QStringLiteral("language")).toString();
    for (const QJsonValue library : json.value(QStringLiteral("libraries")).toArray()) {
        entry.libraries << library.toString();
    }
    entry.image = json.value(QStringLiteral("image")).toString();
    entry.archiveBytes = json.value(QStringLiteral("archive_bytes")).toInteger();
    entry.unpackedBytes = json.value(QStringLiteral("unpacked_bytes")).toInteger();
    entry.sha256 = json.value(QStringLiteral("sha256")).toString().toLatin1();
    entry.created = QDateTime::fromString(json.value(QStringLiteral("created")).toString(), Qt::ISODateWithMs);
    entry.lastUsed = QDateTime::fromString(json.value(QStringLiteral("last_used")).toString(), Qt::ISODateWithMs);
    if (entry.sha256.size() != 64 || entry.archiveBytes <= 0) {
        return std::nullopt;
    }
    return entry;
}

} // namespace

LibraryCache::LibraryCache(QString folder, qint64 capBytes) : m_folder(std::move(folder)), m_capBytes(capBytes) {}

QString LibraryCache::defaultFolder()
{
    QString configured = qEnvironmentVariable("LLM_SANDBOX_LIBRARY_CACHE");
    if (configured == QLatin1String("off")) {
        return {};
    }
    if (!configured.isEmpty()) {
        return configured;
    }
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) +
           QStringLiteral("/llm-sandbox/libraries");
}

QString LibraryCache::keyFor(const Language &language, const QString &image, const QString &builderImage,
                             const QStringList &libraries, const LibraryInstallPlan &plan)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    const auto add = [&hash](const QString &part) {
        const QByteArray bytes = part.toUtf8();
        hash.addData(QByteArray(QByteArray::number(bytes.size()) + ':' + bytes));
    };
    add(QStringLiteral("llm-sandbox library cache 1"));
    add(language.name);
    add(image);
    add(builderImage);
    QStringList sorted = libraries;
    sorted.sort();
    add(sorted.join(u'\n'));
    QStringList argv = plan.argv;
    argv.sort();
    add(argv.join(u'\n'));
    QStringList environment;
    for (auto it = plan.environment.begin(); it != plan.environment.end(); ++it) {
        environment << it.key() + u'=' + it.value();
    }
    environment.sort();
    add(environment.join(u'\n'));
    for (const FileEntry &file : plan.offlineFiles) {
        add(file.path + u' ' + QString::number(file.mode) + u' ' +
            QString::fromLatin1(QCryptographicHash::hash(file.data, QCryptographicHash::Sha256).toHex()));
    }
    // Where it may download from (never a login: that changes who downloads, not what).
    for (const EgressRule &rule : plan.egress) {
        add(rule.host + u':' + QString::number(rule.port));
    }
    return QString::fromLatin1(hash.result().toHex());
}

QString LibraryCache::path(const QString &key, const char *suffix) const
{
    return m_folder + u'/' + key + QLatin1String(suffix);
}

std::optional<LibraryCache::Hit> LibraryCache::find(const QString &key, QString *problem)
{
    if (!isEnabled() || !isKey(key)) {
        return std::nullopt;
    }
    auto entry = readEntry(key, path(key, ".json"));
    if (!entry) {
        return std::nullopt;
    }
    QFile file(path(key, ".tar.gz"));
    if (!file.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    QByteArray archive = file.readAll();
    if (QCryptographicHash::hash(archive, QCryptographicHash::Sha256).toHex() != entry->sha256) {
        remove(key);
        if (problem) {
            *problem = QStringLiteral("The cached libraries (%1) did not match their checksum: removed, installing "
                                      "again.")
                           .arg(entry->libraries.join(QStringLiteral(", ")));
        }
        return std::nullopt;
    }
    entry->lastUsed = QDateTime::currentDateTimeUtc();
    PrivateFiles::write(path(key, ".json"), QJsonDocument(toJson(*entry)).toJson());
    return Hit{std::move(archive), entry->unpackedBytes};
}

Result<void> LibraryCache::store(Entry entry, const QByteArray &archive)
{
    if (!isEnabled() || !isKey(entry.key)) {
        return {};
    }
    if (archive.size() > m_capBytes) {
        return Error{QStringLiteral("The installed libraries (%1 MiB packed) are larger than the library cache "
                                    "(%2 MiB): not kept.")
                         .arg(archive.size() / (1024 * 1024))
                         .arg(m_capBytes / (1024 * 1024))};
    }
    entry.archiveBytes = archive.size();
    entry.sha256 = QCryptographicHash::hash(archive, QCryptographicHash::Sha256).toHex();
    entry.created = entry.lastUsed = QDateTime::currentDateTimeUtc();
    QString error;
    // The archive first: an entry is only found through its description.
    if (!PrivateFiles::makeDirectory(m_folder) || !PrivateFiles::write(path(entry.key, ".tar.gz"), archive, &error) ||
        !PrivateFiles::write(path(entry.key, ".json"), QJsonDocument(toJson(entry)).toJson(), &error)) {
        return Error{QStringLiteral("Cannot keep the installed libraries in %1: %2").arg(m_folder, error)};
    }
    evict(entry.key);
    return {};
}

QList<LibraryCache::Entry> LibraryCache::entries() const
{
    QList<Entry> found;
    if (!isEnabled()) {
        return found;
    }
    const QStringList names = QDir(m_folder).entryList({QStringLiteral("*.json")}, QDir::Files);
    for (const QString &name : names) {
        const QString key = name.chopped(5);
        if (auto entry = readEntry(key, path(key, ".json")); entry && isKey(key)) {
            found << *entry;
        }
    }
    std::sort(found.begin(), found.end(), [](const Entry &a, const Entry &b) { return a.lastUsed > b.lastUsed; });
    return found;
}

bool LibraryCache::remove(const QString &key)
{
    // The description first: without it the archive is never used.
    const bool removed = QFile::remove(path(key, ".json"));
    QFile::remove(path(key, ".tar.gz"));
    return removed;
}

void LibraryCache::evict(const QString &keep)
{
    QList<Entry> all = entries();
    qint64 total = 0;
    for (const Entry &entry : all) {
        total += entry.archiveBytes;
    }
    // Oldest use first.
    for (auto it = all.crbegin(); it != all.crend() && total > m_capBytes; ++it) {
        if (it->key != keep && remove(it->key)) {
            total -= it->archiveBytes;
        }
    }
}

Result<qint64> LibraryCache::prune(const QStringList &only)
{
    qint64 freed = 0;
    for (const Entry &entry : entries()) {
        if ((only.isEmpty() || only.contains(entry.key) || only.contains(entry.language)) && remove(entry.key)) {
            freed += entry.archiveBytes;
        }
    }
    return freed;
}

} // namespace sandbox
