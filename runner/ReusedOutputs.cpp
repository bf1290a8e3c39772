#include "ReusedOutputs.h"

#include "UniqueFd.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace runner {

namespace {

// A compiled program larger than this is not kept (the kept directory's own cap is 32 MiB).
constexpr off_t kMaxOutputBytes = 16 * 1024 * 1024;

bool copyFile(int from, const std::string &to, mode_t mode)
{
    struct stat info
    {
    };
    if (::fstat(from, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size > kMaxOutputBytes) {
        return false;
    }
    UniqueFd out(::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode));
    if (!out.valid()) {
        return false;
    }
    for (off_t offset = 0; offset < info.st_size;) {
        const ssize_t sent = ::sendfile(out.get(), from, &offset, std::size_t(info.st_size - offset));
        if (sent <= 0) {
            ::unlink(to.c_str());
            return false;
        }
    }
    return ::fchmod(out.get(), mode) == 0;
}

} // namespace

ReusedOutputs::ReusedOutputs(std::string directory, int keep) : m_directory(std::move(directory)), m_keep(keep) {}

bool ReusedOutputs::validKey(const std::string &key)
{
    return key.size() == 64 &&
           std::all_of(key.begin(), key.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool ReusedOutputs::validFile(const std::string &file)
{
    return !file.empty() && file != "." && file != ".." && file.find('/') == std::string::npos &&
           file.find('\0') == std::string::npos;
}

bool ReusedOutputs::fetch(const std::string &key, const std::string &destination) const
{
    UniqueFd kept(::open((m_directory + '/' + key).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    return kept.valid() && copyFile(kept.get(), destination, 0755);
}

void ReusedOutputs::store(const std::string &key, const std::string &source) const
{
    UniqueFd output(::open(source.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!output.valid() || (::mkdir(m_directory.c_str(), 0700) != 0 && errno != EEXIST)) {
        return;
    }
    // The oldest outputs make room (by modification time, which only the runner sets here).
    std::vector<std::pair<time_t, std::string>> present;
    if (DIR *folder = ::opendir(m_directory.c_str())) {
        while (const dirent *entry = ::readdir(folder)) {
            struct stat info
            {
            };
            const std::string name = entry->d_name;
            if (name != "." && name != ".." &&
                ::fstatat(::dirfd(folder), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0) {
                present.emplace_back(info.st_mtime, name);
            }
        }
        ::closedir(folder);
    }
    std::sort(present.begin(), present.end());
    for (std::size_t i = 0; i + std::size_t(m_keep) <= present.size(); ++i) {
        ::unlink((m_directory + '/' + present[i].second).c_str());
    }
    const std::string partial = m_directory + "/." + key;
    if (copyFile(output.get(), partial, 0500) && ::rename(partial.c_str(), (m_directory + '/' + key).c_str()) != 0) {
        ::unlink(partial.c_str());
    }
}

} // namespace runner
