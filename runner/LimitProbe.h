#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runner {

// Where the probe looks; tests point it at a fake tree.
struct LimitProbePaths final
{
    std::string cgroupRoot = "/sys/fs/cgroup";
    std::string procSelfCgroup = "/proc/self/cgroup";
    std::string netClass = "/sys/class/net";
    std::string rootFilesystem = "/";
    std::string procSelfStatus = "/proc/self/status";
};

// The limits in force for this process as seen from inside the container. An absent value means "no limit found"
// (unlimited, or the controller is missing): the host cannot tell the two apart and need not.
struct InForceLimits final
{
    int cgroupVersion = 0; // 1, 2, or 0 when no cgroup filesystem is visible
    std::optional<std::uint64_t> memoryBytes;
    std::optional<std::uint64_t> pids;
    std::optional<double> cpus;                                  // CFS quota / period
    std::map<std::string, std::optional<std::uint64_t>> rlimits; // soft limits; absent: RLIM_INFINITY
    std::vector<std::string> networkInterfaces;                  // sorted
    unsigned uid = 0;
    unsigned gid = 0;
    bool readOnlyRoot = false;
    // The hardening of this process, from /proc/self/status: Seccomp (0 off, 1 strict, 2 filter), NoNewPrivs, and
    // the capability sets as their hexadecimal masks (effective, permitted, bounding, ambient). Absent: not shown.
    std::optional<int> seccompMode;
    std::optional<bool> noNewPrivs;
    std::map<std::string, std::string> capabilities;
};

// The hardening fields of a /proc/PID/status text (parsed into `limits`).
void parseProcStatus(std::string_view status, InForceLimits &limits);

// Reads everything from the paths, and the rlimits, ids and root mount flags of this process.
InForceLimits probeLimits(const LimitProbePaths &paths = {});

// The `limits` object of the ready message (PROTOCOL.md).
nlohmann::ordered_json limitsToJson(const InForceLimits &limits);

// A cgroup limit file's value: "max" and the huge values cgroup v1 uses for "unlimited" give nullopt, as does text
// that is not a number.
std::optional<std::uint64_t> parseCgroupLimit(std::string_view text);

// cgroup v2 `cpu.max` ("150000 100000", "max 100000"): CPUs, nullopt when unlimited or unreadable.
std::optional<double> parseCpuMax(std::string_view text);

// cgroup v1 CFS quota and period in microseconds (quota -1: unlimited).
std::optional<double> cpusFromCfs(std::string_view quota, std::string_view period);

// The path of this process's cgroup for a v1 controller, or the v2 hierarchy when `controller` is empty, from the
// text of /proc/self/cgroup.
std::optional<std::string> cgroupPathFor(std::string_view procSelfCgroup, std::string_view controller);

} // namespace runner
