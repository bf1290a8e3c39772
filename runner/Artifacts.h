#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace runner {

// Collects the regular files below a run's output directory, oldest first (modification time, then name), so the
// order in which a program produced its figures is preserved. A chart's data a capture hook wrote beside it
// (.NAME.chart.json) follows the files, sent only with its image and counted against no limit but the size.
class ArtifactCollector final
{
public:
    using Sink = std::function<void(const std::string &name, const std::string &data)>;

    ArtifactCollector(std::string directory, std::uint64_t maxArtifacts, std::uint64_t maxArtifactBytes);

    // Hands every artifact within the limits to `sink`, one at a time so only one file is in memory, and returns
    // how many files were dropped for exceeding them (or for vanishing while being read).
    std::uint64_t collect(const Sink &sink) const;

private:
    std::string m_directory;
    std::uint64_t m_maxArtifacts;
    std::uint64_t m_maxArtifactBytes;
};

// Reads the regular file `name` (relative to the directory `root`, the name itself not followed if it is a link) into
// `data`: false when it is not a regular file, cannot be read or holds more than `limit` bytes (at most `limit` + 1
// are read to know). The caller makes sure no process can swap the directories on the way for links meanwhile (the
// run's processes are gone).
bool readRegularFile(int root, const std::string &name, std::uint64_t limit, std::string &data);

} // namespace runner
