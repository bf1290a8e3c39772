#pragma once

#include <string>

namespace runner {

// A compile step's output kept inside a kept directory (KeptDirectory.h) under the engine's key for it — a SHA-256 of
// the step, its environment and the run's files — so a warm container runs a program it built before without
// starting its toolchain again. What fetch() copies out was stored by the runner itself right after a compile step,
// before any program ran, and the kept directory is restored to that record before every run: a program cannot plant
// an output for the next one.
class ReusedOutputs final
{
public:
    // `directory`: where the outputs live, inside a kept directory.
    explicit ReusedOutputs(std::string directory, int keep = 4);

    // Whether `key` names a valid key (64 lowercase hex digits) and `file` a plain file name.
    static bool validKey(const std::string &key);
    static bool validFile(const std::string &file);

    // Copies the output kept under `key` to `destination` (created, mode 0755); false when there is none.
    bool fetch(const std::string &key, const std::string &destination) const;
    // Keeps a copy of `source` (a regular file, not a link) under `key`; the oldest go beyond `keep`.
    void store(const std::string &key, const std::string &source) const;

private:
    std::string m_directory;
    int m_keep;
};

} // namespace runner
