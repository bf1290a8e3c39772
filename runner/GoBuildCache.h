#pragma once

#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace runner {

// The Go image's build cache: a GOCACHEPROG program (Go 1.24's external cache protocol, cmd/go/internal/cacheprog)
// over caches in the go command's own on-disk format (DIR/xx/<action id>-a naming DIR/xx/<output id>-d). A `get`
// looks in the writable cache, then in each read-only one (the image's cache of the standard library, compiled when
// the image was built); a `put` goes to the writable cache only. So every run starts from the compiled standard
// library without copying it, and what a run compiles itself lives in its /tmp, which the runner empties between
// runs: no run sees what another one compiled.
class GoBuildCache final
{
public:
    GoBuildCache(std::string writable, std::vector<std::string> readOnly);

    // Answers the requests on `in` until "close" or the end of `in`. Returns the exit status.
    int serve(std::istream &in, std::ostream &out);

    struct Entry
    {
        std::string outputId; // raw bytes
        long long size = 0;
        std::string diskPath;
    };
    // The entry of `actionId` (raw bytes) in the writable cache or else the first read-only one that has it.
    std::optional<Entry> get(const std::string &actionId) const;
    // Stores `body` under `actionId`; the path of its file, or nullopt when it cannot be written.
    std::optional<std::string> put(const std::string &actionId, const std::string &outputId, const std::string &body);

private:
    std::string m_writable;
    std::vector<std::string> m_readOnly;
};

} // namespace runner
