#include "KeptDirectory.h"

#include "Workspace.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace runner {

namespace {

constexpr int directoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
// What a record follows at most: the toolchain writes a flat tree (the Go cache is two levels deep).
constexpr int maxDepth = 16;
constexpr std::size_t maxEntries = 200000;

std::runtime_error failure(const std::string &what, const std::string &path, int error)
{
    return std::runtime_error(what + " '" + path + "': " + std::strerror(error));
}

std::string join(const std::string &prefix, const std::string &name)
{
    return prefix.empty() ? name : prefix + "/" + name;
}

struct DirectoryEntry final
{
    std::string name;
    unsigned char type; // DT_DIR, DT_LNK, DT_REG or another DT_ value
};

// What the directory open as `fd` holds, with each entry's type (from readdir, or lstat where it gives none). Takes
// the descriptor over and closes it.
std::vector<DirectoryEntry> listEntries(UniqueFd fd)
{
    const int descriptor = fd.get();
    DIR *stream = ::fdopendir(descriptor);
    if (!stream) {
        throw std::runtime_error(std::string("cannot read a directory: ") + std::strerror(errno));
    }
    fd.release();
    std::vector<DirectoryEntry> entries;
    while (const dirent *entry = ::readdir(stream)) {
        const std::string_view name = entry->d_name;
        if (name == "." || name == "..") {
            continue;
        }
        unsigned char type = entry->d_type;
        struct stat info
        {
        };
        if (type == DT_UNKNOWN && ::fstatat(descriptor, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0) {
            type = S_ISDIR(info.st_mode) ? DT_DIR : S_ISLNK(info.st_mode) ? DT_LNK : S_ISREG(info.st_mode) ? DT_REG : 0;
        }
        entries.push_back({std::string(name), type});
    }
    ::closedir(stream);
    return entries;
}

std::string readLink(int directory, const std::string &name)
{
    char buffer[4096];
    const ssize_t length = ::readlinkat(directory, name.c_str(), buffer, sizeof buffer);
    return length < 0 || std::size_t(length) == sizeof buffer ? std::string() : std::string(buffer, length);
}

// Copies up to `limit` bytes from `from` (at its offset `fromOffset`) to `to` (at `toOffset`); returns how many
// there were, or -1 (errno set) on an error. Stops at the end of `from`.
long long copyBytes(int from, off_t fromOffset, int to, off_t toOffset, std::uint64_t limit)
{
    char buffer[64 * 1024];
    std::uint64_t copied = 0;
    while (copied < limit) {
        const ssize_t got =
            ::pread(from, buffer, std::min<std::uint64_t>(sizeof buffer, limit - copied), fromOffset + off_t(copied));
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return got < 0 ? -1 : (long long)copied;
        }
        for (ssize_t done = 0; done < got;) {
            const ssize_t put = ::pwrite(to, buffer + done, std::size_t(got - done), toOffset + off_t(copied + done));
            if (put < 0 && errno != EINTR) {
                return -1;
            }
            done += std::max<ssize_t>(put, 0);
        }
        copied += std::uint64_t(got);
    }
    return (long long)copied;
}

// Calls visit(relative path, entry, parent descriptor) for everything below `directory`, parents first, without
// following symlinks; visit returns whether to go on. Goes `maxDepth` levels down at most.
template <typename Visit>
bool walk(int directory, const std::string &prefix, int depth, Visit &visit)
{
    UniqueFd listed(::openat(directory, ".", directoryFlags));
    if (!listed.valid()) {
        return true;
    }
    for (const DirectoryEntry &entry : listEntries(std::move(listed))) {
        const std::string path = join(prefix, entry.name);
        if (!visit(path, entry, directory)) {
            return false;
        }
        if (entry.type == DT_DIR && depth < maxDepth) {
            const UniqueFd child = openSubdirectory(directory, entry.name);
            if (child.valid() && !walk(child.get(), path, depth + 1, visit)) {
                return false;
            }
        }
    }
    return true;
}

} // namespace

