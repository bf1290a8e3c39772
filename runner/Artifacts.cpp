#include "Artifacts.h"

#include "UniqueFd.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <set>
#include <string>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace runner {

namespace {

// Deep enough for any real output tree; bounds the descriptors held open by the recursion.
constexpr int maxDepth = 64;

struct Entry final
{
    timespec modified;
    std::string name;
    std::uint64_t size;
};

void walk(int directory, const std::string &prefix, int depth, std::vector<Entry> &entries)
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
        if (::fstatat(directory, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
            continue;
        }
        if (S_ISREG(info.st_mode)) {
            entries.push_back({info.st_mtim, prefix + name, static_cast<std::uint64_t>(info.st_size)});
        } else if (S_ISDIR(info.st_mode) && depth < maxDepth) {
            const UniqueFd child(::openat(directory, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            if (child.valid()) {
                walk(child.get(), prefix + name + "/", depth + 1, entries);
            }
        }
    }
}

// The image a capture hook's chart data belongs to ("plots/.a.png.chart.json" → "plots/a.png"), or empty.
std::string chartImageOf(const std::string &name)
{
    static const std::string suffix = ".chart.json";
    const std::size_t slash = name.rfind('/');
    const std::size_t start = slash == std::string::npos ? 0 : slash + 1;
    if (name.size() <= start + 1 + suffix.size() || name[start] != '.' || !name.ends_with(suffix)) {
        return {};
    }
    return name.substr(0, start) + name.substr(start + 1, name.size() - start - 1 - suffix.size());
}

} // namespace

bool readRegularFile(int root, const std::string &name, std::uint64_t limit, std::string &data)
{
    const UniqueFd fd(::openat(root, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    struct stat info
    {
    };
    if (!fd.valid() || ::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
        return false;
    }
    data.clear();
    char buffer[65536];
    while (data.size() <= limit) {
        const ssize_t count = ::read(fd.get(), buffer, sizeof buffer);
        if (count < 0 && errno == EINTR) {
            continue;
        }
        if (count < 0) {
            return false;
        }
        if (count == 0) {
            break;
        }
        data.append(buffer, static_cast<std::size_t>(count));
    }
    return data.size() <= limit;
}

ArtifactCollector::ArtifactCollector(std::string directory, std::uint64_t maxArtifacts, std::uint64_t maxArtifactBytes)
    : m_directory(std::move(directory)), m_maxArtifacts(maxArtifacts), m_maxArtifactBytes(maxArtifactBytes)
{}

std::uint64_t ArtifactCollector::collect(const Sink &sink) const
{
    // The run's code may have replaced the output directory by a symlink; then there are no artifacts.
    const UniqueFd root(::open(m_directory.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!root.valid()) {
        return 0;
    }
    std::vector<Entry> entries;
    walk(root.get(), {}, 0, entries);
    std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        return std::tie(a.modified.tv_sec, a.modified.tv_nsec, a.name) <
               std::tie(b.modified.tv_sec, b.modified.tv_nsec, b.name);
    });

    std::uint64_t sent = 0;
    std::uint64_t dropped = 0;
    std::string data;
    std::set<std::string> images;
    std::vector<std::pair<std::string, std::string>> charts; // data file, its image
    for (const Entry &entry : entries) {
        if (const std::string image = chartImageOf(entry.name); !image.empty()) {
            charts.emplace_back(entry.name, image);
            continue;
        }
        if (sent >= m_maxArtifacts || entry.size > m_maxArtifactBytes ||
            !readRegularFile(root.get(), entry.name, m_maxArtifactBytes, data)) {
            ++dropped;
            continue;
        }
        sink(entry.name, data);
        images.insert(entry.name);
        ++sent;
    }
    // A chart's data goes with its image, after it, and counts against no limit but the size: without the image it
    // is not sent at all.
    for (const auto &[name, image] : charts) {
        if (images.contains(image) && readRegularFile(root.get(), name, m_maxArtifactBytes, data)) {
            sink(name, data);
        }
    }
    return dropped;
}

} // namespace runner
