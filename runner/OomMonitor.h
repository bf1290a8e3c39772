#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace runner {

// Reads the container cgroup's OOM-kill counter. A SIGKILL the runner did not send is only attributed to the OOM
// killer when this counter rose during the step; without a readable counter OOM is never reported.
class OomMonitor final
{
public:
    OomMonitor();

    std::optional<std::uint64_t> killCount() const;

private:
    std::string m_path; // memory.events (cgroup v2) or memory.oom_control (cgroup v1); empty if none was found
};

} // namespace runner
