#include "Workspace.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace runner {

namespace {

constexpr int directoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

std::runtime_error failure(const std::string &what, const std::string &path, int error)
{
    return std::runtime_error(what + " '" + path + "': " + std::strerror(error));
}

std::string joinPath(const std::string &directory, const std::string &name)
{
    return directory.ends_with('/') ? directory + name : directory + "/" + name;
}

void writeAll(int fd, std::string_view data, const std::string &path)
{
    while (!data.empty()) {
        const ssize_t written = ::write(fd, data.data(), data.size());
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw failure("cannot write", path, errno);
        }
        data.remove_prefix(static_cast<std::size_t>(written));
    }
}

std::vector<std::string> listNames(int directory)
{
    const int copy = ::dup(directory);
    if (copy < 0) {
        throw std::runtime_error(std::string("cannot duplicate a descriptor: ") + std::strerror(errno));
    }
    DIR *stream = ::fdopendir(copy);
    if (!stream) {
        const int error = errno;
        ::close(copy);
        throw std::runtime_error(std::string("cannot read a directory: ") + std::strerror(error));
    }
    // fdopendir() shares the file offset with `directory`; start from the beginning in case it was read before.
    ::rewinddir(stream);
    std::vector<std::string> names;
    while (const dirent *entry = ::readdir(stream)) {
        const std::string_view name = entry->d_name;
        if (name != "." && name != "..") {
            names.emplace_back(name);
        }
    }
    ::closedir(stream);
    return names;
}

} // namespace

UniqueFd openSubdirectory(int parent, const std::string &name)
{
    UniqueFd fd(::openat(parent, name.c_str(), directoryFlags));
    if (!fd.valid() && errno == EACCES && ::fchmodat(parent, name.c_str(), 0700, 0) == 0) {
        fd.reset(::openat(parent, name.c_str(), directoryFlags));
    }
    return fd;
}

void makeDirectories(const std::string &path)
{
    std::size_t position = 0;
    while (position != std::string::npos) {
        position = path.find('/', position + 1);
        const std::string prefix = path.substr(0, position);
        if (prefix.empty() || prefix.ends_with('/')) {
            continue;
        }
        if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
            throw failure("cannot create directory", prefix, errno);
        }
    }
    struct stat info
    {
    };
    if (::stat(path.c_str(), &info) != 0) {
        throw failure("cannot access", path, errno);
    }
    if (!S_ISDIR(info.st_mode)) {
        throw failure("cannot use", path, ENOTDIR);
    }
}

