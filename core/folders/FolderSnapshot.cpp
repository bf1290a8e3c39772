#include "folders/FolderSnapshot.h"

#include "util/FileDescriptor.h"
#include "util/PrivateFiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QSaveFile>
#include <QScopeGuard>
#include <QSet>
#include <QStandardPaths>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <optional>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbox {

namespace {

/// A regular file of the folder, as the walk found it.
struct Entry
{
    QString path; ///< relative, '/'-separated
    bool directory = false;
    qint64 size = 0;
    timespec modified{};
    ino_t inode = 0;
};

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

/// Where a walk puts the inotify watches of the folders it reads (each one watched before it is read, so that no
/// change made while it is read goes unseen); `watched` turns false when one cannot be watched.
struct WatchSink
{
    int inotify = -1;
    QList<int> descriptors;
    bool watched = true;
};

constexpr uint32_t kWatchedChanges = IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO |
                                     IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;

/// Walks the folder open at `directory` (on device `device`), adding what a sandbox may see to `entries` and the rest
/// to `skipped`; fails when a limit is passed or a folder cannot be read.
Result<void> walk(int directory, const QString &prefix, dev_t device, const FolderSnapshot::Limits &limits,
                  QList<Entry> &entries, qint64 &files, qint64 &bytes, QList<FolderSnapshot::Skipped> &skipped,
                  WatchSink *watches = nullptr)
{
    if (watches && watches->watched) {
        const QByteArray self = "/proc/self/fd/" + QByteArray::number(directory);
        const int watch =
            watches->inotify >= 0 ? ::inotify_add_watch(watches->inotify, self.constData(), kWatchedChanges) : -1;
        watch >= 0 ? watches->descriptors.append(watch) : void(watches->watched = false);
    }
    const int listed = ::dup(directory);
    DIR *stream = listed >= 0 ? ::fdopendir(listed) : nullptr;
    if (!stream) {
        if (listed >= 0) {
            ::close(listed);
        }
        return Error{QStringLiteral("Could not read the shared folder's %1: %2")
                         .arg(prefix.isEmpty() ? QStringLiteral("top folder") : prefix, errnoText(errno))};
    }
    std::unique_ptr<DIR, int (*)(DIR *)> closer(stream, ::closedir);
    QList<QByteArray> names;
    while (const dirent *item = ::readdir(stream)) {
        const QByteArray name(item->d_name);
        if (name != "." && name != "..") {
            names << name;
        }
    }
    std::sort(names.begin(), names.end());
    for (const QByteArray &name : names) {
        const QString path = prefix + QString::fromLocal8Bit(name);
        struct stat info
        {
        };
        if (::fstatat(directory, name.constData(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
            skipped << FolderSnapshot::Skipped{path, QStringLiteral("gone while it was read")};
            continue;
        }
        if (S_ISLNK(info.st_mode)) {
            skipped << FolderSnapshot::Skipped{path, QStringLiteral("a symbolic link")};
        } else if (info.st_dev != device) {
            skipped << FolderSnapshot::Skipped{path, QStringLiteral("on another file system mounted in the folder")};
        } else if (S_ISDIR(info.st_mode)) {
            FileDescriptor child(
                ::openat(directory, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            if (!child) {
                skipped << FolderSnapshot::Skipped{path, QStringLiteral("a folder llm-sandbox cannot read")};
                continue;
            }
            entries << Entry{path, true, 0, {}, info.st_ino};
            if (auto walked =
                    walk(child.get(), path + QLatin1Char('/'), device, limits, entries, files, bytes, skipped, watches);
                !walked) {
                return walked;
            }
        } else if (!S_ISREG(info.st_mode)) {
            skipped << FolderSnapshot::Skipped{path, QStringLiteral("not a regular file (a FIFO, socket or device)")};
        } else if (info.st_nlink > 1) {
            skipped << FolderSnapshot::Skipped{
                path, QStringLiteral("a hard link (its other names may be outside the folder)")};
        } else {
            entries << Entry{path, false, info.st_size, info.st_mtim, info.st_ino};
            bytes += info.st_size;
            if (++files > limits.maxFiles) {
                return Error{QStringLiteral("The shared folder has more than %1 files, the most a sandbox is given")
                                 .arg(limits.maxFiles),
                             ErrorCode::LimitReached};
            }
            if (bytes > limits.maxBytes) {
                return Error{QStringLiteral("The shared folder holds more than %1 MiB, the most a sandbox is given")
                                 .arg(limits.maxBytes / (1024 * 1024)),
                             ErrorCode::LimitReached};
            }
        }
    }
    return {};
}

/// This process's watches on the shared folders it keeps copies of: a copy whose folder has not changed since its last
/// update needs no walk (a walk of 10,000 files takes a fifth of a second, a run through the pool a twentieth). One
/// inotify instance for all of them (a user has 128); a change, or an overflowed queue, marks a copy to walk again.
class Watches
{
public:
    static Watches &instance()
    {
        static Watches watches;
        return watches;
    }

    std::mutex mutex; ///< held by update() throughout

    /// The report of `view`'s last update, when nothing changed since (with mutex held).
    std::optional<FolderSnapshot::Report> unchanged(const QString &view)
    {
        drain();
        const auto found = m_views.find(view);
        if (found == m_views.end() || found->second.changed || !QFileInfo(found->second.report.view).isDir()) {
            return std::nullopt;
        }
        FolderSnapshot::Report report = found->second.report;
        report.copied = 0;
        return report;
    }
    /// A sink for the walk of `view`'s folder (its earlier watches dropped).
    WatchSink start(const QString &view)
    {
        forget(view);
        if (m_inotify < 0) {
            m_inotify = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        }
        return WatchSink{m_inotify, {}, m_inotify >= 0};
    }
    /// `view` is up to date as `report` says, watched by `sink`'s watches.
    void keep(const QString &view, const FolderSnapshot::Report &report, const WatchSink &sink)
    {
        if (!sink.watched) {
            for (int watch : sink.descriptors) {
                release(watch, QString());
            }
            return;
        }
        for (int watch : sink.descriptors) {
            m_owners[watch].insert(view);
        }
        m_views[view] = View{report, false, sink.descriptors};
    }

private:
    struct View
    {
        FolderSnapshot::Report report;
        bool changed = false;
        QList<int> watches;
    };

    void drain()
    {
        if (m_inotify < 0) {
            return;
        }
        alignas(inotify_event) char buffer[16 * 1024];
        for (;;) {
            const ssize_t length = ::read(m_inotify, buffer, sizeof buffer);
            if (length <= 0) {
                return;
            }
            for (ssize_t at = 0; at < length;) {
                const auto *event = reinterpret_cast<const inotify_event *>(buffer + at);
                if (event->mask & IN_Q_OVERFLOW) {
                    for (auto &view : m_views) {
                        view.second.changed = true;
                    }
                } else if (const auto owners = m_owners.find(event->wd); owners != m_owners.end()) {
                    for (const QString &view : owners->second) {
                        m_views[view].changed = true;
                    }
                    if (event->mask & IN_IGNORED) {
                        m_owners.erase(owners);
                    }
                }
                at += qsizetype(sizeof(inotify_event)) + event->len;
            }
        }
    }
    void forget(const QString &view)
    {
        const auto found = m_views.find(view);
        if (found == m_views.end()) {
            return;
        }
        for (int watch : found->second.watches) {
            release(watch, view);
        }
        m_views.erase(found);
    }
    /// Drops `view` from `watch`'s owners, and the watch when it has none left.
    void release(int watch, const QString &view)
    {
        auto owners = m_owners.find(watch);
        if (owners != m_owners.end()) {
            owners->second.remove(view);
            if (!owners->second.isEmpty()) {
                return;
            }
            m_owners.erase(owners);
        }
        ::inotify_rm_watch(m_inotify, watch);
    }

    int m_inotify = -1;
    std::map<QString, View> m_views;
    std::map<int, QSet<QString>> m_owners;
};

/// Opens the regular file at `path` under `root`, following no link and leaving no file system, and checks it is
/// still the file the walk found.
/// A shared folder as a walk found it.
struct Walked
{
    FileDescriptor source; ///< the folder, opened without following a link
    dev_t device = 0;      ///< its file system: what lies on another is left out
    QList<Entry> entries;
    qint64 files = 0;
    qint64 bytes = 0;
    QList<FolderSnapshot::Skipped> skipped;
};

Result<Walked> walkFolder(const SharedFolder &folder, const FolderSnapshot::Limits &limits,
                          WatchSink *watches = nullptr)
{
    Walked walked;
    walked.source = FileDescriptor(
        ::open(QFile::encodeName(folder.path).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    struct stat sourceInfo
    {
    };
    if (!walked.source || ::fstat(walked.source.get(), &sourceInfo) != 0) {
        return Error{QStringLiteral("The shared folder \"%1\" cannot be read: %2").arg(folder.name, errnoText(errno)),
                     ErrorCode::NotFound};
    }
    walked.device = sourceInfo.st_dev;
    if (auto done = walk(walked.source.get(), QString(), walked.device, limits, walked.entries, walked.files,
                         walked.bytes, walked.skipped, watches);
        !done) {
        return done.error();
    }
    return walked;
}

FileDescriptor openBeneath(int root, const QString &path, const Entry &entry, dev_t device)
{
    const QStringList parts = path.split(QLatin1Char('/'));
    FileDescriptor directory(::dup(root));
    for (qsizetype i = 0; directory && i + 1 < parts.size(); ++i) {
        directory = FileDescriptor(::openat(directory.get(), parts[i].toLocal8Bit().constData(),
                                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    }
    if (!directory) {
        return FileDescriptor();
    }
    FileDescriptor file(::openat(directory.get(), parts.last().toLocal8Bit().constData(),
                                 O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    struct stat info
    {
    };
    if (!file || ::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode) || info.st_nlink != 1 ||
        info.st_dev != device || info.st_ino != entry.inode) {
        return FileDescriptor();
    }
    return file;
}

/// Copies `from` (at its start) to a new file at `to`, 0644, with `modified` as its modification time, replacing what
/// is there.
Result<void> copyFile(int from, const QString &to, const timespec &modified)
{
    const QString partial = QFileInfo(to).path() + QStringLiteral("/.~llm-sandbox-partial");
    const QByteArray partialPath = QFile::encodeName(partial);
    ::unlink(partialPath.constData());
    FileDescriptor target(::open(partialPath.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!target) {
        return Error{
            QStringLiteral("Could not write the copy of a shared file at %1: %2").arg(partial, errnoText(errno))};
    }
    for (;;) {
        const ssize_t copied = ::copy_file_range(from, nullptr, target.get(), nullptr, 1 << 30, 0);
        if (copied == 0) {
            break;
        }
        if (copied < 0) {
            if (errno == EINTR) {
                continue;
            }
            const int error = errno;
            ::unlink(partialPath.constData());
            return Error{QStringLiteral("Could not copy a shared file to %1: %2").arg(to, errnoText(error))};
        }
    }
    const timespec times[2] = {{0, UTIME_OMIT}, modified};
    ::fchmod(target.get(), 0644);
    ::futimens(target.get(), times);
    if (::rename(partialPath.constData(), QFile::encodeName(to).constData()) != 0) {
        const int error = errno;
        ::unlink(partialPath.constData());
        return Error{QStringLiteral("Could not put the copy of a shared file at %1: %2").arg(to, errnoText(error))};
    }
    return {};
}

/// The copy's version kept in `path` (beside its lock, held): one more when `changed`.
qint64 nextVersion(const QString &path, bool changed)
{
    QFile file(path);
    qint64 version = 0;
    if (file.open(QIODevice::ReadOnly)) {
        version = file.readAll().trimmed().toLongLong();
        file.close();
    }
    if (changed || !file.exists()) {
        ++version;
        QSaveFile saved(path);
        if (saved.open(QIODevice::WriteOnly)) {
            saved.write(QByteArray::number(version));
            saved.commit();
        }
    }
    return version;
}

} // namespace

Result<QList<FolderSnapshot::File>> FolderSnapshot::list(const SharedFolder &folder, const Limits &limits,
                                                         QList<Skipped> *skipped)
{
    auto walked = walkFolder(folder, limits);
    if (!walked) {
        return walked.error();
    }
    if (skipped) {
        *skipped = walked->skipped;
    }
    QList<File> listed;
    for (const Entry &entry : std::as_const(walked->entries)) {
        if (!entry.directory) {
            listed << File{entry.path, entry.size};
        }
    }
    return listed;
}

QString FolderSnapshot::root()
{
    // Not under the home folder: a sandbox can read its mounts' paths (/proc/self/mountinfo), and a path there names
    // the user. makeView() refuses a folder here that is not the user's alone.
    return QStringLiteral("/var/tmp/llm-sandbox-%1/shared").arg(::getuid());
}

QString FolderSnapshot::viewOf(const SharedFolder &folder, const QString &root)
{
    const QByteArray hash = QCryptographicHash::hash(folder.path.toUtf8(), QCryptographicHash::Sha256).toHex();
    return root + QLatin1Char('/') + folder.name + QLatin1Char('-') + QString::fromLatin1(hash.left(16));
}

QString FolderSnapshot::makeView(const SharedFolder &folder, const QString &root)
{
    QString view = viewOf(folder, root);
    if (!PrivateFiles::makeDirectory(root)) {
        return {};
    }
    // Made by this user, for this user alone: in a shared /var/tmp another user could have made it first.
    for (const QString &path : {QFileInfo(root).path(), root}) {
        struct stat info
        {
        };
        if (::lstat(QFile::encodeName(path).constData(), &info) != 0 || !S_ISDIR(info.st_mode) ||
            info.st_uid != ::getuid() || (info.st_mode & 077) != 0) {
            return {};
        }
    }
    if (!QFileInfo(view).isDir() && !QDir().mkdir(view)) {
        return {};
    }
    // Readable by the sandbox's own uid; no one else on the host gets past root()'s 0700.
    ::chmod(QFile::encodeName(view).constData(), 0755);
    return view;
}

Result<FolderSnapshot::Report> FolderSnapshot::update(const SharedFolder &folder, const Limits &limits,
                                                      const QString &root)
{
    Watches &watches = Watches::instance();
    const std::lock_guard watching(watches.mutex);
    const QString viewPath = viewOf(folder, root);
    if (auto unchanged = watches.unchanged(viewPath)) {
        return *unchanged;
    }
    WatchSink sink = watches.start(viewPath);
    bool watched = false;
    const auto dropWatches = qScopeGuard([&] {
        if (!watched) {
            watches.keep(viewPath, {}, WatchSink{sink.inotify, sink.descriptors, false});
        }
    });
    auto walked = walkFolder(folder, limits, &sink);
    if (!walked) {
        return walked.error();
    }
    const FileDescriptor &source = walked->source;
    const QList<Entry> &entries = walked->entries;
    Report report;
    report.bytes = walked->bytes;
    report.skipped = walked->skipped;

    report.view = makeView(folder, root);
    if (report.view.isEmpty()) {
        return Error{QStringLiteral(
                         "Could not make the copy of the shared folder \"%1\" in %2 (it must be a folder of the user's "
                         "that no one else can open)")
                         .arg(folder.name, root)};
    }
    const QDir view(report.view);
    FileDescriptor lock(::open(QFile::encodeName(report.view + QStringLiteral(".lock")).constData(),
                               O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!lock || ::flock(lock.get(), LOCK_EX) != 0) {
        return Error{QStringLiteral("Could not lock the copy of the shared folder \"%1\": %2")
                         .arg(folder.name, errnoText(errno))};
    }

    // What the folder no longer has, or has as another kind of entry, goes first.
    QHash<QString, bool> kept; // relative path -> is a folder
    for (const Entry &entry : entries) {
        kept.insert(entry.path, entry.directory);
    }
    QStringList stale;
    for (QDirIterator it(report.view, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                         QDirIterator::Subdirectories);
         it.hasNext();) {
        const QFileInfo info(it.next());
        const QString relative = view.relativeFilePath(info.filePath());
        const auto found = kept.constFind(relative);
        if (found == kept.cend() || *found != info.isDir() || info.isSymLink()) {
            stale << info.filePath();
        }
    }
    bool changed = !stale.isEmpty();
    // Deepest first, so a folder's entries go before the folder.
    std::sort(stale.begin(), stale.end(), [](const QString &a, const QString &b) { return a.size() > b.size(); });
    for (const QString &path : stale) {
        QFileInfo(path).isDir() && !QFileInfo(path).isSymLink() ? QDir(path).removeRecursively() : QFile::remove(path);
    }

    for (const Entry &entry : entries) {
        const QString target = view.filePath(entry.path);
        if (entry.directory) {
            if (!QFileInfo(target).isDir()) {
                if (!QDir().mkdir(target)) {
                    return Error{
                        QStringLiteral("Could not make the folder %1 of the copy of a shared folder").arg(target)};
                }
                changed = true;
            }
            ::chmod(QFile::encodeName(target).constData(), 0755);
            continue;
        }
        ++report.files;
        struct stat copy
        {
        };
        if (::lstat(QFile::encodeName(target).constData(), &copy) == 0 && S_ISREG(copy.st_mode) &&
            copy.st_size == entry.size && copy.st_mtim.tv_sec == entry.modified.tv_sec &&
            copy.st_mtim.tv_nsec == entry.modified.tv_nsec) {
            continue;
        }
        FileDescriptor file = openBeneath(source.get(), entry.path, entry, walked->device);
        if (!file) {
            report.skipped << Skipped{entry.path, QStringLiteral("changed while it was read")};
            --report.files;
            report.bytes -= entry.size;
            changed = QFile::remove(target) || changed;
            continue;
        }
        if (auto copied = copyFile(file.get(), target, entry.modified); !copied) {
            return copied.error();
        }
        ++report.copied;
    }
    report.version = nextVersion(report.view + QStringLiteral(".version"), changed || report.copied > 0);
    watches.keep(viewPath, report, sink);
    watched = true;
    return report;
}

} // namespace sandbox
