#include "LimitProbe.h"

#include <algorithm>
#include <charconv>
#include <dirent.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace runner {

namespace {

// cgroup v1 reports "unlimited" as the largest page-aligned signed 64-bit value (9223372036854771712); anything at
// that order of magnitude is no limit a sandbox could have asked for.
constexpr std::uint64_t unlimitedThreshold = std::uint64_t(1) << 62;

std::string_view trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::optional<std::string> readFile(const std::string &path)
{
    std::ifstream file(path);
    if (!file) {
        return std::nullopt;
    }
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

bool exists(const std::string &path)
{
    return ::access(path.c_str(), F_OK) == 0;
}

std::optional<long long> parseInteger(std::string_view text)
{
    text = trimmed(text);
    long long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return value;
}

// The first readable file among the process's own cgroup directory and the mount's root (a container with a
// private cgroup namespace, or Docker on v1, which mounts the container's cgroup at the root).
std::optional<std::string> readControllerFile(const LimitProbePaths &paths, const std::string &procText,
                                              const std::string &controller, const std::string &file)
{
    const std::string mount = controller.empty() ? paths.cgroupRoot : paths.cgroupRoot + "/" + controller;
    std::vector<std::string> candidates;
    if (const auto own = cgroupPathFor(procText, controller); own && *own != "/") {
        candidates.push_back(mount + *own + "/" + file);
    }
    candidates.push_back(mount + "/" + file);
    for (const std::string &candidate : candidates) {
        if (auto text = readFile(candidate)) {
            return text;
        }
    }
    return std::nullopt;
}

std::optional<std::uint64_t> softLimit(int resource)
{
    rlimit limit{};
    if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) {
        return std::nullopt;
    }
    return static_cast<std::uint64_t>(limit.rlim_cur);
}

std::vector<std::string> listInterfaces(const std::string &folder)
{
    std::vector<std::string> names;
    if (DIR *dir = ::opendir(folder.c_str())) {
        while (const dirent *entry = ::readdir(dir)) {
            const std::string name = entry->d_name;
            if (name != "." && name != "..") {
                names.push_back(name);
            }
        }
        ::closedir(dir);
    }
    std::sort(names.begin(), names.end());
    return names;
}

nlohmann::ordered_json optionalJson(const std::optional<std::uint64_t> &value)
{
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

} // namespace

std::optional<std::uint64_t> parseCgroupLimit(std::string_view text)
{
    text = trimmed(text);
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || value >= unlimitedThreshold) {
        return std::nullopt;
    }
    return value;
}

std::optional<double> cpusFromCfs(std::string_view quota, std::string_view period)
{
    const auto quotaValue = parseInteger(quota);
    const auto periodValue = parseInteger(period);
    if (!quotaValue || !periodValue || *quotaValue <= 0 || *periodValue <= 0) {
        return std::nullopt;
    }
    return double(*quotaValue) / double(*periodValue);
}

std::optional<double> parseCpuMax(std::string_view text)
{
    text = trimmed(text);
    const auto space = text.find(' ');
    if (space == std::string_view::npos) {
        return std::nullopt;
    }
    return cpusFromCfs(text.substr(0, space), text.substr(space + 1));
}

std::optional<std::string> cgroupPathFor(std::string_view procSelfCgroup, std::string_view controller)
{
    std::istringstream lines{std::string(procSelfCgroup)};
    std::string line;
    while (std::getline(lines, line)) {
        const std::size_t first = line.find(':');
        const std::size_t second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) {
            continue;
        }
        const std::string controllers = line.substr(first + 1, second - first - 1);
        bool match = controller.empty() && controllers.empty();
        std::stringstream list(controllers);
        std::string name;
        while (!match && !controller.empty() && std::getline(list, name, ',')) {
            match = name == controller;
        }
        if (match) {
            return line.substr(second + 1);
        }
    }
    return std::nullopt;
}

