#include "ResultFiles.h"

#include "Artifacts.h"
#include "UniqueFd.h"

#include <algorithm>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace runner {

namespace {

constexpr int maxDepth = 16;
constexpr std::size_t maxEntries = 200000;

struct Entry final
{
    timespec modified;
    std::string name;
    std::string type;
    std::uint64_t size;
};

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

// Everything below `directory` but its folders and the seed's own links (`seed`/PATH at PATH).
void walk(int directory, const std::string &prefix, const std::string &seed, int depth, std::vector<Entry> &entries)
{
    const int copy = ::dup(directory);
    DIR *stream = copy >= 0 ? ::fdopendir(copy) : nullptr;
    if (!stream) {
        if (copy >= 0) {
            ::close(copy);
        }
        return;
    }
    std::vector<std::string> names;
    while (const dirent *entry = ::readdir(stream)) {
        const std::string_view name = entry->d_name;
        if (name != "." && name != "..") {
            names.emplace_back(name);
        }
    }
    ::closedir(stream);

    for (const std::string &name : names) {
        struct stat info
        {
        };
        if (entries.size() >= maxEntries || ::fstatat(directory, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
            continue;
        }
        const std::string path = prefix + name;
        if (S_ISDIR(info.st_mode)) {
            const UniqueFd child(::openat(directory, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            if (child.valid() && depth < maxDepth) {
                walk(child.get(), path + "/", seed, depth + 1, entries);
            }
        } else if (!S_ISLNK(info.st_mode) || linkTarget(directory, name) != seed + "/" + path) {
            entries.push_back({info.st_mtim, path, typeOf(info.st_mode),
                               S_ISREG(info.st_mode) ? static_cast<std::uint64_t>(info.st_size) : 0});
        }
    }
}

} // namespace

ResultFiles::ResultFiles(std::string directory, std::string seed, std::uint64_t maxFiles, std::uint64_t maxFileBytes)
    : m_directory(std::move(directory)), m_seed(std::move(seed)), m_maxFiles(maxFiles), m_maxFileBytes(maxFileBytes)
{}

void ResultFiles::collect(const Sink &sink) const
{
    const UniqueFd root(::open(m_directory.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
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
        if (entry.type == "file" && entry.name.find('/') == std::string::npos && read < m_maxFiles &&
            entry.size <= m_maxFileBytes && readRegularFile(root.get(), entry.name, m_maxFileBytes, data)) {
            ++read;
            file.size = data.size();
            file.data = &data;
        }
        sink(file);
    }
}

} // namespace runner
