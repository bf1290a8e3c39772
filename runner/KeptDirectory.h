#pragma once

#include "UniqueFd.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <sys/types.h>

namespace runner {

// A directory a pooled container keeps from one run to the next (the Go build cache), which the code of one run
// cannot change for the next. What it holds when a run starts is what the runner recorded after the last step that
// ran only the toolchain (a compile step) — at first a symlink to every file of a read-only seed, the image's
// compiled standard library. The recorded files' contents are kept in a memory file of the runner's own, which no
// other process can reach (the runner is not dumpable); like the directory, they count against the container's
// memory.
class KeptDirectory final
{
public:
    // `path` and `seed` (empty: none) absolute. A record whose files hold more than `maxBytes` is dropped: the
    // directory goes back to the seed's links.
    KeptDirectory(std::string path, std::string seed, std::uint64_t maxBytes);

    const std::string &seed() const { return m_seed; }
    // Bytes of file contents recorded.
    std::uint64_t recordedBytes() const { return m_recordedBytes; }

    // Makes the directory exactly what was last recorded: whatever was added since is removed, whatever was changed,
    // replaced or removed is written again (files are always rewritten: a write through a shared mapping may leave no
    // trace in their times). Throws std::runtime_error.
    void restore();
    // Records the directory as it is now: its directories, symlinks and regular files (anything else is left out and
    // so removed by the next restore()). Throws std::runtime_error.
    void record();

private:
    struct Entry final
    {
        enum class Kind
        {
            Directory,
            File,
            Link,
            SeedLink, // a link to the seed's file of the same relative path
        };
        Kind kind = Kind::Directory;
        mode_t mode = 0;
        std::string target;       // Link
        std::uint64_t offset = 0; // File: its bytes in m_contents
        std::uint64_t size = 0;
    };
    using Entries = std::map<std::string, Entry>; // by relative path: a directory sorts before what it holds

    Entries seedEntries() const;
    void forgetRecord();
    // Removes what `directory` (relative path `prefix`) holds that is not recorded as it is; recurses into recorded
    // directories only. Adds the relative paths kept to `kept`.
    void sweep(int directory, const std::string &prefix, std::set<std::string> &kept) const;
    void create(int root, const std::string &path, const Entry &entry) const;

    std::string m_path;
    std::string m_seed;
    std::uint64_t m_maxBytes;
    Entries m_entries;
    UniqueFd m_contents; // memfd
    std::uint64_t m_recordedBytes = 0;
};

} // namespace runner
