#include "ResultDirectory.h"

#include "Artifacts.h"
#include "Workspace.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <stdexcept>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace runner {

namespace {

constexpr int directoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
constexpr int maxDepth = 16;
constexpr std::size_t maxEntries = 200000;
// Every change to the directory's own entries and to itself.
constexpr std::uint32_t watchedChanges = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_ATTRIB |
                                         IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF;

std::string joinPath(const std::string &directory, const std::string &name)
{
    std::string path = directory;
    path += '/';
    path += name;
    return path;
}

std::runtime_error failure(const std::string &what, const std::string &path, int error)
{
    return std::runtime_error(what + " '" + path + "': " + std::strerror(error));
}

struct Entry final
{
    timespec modified;
    std::string name;
    std::string type;
    std::uint64_t size;
};

// The names in the directory open as `directory` (not "." and ".."), with their types where the file system says.
std::vector<std::pair<std::string, unsigned char>> listDirectory(int directory)
{
    std::vector<std::pair<std::string, unsigned char>> names;
    const int copy = ::dup(directory);
    DIR *stream = copy >= 0 ? ::fdopendir(copy) : nullptr;
    if (!stream) {
        if (copy >= 0) {
            ::close(copy);
        }
        return names;
    }
    while (const dirent *entry = ::readdir(stream)) {
        const std::string_view name = entry->d_name;
        if (name != "." && name != ".." && names.size() < maxEntries) {
            names.emplace_back(name, entry->d_type);
        }
    }
    ::closedir(stream);
    return names;
}

std::string linkTarget(int directory, const std::string &name)
{
    std::string target(4096, '\0');
    const ssize_t length = ::readlinkat(directory, name.c_str(), target.data(), target.size());
    target.resize(length > 0 ? std::size_t(length) : 0);
    return target;
}

const char *typeOf(mode_t mode)
{
    if (S_ISREG(mode)) {
        return "file";
    }
    if (S_ISLNK(mode)) {
        return "symlink";
    }
    if (S_ISFIFO(mode)) {
        return "fifo";
    }
    if (S_ISSOCK(mode)) {
        return "socket";
    }
    return "device";
}

// Everything below `directory` but its folders and, at the top, the seed's own links (`seed`/NAME at NAME).
void walk(int directory, const std::string &prefix, const std::string &seed, int depth, std::vector<Entry> &entries)
{
    for (const auto &[name, type] : listDirectory(directory)) {
        struct stat info
        {
        };
        if (entries.size() >= maxEntries || ::fstatat(directory, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
            continue;
        }
        const std::string path = prefix + name;
        if (S_ISDIR(info.st_mode)) {
            const UniqueFd child(::openat(directory, name.c_str(), directoryFlags));
            if (child.valid() && depth < maxDepth) {
                walk(child.get(), path + "/", seed, depth + 1, entries);
            }
        } else if (!S_ISLNK(info.st_mode) || depth > 0 || linkTarget(directory, name) != joinPath(seed, name)) {
            entries.push_back({info.st_mtim, path, typeOf(info.st_mode),
                               S_ISREG(info.st_mode) ? static_cast<std::uint64_t>(info.st_size) : 0});
        }
    }
}

} // namespace

ResultDirectory::ResultDirectory(std::string path, std::string seed)
    : m_path(std::move(path)), m_seed(std::move(seed)), m_inotify(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC))
{}

bool ResultDirectory::changed()
{
    if (!m_watching) {
        m_watching = m_inotify.valid() && ::inotify_add_watch(m_inotify.get(), m_path.c_str(), watchedChanges) >= 0;
        m_dirty = true; // nothing watched it before
    }
    if (!m_watching) {
        return true;
    }
    alignas(inotify_event) char buffer[4096];
    while (true) {
        const ssize_t count = ::read(m_inotify.get(), buffer, sizeof buffer);
        if (count > 0) {
            m_dirty = true; // an event, or IN_Q_OVERFLOW: either way something changed
            continue;
        }
        if (count < 0 && errno == EINTR) {
            continue;
        }
        break; // EAGAIN: read them all
    }
    return m_dirty;
}

void ResultDirectory::restore()
{
    std::set<std::string> seedNames;
    if (const UniqueFd seed(::open(m_seed.c_str(), directoryFlags)); seed.valid()) {
        for (const auto &[name, type] : listDirectory(seed.get())) {
            seedNames.insert(name);
        }
    }
    if (!changed() && seedNames == m_seedNames) {
        return;
    }
    // The code may have taken its own permissions away from the directory.
    ::chmod(m_path.c_str(), 0755);
    const UniqueFd root(::open(m_path.c_str(), directoryFlags));
    if (!root.valid()) {
        throw failure("cannot open the result directory", m_path, errno);
    }
    std::set<std::string> kept;
    for (const auto &[name, type] : listDirectory(root.get())) {
        if (seedNames.contains(name) && type != DT_DIR && linkTarget(root.get(), name) == joinPath(m_seed, name)) {
            kept.insert(name);
            continue;
        }
        struct stat info
        {
        };
        if (::fstatat(root.get(), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(info.st_mode)) {
            const UniqueFd child = openSubdirectory(root.get(), name);
            if (!child.valid()) {
                throw failure("cannot open", joinPath(m_path, name), errno);
            }
            removeDirectoryContents(child.get(), joinPath(m_path, name));
        }
        if (::unlinkat(root.get(), name.c_str(), S_ISDIR(info.st_mode) ? AT_REMOVEDIR : 0) != 0 && errno != ENOENT) {
            throw failure("cannot remove", joinPath(m_path, name), errno);
        }
    }
    for (const std::string &name : seedNames) {
        if (!kept.contains(name) && ::symlinkat(joinPath(m_seed, name).c_str(), root.get(), name.c_str()) != 0) {
            throw failure("cannot create", joinPath(m_path, name), errno);
        }
    }
    // What this restore changed is no change of a run's. Every process of the previous run is gone by now (a
    // session's interpreter is interrupted and idle), so nothing else changes it meanwhile.
    changed();
    m_dirty = false;
    m_seedNames = std::move(seedNames);
}

void ResultDirectory::collect(std::uint64_t maxFiles, std::uint64_t maxFileBytes, const Sink &sink)
{
    if (!changed()) {
        return;
    }
    const UniqueFd root(::open(m_path.c_str(), directoryFlags));
    if (!root.valid()) {
        return;
    }
    std::vector<Entry> entries;
    walk(root.get(), {}, m_seed, 0, entries);
    std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        return std::tie(a.modified.tv_sec, a.modified.tv_nsec, a.name) <
               std::tie(b.modified.tv_sec, b.modified.tv_nsec, b.name);
    });
    std::uint64_t read = 0;
    std::string data;
    for (const Entry &entry : entries) {
        File file{entry.name, entry.type, entry.size, nullptr};
        // Only the directory's own files: a result is saved under its plain name, and no level is there to follow.
        if (entry.type == "file" && entry.name.find('/') == std::string::npos && read < maxFiles &&
            entry.size <= maxFileBytes && readRegularFile(root.get(), entry.name, maxFileBytes, data)) {
            ++read;
            file.size = data.size();
            file.data = &data;
        }
        sink(file);
    }
}

} // namespace runner
