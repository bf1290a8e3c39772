#pragma once

#include "Protocol.h"
#include "UniqueFd.h"

#include <cstdint>
#include <string>
#include <vector>

namespace runner {

// The directory a run works in. All operations below the workdir go through directory descriptors with
// O_NOFOLLOW, so symlinks left behind by a previous run's code cannot redirect deletes or writes elsewhere.
class Workspace final
{
public:
    explicit Workspace(std::string workdir);

    // Creates the workdir, empties it unless `keepFiles`, then creates `outputDir` and empties it. Throws
    // std::runtime_error with a message for the host.
    void prepare(bool keepFiles, const std::string &outputDir);
    // Creates the workdir if needed and opens it, leaving its contents alone (file operations of a session).
    void open();
    // Empties `directory` (absolute; a missing one is fine): scratch space such as /tmp that a pooled container
    // must not carry from one run to the next. Leaves those of `keep` (absolute paths) that are entries of
    // `directory` itself: the runner's kept directories (KeptDirectory), which it restores instead. Throws
    // std::runtime_error.
    static void emptyScratch(const std::string &directory, const std::vector<std::string> &keep = {});
    void writeFile(const FileSpec &file);
    // The contents of the regular file `path` (relative, already checked by isSafeRelativePath()), reached without
    // following any symlink. Throws std::runtime_error when it is missing, not a regular file or over `maxBytes`.
    std::string readFile(const std::string &path, std::uint64_t maxBytes) const;

    // `path` made absolute relative to the workdir.
    std::string resolve(const std::string &path) const;

private:
    static std::vector<std::string> components(const std::string &path);
    // The directory holding the last of `names`, opened component by component without following symlinks.
    UniqueFd openParent(const std::vector<std::string> &names, const std::string &fullPath, bool create) const;

    std::string m_workdir;
    UniqueFd m_directory;
};

// Opens the subdirectory `name` of `parent` without following a symlink, even one whose permissions user code took
// away (it gets 0700 then). Invalid, with errno set, when it cannot.
UniqueFd openSubdirectory(int parent, const std::string &name);

// Creates `path` and its missing parents like `mkdir -p`. Throws std::runtime_error.
void makeDirectories(const std::string &path);

// Deletes everything inside the directory open as `directory` (not the directory itself) but the entries named in
// `keepNames`, without following symlinks. Throws std::runtime_error naming the first entry that could not be
// removed.
void removeDirectoryContents(int directory, const std::string &displayPath,
                             const std::vector<std::string> &keepNames = {});

} // namespace runner
