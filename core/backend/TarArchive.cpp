#include "backend/TarArchive.h"

#include <QSet>
#include <archive.h>
#include <archive_entry.h>
#include <memory>

namespace sandbox::TarArchive {

namespace {

struct WriteDeleter
{
    void operator()(archive *a) const { archive_write_free(a); }
};
struct ReadDeleter
{
    void operator()(archive *a) const { archive_read_free(a); }
};
struct EntryDeleter
{
    void operator()(archive_entry *e) const { archive_entry_free(e); }
};
using WriteArchive = std::unique_ptr<archive, WriteDeleter>;
using ReadArchive = std::unique_ptr<archive, ReadDeleter>;
using Entry = std::unique_ptr<archive_entry, EntryDeleter>;

Error archiveError(archive *a, const QString &what)
{
    return Error{QStringLiteral("%1: %2").arg(
        what, QString::fromUtf8(archive_error_string(a) ? archive_error_string(a) : "unknown error"))};
}

la_ssize_t appendToByteArray(archive *, void *clientData, const void *buffer, size_t length)
{
    static_cast<QByteArray *>(clientData)->append(static_cast<const char *>(buffer), qsizetype(length));
    return la_ssize_t(length);
}

bool isSafeRelativePath(const QString &path)
{
    if (path.isEmpty() || path.startsWith(QLatin1Char('/'))) {
        return false;
    }
    const auto parts = path.split(QLatin1Char('/'));
    return !parts.contains(QStringLiteral("..")) && !parts.contains(QString());
}

} // namespace

Result<QByteArray> fromFiles(const QList<FileEntry> &files)
{
    QByteArray out;
    WriteArchive writer(archive_write_new());
    archive_write_set_format_pax_restricted(writer.get());
    archive_write_set_bytes_in_last_block(writer.get(), 1);
    if (archive_write_open(writer.get(), &out, nullptr, appendToByteArray, nullptr) != ARCHIVE_OK) {
        return archiveError(writer.get(), QStringLiteral("Could not create a tar archive"));
    }
    QSet<QString> directories;
    for (const FileEntry &file : files) {
        if (!isSafeRelativePath(file.path)) {
            return Error{QStringLiteral("Refusing file path \"%1\": it must be relative and stay inside its folder.")
                             .arg(file.path)};
        }
        QStringList parents = file.path.split(QLatin1Char('/'));
        parents.removeLast();
        QString parent;
        for (const QString &part : parents) {
            parent = parent.isEmpty() ? part : parent + QLatin1Char('/') + part;
            if (directories.contains(parent)) {
                continue;
            }
            directories.insert(parent);
            Entry dir(archive_entry_new());
            archive_entry_set_pathname(dir.get(), (parent + QLatin1Char('/')).toUtf8().constData());
            archive_entry_set_filetype(dir.get(), AE_IFDIR);
            archive_entry_set_perm(dir.get(), 0755);
            if (archive_write_header(writer.get(), dir.get()) != ARCHIVE_OK) {
                return archiveError(writer.get(), QStringLiteral("Could not write a tar entry"));
            }
        }
        Entry entry(archive_entry_new());
        archive_entry_set_pathname(entry.get(), file.path.toUtf8().constData());
        archive_entry_set_filetype(entry.get(), AE_IFREG);
        archive_entry_set_perm(entry.get(), mode_t(file.mode));
        archive_entry_set_size(entry.get(), file.data.size());
        if (archive_write_header(writer.get(), entry.get()) != ARCHIVE_OK ||
            archive_write_data(writer.get(), file.data.constData(), size_t(file.data.size())) < 0) {
            return archiveError(writer.get(), QStringLiteral("Could not write a tar entry"));
        }
    }
    if (archive_write_close(writer.get()) != ARCHIVE_OK) {
        return archiveError(writer.get(), QStringLiteral("Could not finish a tar archive"));
    }
    return out;
}

Result<void> writeDirectory(const QString &directory, const QString &tarPath)
{
    WriteArchive writer(archive_write_new());
    archive_write_set_format_pax_restricted(writer.get());
    if (archive_write_open_filename(writer.get(), tarPath.toLocal8Bit().constData()) != ARCHIVE_OK) {
        return archiveError(writer.get(), QStringLiteral("Could not create %1").arg(tarPath));
    }
    ReadArchive disk(archive_read_disk_new());
    // Store symlinks as links, keep numeric owners (no lookups of the host's user names).
    archive_read_disk_set_symlink_physical(disk.get());
    archive_read_disk_set_standard_lookup(disk.get());
    if (archive_read_disk_open(disk.get(), directory.toLocal8Bit().constData()) != ARCHIVE_OK) {
        return archiveError(disk.get(), QStringLiteral("Could not read %1").arg(directory));
    }
    const QByteArray prefix = directory.toLocal8Bit();
    for (;;) {
        Entry entry(archive_entry_new());
        const int status = archive_read_next_header2(disk.get(), entry.get());
        if (status == ARCHIVE_EOF) {
            break;
        }
        if (status != ARCHIVE_OK && status != ARCHIVE_WARN) {
            return archiveError(disk.get(), QStringLiteral("Could not read %1").arg(directory));
        }
        archive_read_disk_descend(disk.get());
        // Entries are named relative to the tree's root ("./usr/bin/...").
        QByteArray name = archive_entry_pathname(entry.get());
        name = "." + name.mid(prefix.size());
        if (name == ".") {
            name = "./";
        }
        archive_entry_set_pathname(entry.get(), name.constData());
        archive_entry_set_uname(entry.get(), nullptr);
        archive_entry_set_gname(entry.get(), nullptr);
        if (archive_write_header(writer.get(), entry.get()) != ARCHIVE_OK) {
            return archiveError(writer.get(), QStringLiteral("Could not write %1").arg(tarPath));
        }
        if (archive_entry_filetype(entry.get()) == AE_IFREG && archive_entry_size(entry.get()) > 0) {
            char buffer[64 * 1024];
            la_ssize_t got;
            while ((got = archive_read_data(disk.get(), buffer, sizeof buffer)) > 0) {
                if (archive_write_data(writer.get(), buffer, size_t(got)) < 0) {
                    return archiveError(writer.get(), QStringLiteral("Could not write %1").arg(tarPath));
                }
            }
            if (got < 0) {
                return archiveError(disk.get(), QStringLiteral("Could not read %1").arg(directory));
            }
        }
    }
    if (archive_write_close(writer.get()) != ARCHIVE_OK) {
        return archiveError(writer.get(), QStringLiteral("Could not finish %1").arg(tarPath));
    }
    return {};
}

} // namespace sandbox::TarArchive
