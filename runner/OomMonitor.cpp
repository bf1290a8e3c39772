#include "OomMonitor.h"

#include <fstream>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace runner {

namespace {

bool readable(const std::string &path)
{
    return ::access(path.c_str(), R_OK) == 0;
}

// The cgroup path of this process per /proc/self/cgroup for the given controller ("" selects the v2 line).
std::optional<std::string> ownCgroup(const std::string &controller)
{
    std::ifstream file("/proc/self/cgroup");
    std::string line;
    while (std::getline(file, line)) {
        const std::size_t first = line.find(':');
        const std::size_t second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) {
            continue;
        }
        const std::string controllers = line.substr(first + 1, second - first - 1);
        std::stringstream list(controllers);
        std::string name;
        bool match = controller.empty() && controllers.empty();
        while (!match && std::getline(list, name, ',')) {
            match = name == controller;
        }
        if (match) {
            return line.substr(second + 1);
        }
    }
    return std::nullopt;
}

} // namespace

OomMonitor::OomMonitor()
{
    // Inside a container with its own cgroup namespace the cgroup is mounted at the root; with a shared namespace
    // /proc/self/cgroup names the real location. Prefer the specific path and fall back to the root.
    std::vector<std::string> candidates;
    if (const auto path = ownCgroup({})) {
        candidates.push_back("/sys/fs/cgroup" + *path + "/memory.events");
    }
    candidates.emplace_back("/sys/fs/cgroup/memory.events");
    if (const auto path = ownCgroup("memory")) {
        candidates.push_back("/sys/fs/cgroup/memory" + *path + "/memory.oom_control");
    }
    candidates.emplace_back("/sys/fs/cgroup/memory/memory.oom_control");
    for (const std::string &candidate : candidates) {
        if (readable(candidate)) {
            m_path = candidate;
            return;
        }
    }
}

std::optional<std::uint64_t> OomMonitor::killCount() const
{
    if (m_path.empty()) {
        return std::nullopt;
    }
    std::ifstream file(m_path);
    std::string key;
    std::uint64_t value = 0;
    while (file >> key >> value) {
        if (key == "oom_kill") {
            return value;
        }
    }
    return std::nullopt;
}

} // namespace runner