void parseProcStatus(std::string_view status, InForceLimits &limits)
{
    static const std::map<std::string, std::string, std::less<>> capabilityFields = {
        {"CapEff", "effective"}, {"CapPrm", "permitted"}, {"CapBnd", "bounding"}, {"CapAmb", "ambient"}};
    while (!status.empty()) {
        const auto end = status.find('\n');
        const std::string_view line = status.substr(0, end);
        status = end == std::string_view::npos ? std::string_view() : status.substr(end + 1);
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) {
            continue;
        }
        const std::string_view name = line.substr(0, colon);
        const std::string_view value = trimmed(line.substr(colon + 1));
        if (name == "Seccomp") {
            if (const auto mode = parseInteger(value)) {
                limits.seccompMode = int(*mode);
            }
        } else if (name == "NoNewPrivs") {
            if (const auto flag = parseInteger(value)) {
                limits.noNewPrivs = *flag != 0;
            }
        } else if (const auto field = capabilityFields.find(name); field != capabilityFields.end()) {
            limits.capabilities[field->second] = std::string(value);
        }
    }
}

InForceLimits probeLimits(const LimitProbePaths &paths)
{
    InForceLimits limits;
    const std::string procText = readFile(paths.procSelfCgroup).value_or(std::string());
    if (exists(paths.cgroupRoot + "/cgroup.controllers")) {
        limits.cgroupVersion = 2;
        const auto file = [&](const std::string &name) {
            return readControllerFile(paths, procText, {}, name);
        };
        if (const auto memory = file("memory.max")) {
            limits.memoryBytes = parseCgroupLimit(*memory);
        }
        if (const auto pids = file("pids.max")) {
            limits.pids = parseCgroupLimit(*pids);
        }
        if (const auto cpu = file("cpu.max")) {
            limits.cpus = parseCpuMax(*cpu);
        }
    } else if (exists(paths.cgroupRoot + "/memory") || exists(paths.cgroupRoot + "/pids") ||
               exists(paths.cgroupRoot + "/cpu")) {
        limits.cgroupVersion = 1;
        if (const auto memory = readControllerFile(paths, procText, "memory", "memory.limit_in_bytes")) {
            limits.memoryBytes = parseCgroupLimit(*memory);
        }
        if (const auto pids = readControllerFile(paths, procText, "pids", "pids.max")) {
            limits.pids = parseCgroupLimit(*pids);
        }
        const auto quota = readControllerFile(paths, procText, "cpu", "cpu.cfs_quota_us");
        const auto period = readControllerFile(paths, procText, "cpu", "cpu.cfs_period_us");
        if (quota && period) {
            limits.cpus = cpusFromCfs(*quota, *period);
        }
    }
    limits.rlimits = {{"nofile", softLimit(RLIMIT_NOFILE)},
                      {"nproc", softLimit(RLIMIT_NPROC)},
                      {"fsize", softLimit(RLIMIT_FSIZE)},
                      {"core", softLimit(RLIMIT_CORE)},
                      {"cpu", softLimit(RLIMIT_CPU)}};
    limits.networkInterfaces = listInterfaces(paths.netClass);
    limits.uid = ::getuid();
    limits.gid = ::getgid();
    struct statvfs root
    {
    };
    limits.readOnlyRoot = ::statvfs(paths.rootFilesystem.c_str(), &root) == 0 && (root.f_flag & ST_RDONLY) != 0;
    parseProcStatus(readFile(paths.procSelfStatus).value_or(std::string()), limits);
    return limits;
}

nlohmann::ordered_json limitsToJson(const InForceLimits &limits)
{
    nlohmann::ordered_json rlimits = nlohmann::ordered_json::object();
    for (const auto &[name, value] : limits.rlimits) {
        rlimits[name] = optionalJson(value);
    }
    return {
        {"cgroup_version", limits.cgroupVersion},
        {"memory_bytes", optionalJson(limits.memoryBytes)},
        {"pids", optionalJson(limits.pids)},
        {"cpus", limits.cpus ? nlohmann::ordered_json(*limits.cpus) : nlohmann::ordered_json(nullptr)},
        {"rlimits", rlimits},
        {"network_interfaces", limits.networkInterfaces},
        {"uid", limits.uid},
        {"gid", limits.gid},
        {"read_only_root", limits.readOnlyRoot},
        {"seccomp", limits.seccompMode ? nlohmann::ordered_json(*limits.seccompMode) : nlohmann::ordered_json(nullptr)},
        {"no_new_privs",
         limits.noNewPrivs ? nlohmann::ordered_json(*limits.noNewPrivs) : nlohmann::ordered_json(nullptr)},
        {"capabilities", limits.capabilities},
    };
}

} // namespace runner