void removeDirectoryContents(int directory, const std::string &displayPath, const std::vector<std::string> &keepNames)
{
    // Depth-first without recursion, holding one descriptor below `directory` at a time: a previous run may have
    // left a tree nested deeper than the descriptor limit or the stack would allow, to make every later run in a
    // pooled container fail. Each level keeps only its entry names; the way back up is "..", checked to be the
    // directory we came down from.
    struct Level final
    {
        std::string name; // in the level above; empty for `directory` itself
        dev_t device = 0;
        ino_t inode = 0;
        std::vector<std::string> entries;
        std::size_t next = 0;
    };
    std::vector<Level> levels(1);
    levels.front().entries = listNames(directory);
    std::erase_if(levels.front().entries,
                  [&](const std::string &name) { return std::ranges::find(keepNames, name) != keepNames.end(); });
    UniqueFd below; // the current level's directory when it is not `directory`
    const auto current = [&] {
        return below.valid() ? below.get() : directory;
    };
    // Built only for a message: keeping a path per level would cost memory quadratic in the depth.
    const auto pathOf = [&](const std::string &name) {
        std::string path = displayPath;
        for (std::size_t i = 1; i < levels.size(); ++i) {
            path = joinPath(path, levels[i].name);
        }
        return joinPath(path, name);
    };

    while (true) {
        Level &level = levels.back();
        if (level.next < level.entries.size()) {
            const std::string name = level.entries[level.next++];
            struct stat info
            {
            };
            if (::fstatat(current(), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
                if (errno == ENOENT) {
                    continue;
                }
                throw failure("cannot inspect", pathOf(name), errno);
            }
            if (!S_ISDIR(info.st_mode)) {
                if (::unlinkat(current(), name.c_str(), 0) != 0 && errno != ENOENT) {
                    throw failure("cannot remove", pathOf(name), errno);
                }
                continue;
            }
            UniqueFd child = openSubdirectory(current(), name);
            if (!child.valid() || ::fstat(child.get(), &info) != 0) {
                throw failure("cannot open directory", pathOf(name), errno);
            }
            // Without write permission on the directory its entries cannot be unlinked by a non-root runner.
            ::fchmod(child.get(), 0700);
            Level next{name, info.st_dev, info.st_ino, listNames(child.get())};
            below = std::move(child);
            levels.push_back(std::move(next));
            continue;
        }
        if (levels.size() == 1) {
            return;
        }
        // This level is empty: go back up and remove it.
        const Level done = std::move(levels.back());
        levels.pop_back();
        if (levels.size() == 1) {
            below.reset();
        } else {
            UniqueFd parent(::openat(below.get(), "..", directoryFlags));
            struct stat info
            {
            };
            if (!parent.valid() || ::fstat(parent.get(), &info) != 0 || info.st_dev != levels.back().device ||
                info.st_ino != levels.back().inode) {
                throw failure("cannot return to the parent of", pathOf(done.name), parent.valid() ? ESTALE : errno);
            }
            below = std::move(parent);
        }
        if (::unlinkat(current(), done.name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) {
            throw failure("cannot remove directory", pathOf(done.name), errno);
        }
    }
}

Workspace::Workspace(std::string workdir) : m_workdir(std::move(workdir)) {}

std::string Workspace::resolve(const std::string &path) const
{
    if (path.starts_with('/')) {
        return path;
    }
    return joinPath(m_workdir, path);
}

void Workspace::prepare(bool keepFiles, const std::string &outputDir)
{
    open();
    if (!keepFiles) {
        removeDirectoryContents(m_directory.get(), m_workdir);
    }
    if (!outputDir.empty()) {
        const std::string path = resolve(outputDir);
        makeDirectories(path);
        const UniqueFd output(::open(path.c_str(), directoryFlags));
        if (!output.valid()) {
            throw failure("cannot open output_dir", path, errno);
        }
        removeDirectoryContents(output.get(), path);
    }
}

void Workspace::emptyScratch(const std::string &directory, const std::vector<std::string> &keep)
{
    const UniqueFd fd(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW));
    if (!fd.valid()) {
        if (errno == ENOENT) {
            return;
        }
        throw failure("cannot open scratch directory", directory, errno);
    }
    std::vector<std::string> keepNames;
    for (const std::string &path : keep) {
        const std::string prefix = directory.ends_with('/') ? directory : directory + "/";
        if (path.starts_with(prefix) && path.find('/', prefix.size()) == std::string::npos) {
            keepNames.push_back(path.substr(prefix.size()));
        }
    }
    removeDirectoryContents(fd.get(), directory, keepNames);
}

std::vector<std::string> Workspace::components(const std::string &path)
{
    // isSafeRelativePath() has already rejected absolute paths and "..".
    std::vector<std::string> names;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        std::string component = path.substr(start, end - start);
        if (!component.empty() && component != ".") {
            names.push_back(std::move(component));
        }
        start = end + 1;
    }
    if (names.empty()) {
        throw std::runtime_error("invalid file path '" + path + "'");
    }
    return names;
}