KeptDirectory::KeptDirectory(std::string path, std::string seed, std::uint64_t maxBytes)
    : m_path(std::move(path)), m_seed(std::move(seed)), m_maxBytes(maxBytes)
{
    forgetRecord();
}

KeptDirectory::Entries KeptDirectory::seedEntries() const
{
    Entries entries;
    if (m_seed.empty()) {
        return entries;
    }
    const UniqueFd seed(::open(m_seed.c_str(), directoryFlags));
    if (!seed.valid()) {
        return entries; // an image without it: the directory starts empty
    }
    auto visit = [&](const std::string &path, const DirectoryEntry &entry, int) {
        if (entry.type == DT_DIR) {
            entries[path] = Entry{.kind = Entry::Kind::Directory, .mode = 0755};
        } else if (entry.type == DT_REG) {
            entries[path] = Entry{.kind = Entry::Kind::SeedLink};
        }
        return entries.size() < maxEntries;
    };
    walk(seed.get(), {}, 0, visit);
    return entries;
}

void KeptDirectory::forgetRecord()
{
    m_entries = seedEntries();
    m_contents.reset();
    m_recordedBytes = 0;
}

void KeptDirectory::record()
{
    const UniqueFd root(::open(m_path.c_str(), directoryFlags));
    if (!root.valid()) {
        if (errno != ENOENT) {
            throw failure("cannot open kept directory", m_path, errno);
        }
        m_entries.clear();
        m_contents.reset();
        m_recordedBytes = 0;
        return;
    }
    Entries entries;
    UniqueFd contents(::memfd_create("llm-sandbox-kept", MFD_CLOEXEC));
    if (!contents.valid()) {
        throw failure("cannot record kept directory", m_path, errno);
    }
    std::uint64_t total = 0;
    bool tooLarge = false;
    auto visit = [&](const std::string &path, const DirectoryEntry &entry, int parent) {
        const char *name = entry.name.c_str();
        struct stat info
        {
        };
        if (entry.type == DT_DIR && ::fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0) {
            entries[path] = Entry{.kind = Entry::Kind::Directory, .mode = mode_t(info.st_mode & 07777)};
        } else if (entry.type == DT_LNK) {
            // Only the toolchain ran since restore() made the recorded links, and it adds files: they are as recorded.
            if (const auto recorded = m_entries.find(path);
                recorded != m_entries.end() &&
                (recorded->second.kind == Entry::Kind::Link || recorded->second.kind == Entry::Kind::SeedLink)) {
                entries.insert(*recorded);
                return true;
            }
            std::string target = readLink(parent, entry.name);
            if (!m_seed.empty() && target == m_seed + "/" + path) {
                entries[path] = Entry{.kind = Entry::Kind::SeedLink};
            } else if (!target.empty()) {
                entries[path] = Entry{.kind = Entry::Kind::Link, .target = std::move(target)};
            }
        } else if (entry.type == DT_REG) {
            const UniqueFd file(::openat(parent, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
            // One byte more than the room left tells a file that does not fit.
            const long long size = file.valid() && ::fstat(file.get(), &info) == 0
                                       ? copyBytes(file.get(), 0, contents.get(), off_t(total), m_maxBytes - total + 1)
                                       : -1;
            if (size < 0) {
                throw failure("cannot record", m_path + "/" + path, errno);
            }
            if (total + std::uint64_t(size) > m_maxBytes) {
                tooLarge = true;
                return false;
            }
            entries[path] = Entry{.kind = Entry::Kind::File,
                                  .mode = mode_t(info.st_mode & 0777),
                                  .offset = total,
                                  .size = std::uint64_t(size)};
            total += std::uint64_t(size);
        }
        tooLarge = entries.size() > maxEntries;
        return !tooLarge;
    };
    walk(root.get(), {}, 0, visit);
    if (tooLarge) {
        // Too much to keep: the next run starts from the seed again.
        forgetRecord();
        return;
    }
    m_entries = std::move(entries);
    m_contents = std::move(contents);
    m_recordedBytes = total;
}

void KeptDirectory::restore()
{
    const std::size_t slash = m_path.rfind('/');
    if (slash > 0) {
        makeDirectories(m_path.substr(0, slash));
    }
    struct stat info
    {
    };
    if (::lstat(m_path.c_str(), &info) == 0 && !S_ISDIR(info.st_mode) && ::unlink(m_path.c_str()) != 0) {
        throw failure("cannot remove", m_path, errno);
    }
    if (::mkdir(m_path.c_str(), 0755) != 0 && errno != EEXIST) {
        throw failure("cannot create kept directory", m_path, errno);
    }
    ::chmod(m_path.c_str(), 0755);
    const UniqueFd root(::open(m_path.c_str(), directoryFlags));
    if (!root.valid()) {
        throw failure("cannot open kept directory", m_path, errno);
    }
    std::set<std::string> kept;
    sweep(root.get(), {}, kept);
    // In path order, so each directory exists before what it holds. No process but the runner is left to change
    // the tree now, and what sweep() kept of it is real directories and the recorded links.
    for (const auto &[path, entry] : m_entries) {
        if (!kept.contains(path)) {
            create(root.get(), path, entry);
        }
    }
}

void KeptDirectory::sweep(int directory, const std::string &prefix, std::set<std::string> &kept) const
{
    UniqueFd listed(::openat(directory, ".", directoryFlags));
    if (!listed.valid()) {
        throw failure("cannot open", m_path + "/" + prefix, errno);
    }
    for (const DirectoryEntry &found : listEntries(std::move(listed))) {
        const char *name = found.name.c_str();
        const std::string path = join(prefix, found.name);
        const auto recorded = m_entries.find(path);
        if (recorded != m_entries.end()) {
            const Entry &entry = recorded->second;
            if (entry.kind == Entry::Kind::Directory && found.type == DT_DIR) {
                const UniqueFd child = openSubdirectory(directory, found.name);
                if (!child.valid()) {
                    throw failure("cannot open", m_path + "/" + path, errno);
                }
                ::fchmod(child.get(), entry.mode);
                sweep(child.get(), path, kept);
                kept.insert(path);
                continue;
            }
            if (found.type == DT_LNK &&
                ((entry.kind == Entry::Kind::Link && readLink(directory, found.name) == entry.target) ||
                 (entry.kind == Entry::Kind::SeedLink && readLink(directory, found.name) == m_seed + "/" + path))) {
                kept.insert(path);
                continue;
            }
        }
        if (found.type == DT_DIR) {
            const UniqueFd child = openSubdirectory(directory, found.name);
            if (!child.valid()) {
                throw failure("cannot open", m_path + "/" + path, errno);
            }
            ::fchmod(child.get(), 0700);
            removeDirectoryContents(child.get(), m_path + "/" + path);
        }
        if (::unlinkat(directory, name, found.type == DT_DIR ? AT_REMOVEDIR : 0) != 0 && errno != ENOENT) {
            throw failure("cannot remove", m_path + "/" + path, errno);
        }
    }
}

void KeptDirectory::create(int root, const std::string &path, const Entry &entry) const
{
    const std::string fullPath = m_path + "/" + path;
    switch (entry.kind) {
    case Entry::Kind::Directory:
        if (::mkdirat(root, path.c_str(), entry.mode) != 0 || ::fchmodat(root, path.c_str(), entry.mode, 0) != 0) {
            throw failure("cannot create", fullPath, errno);
        }
        return;
    case Entry::Kind::Link:
    case Entry::Kind::SeedLink: {
        const std::string target = entry.kind == Entry::Kind::Link ? entry.target : m_seed + "/" + path;
        if (::symlinkat(target.c_str(), root, path.c_str()) != 0) {
            throw failure("cannot create", fullPath, errno);
        }
        return;
    }
    case Entry::Kind::File: {
        const UniqueFd file(::openat(root, path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (!file.valid() ||
            copyBytes(m_contents.get(), off_t(entry.offset), file.get(), 0, entry.size) != (long long)entry.size ||
            ::fchmod(file.get(), entry.mode) != 0) {
            throw failure("cannot write", fullPath, errno);
        }
        return;
    }
    }
}

} // namespace runner
