#pragma once

#include "UniqueFd.h"

#include <cstdint>
#include <functional>
#include <set>
#include <string>

namespace runner {

// A writable shared folder's directory (/data/NAME, a scratch file system of the sandbox's own) over the folder's
// read-only copy (the seed, mounted elsewhere). Before each run it is made exactly one link per entry at the seed's
// top level (a file's link reads the file, a folder's link its whole tree; both read-only), so the code reads the
// folder as it is and may only add entries beside it; after the run every entry that is not such a link is a result:
// regular files are sent with their bytes, anything else (a link the code made, a FIFO, a file in a folder it made)
// by name and type only, so that the host can say why it was not saved. Nothing is followed.
//
// Both steps cost next to nothing when the run did not touch the directory (an inotify watch says so; the code
// cannot hide a change from it) and the seed's top level is as it was.
class ResultDirectory final
{
public:
    struct File final
    {
        std::string name; // relative to the directory, "/" between levels
        std::string type; // "file", "symlink", "fifo", "socket", "device"
        std::uint64_t size = 0;
        const std::string *data = nullptr; // a regular file directly in the directory, within the limits
    };
    using Sink = std::function<void(const File &file)>;

    // `path` and `seed` absolute; `path` must be a directory.
    ResultDirectory(std::string path, std::string seed);

    const std::string &seed() const { return m_seed; }

    // Makes the directory the seed's links again. Throws std::runtime_error.
    void restore();
    // Hands what the run added since restore() to `sink`, oldest first (modification time, then name), one at a time
    // so that only one file is in memory. Files past `maxFiles`, or larger than `maxFileBytes`, come without their
    // bytes.
    void collect(std::uint64_t maxFiles, std::uint64_t maxFileBytes, const Sink &sink);

private:
    // Whether the directory may have changed since the last restore(): events arrived, or none can be watched.
    bool changed();

    std::string m_path;
    std::string m_seed;
    UniqueFd m_inotify;
    bool m_watching = false;
    bool m_dirty = true;               // changed since the last restore()
    std::set<std::string> m_seedNames; // the seed's top level at the last restore()
};

} // namespace runner