UniqueFd Workspace::openParent(const std::vector<std::string> &names, const std::string &fullPath, bool create) const
{
    UniqueFd directory(::dup(m_directory.get()));
    for (std::size_t i = 0; i + 1 < names.size(); ++i) {
        const char *name = names[i].c_str();
        if (create && ::mkdirat(directory.get(), name, 0755) != 0 && errno != EEXIST) {
            throw failure("cannot create parent directory of", fullPath, errno);
        }
        UniqueFd next(::openat(directory.get(), name, directoryFlags));
        if (!next.valid()) {
            throw failure("cannot open parent directory of", fullPath, errno);
        }
        directory = std::move(next);
    }
    return directory;
}

void Workspace::open()
{
    makeDirectories(m_workdir);
    m_directory.reset(::open(m_workdir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!m_directory.valid()) {
        throw failure("cannot open workdir", m_workdir, errno);
    }
}

void Workspace::writeFile(const FileSpec &file)
{
    const std::vector<std::string> names = components(file.path);
    const std::string fullPath = resolve(file.path);
    const UniqueFd directory = openParent(names, fullPath, true);

    const char *name = names.back().c_str();
    // O_NONBLOCK: opening a FIFO the code made in place of the file fails (ENXIO without a reader) instead of waiting
    // for a reader for as long as the sandbox lives; a regular file's writes do not block either way.
    constexpr int flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
    UniqueFd output(::openat(directory.get(), name, flags, 0600));
    if (!output.valid() && errno == ELOOP && ::unlinkat(directory.get(), name, 0) == 0) {
        // A symlink left by an earlier run (keep_files) is replaced, never written through.
        output.reset(::openat(directory.get(), name, flags, 0600));
    }
    if (!output.valid() && errno == ENXIO) {
        throw std::runtime_error("'" + fullPath + "' is not a regular file");
    }
    if (!output.valid()) {
        throw failure("cannot create file", fullPath, errno);
    }
    struct stat status
    {
    };
    if (::fstat(output.get(), &status) != 0) {
        throw failure("cannot inspect file", fullPath, errno);
    }
    // A FIFO with a reader, a device: only a regular file is written.
    if (!S_ISREG(status.st_mode)) {
        throw std::runtime_error("'" + fullPath + "' is not a regular file");
    }
    writeAll(output.get(), file.data, fullPath);
    // fchmod() rather than the open() mode: the umask must not strip bits the host asked for (e.g. 0755).
    if (::fchmod(output.get(), file.mode) != 0) {
        throw failure("cannot set the mode of", fullPath, errno);
    }
}

std::string Workspace::readFile(const std::string &path, std::uint64_t maxBytes) const
{
    const std::vector<std::string> names = components(path);
    const std::string fullPath = resolve(path);
    const UniqueFd directory = openParent(names, fullPath, false);
    // No symlink is followed, at any level: the code in the sandbox must not point a download elsewhere.
    const UniqueFd input(
        ::openat(directory.get(), names.back().c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (!input.valid()) {
        throw failure(errno == ELOOP ? "refusing to follow the symlink" : "cannot open file", fullPath, errno);
    }
    struct stat status
    {
    };
    if (::fstat(input.get(), &status) != 0) {
        throw failure("cannot inspect file", fullPath, errno);
    }
    if (!S_ISREG(status.st_mode)) {
        throw std::runtime_error("'" + fullPath + "' is not a regular file");
    }
    if (static_cast<std::uint64_t>(status.st_size) > maxBytes) {
        throw std::runtime_error("'" + fullPath + "' has " + std::to_string(status.st_size) +
                                 " bytes, more than the limit of " + std::to_string(maxBytes));
    }
    std::string data;
    data.resize(static_cast<std::size_t>(status.st_size));
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t count = ::read(input.get(), data.data() + done, data.size() - done);
        if (count < 0 && errno == EINTR) {
            continue;
        }
        if (count < 0) {
            throw failure("cannot read file", fullPath, errno);
        }
        if (count == 0) {
            break; // the file shrank meanwhile
        }
        done += static_cast<std::size_t>(count);
    }
    data.resize(done);
    return data;
}

} // namespace runner
