#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace runner {

// What a run left in a writable shared folder's directory (/data/NAME, a scratch file system of the sandbox's own
// whose files start out as links into the folder's read-only copy, KeptDirectory's seed) for llm-sandbox to save
// into the user's folder. The seed's links are not results; every other entry is, whatever it is: regular files
// are sent with their bytes, anything else (a link the code made, a FIFO, a socket) by its name and type only, so
// that the host can say why it was not saved. Names are relative to the directory; no link is followed.
class ResultFiles final
{
public:
    struct File final
    {
        std::string name; // relative to the directory, "/" between levels
        std::string type; // "file", "symlink", "fifo", "socket", "device"
        std::uint64_t size = 0;
        const std::string *data = nullptr; // a regular file within the limits; else not read
    };
    using Sink = std::function<void(const File &file)>;

    ResultFiles(std::string directory, std::string seed, std::uint64_t maxFiles, std::uint64_t maxFileBytes);

    // Hands every result to `sink`, oldest first (modification time, then name), one at a time so that only one
    // file is in memory. Files in subdirectories, past `maxFiles` or larger than `maxFileBytes` are handed over
    // without their bytes.
    void collect(const Sink &sink) const;

private:
    std::string m_directory;
    std::string m_seed;
    std::uint64_t m_maxFiles;
    std::uint64_t m_maxFileBytes;
};

} // namespace runner
