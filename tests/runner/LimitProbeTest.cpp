// The runner's reading of the limits in force: the parsers, and the probe on fake cgroup trees.
#include "LimitProbe.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace runner {

namespace {

namespace fs = std::filesystem;

class FakeTree final
{
public:
    FakeTree()
        : m_root(fs::temp_directory_path() / ("limit-probe-" + std::to_string(::getpid()) + "-" +
                                              std::to_string(reinterpret_cast<std::uintptr_t>(this))))
    {
        fs::create_directories(m_root / "net" / "lo");
    }
    ~FakeTree() { fs::remove_all(m_root); }

    void write(const std::string &relative, const std::string &content) const
    {
        fs::create_directories((m_root / relative).parent_path());
        std::ofstream(m_root / relative) << content;
    }

    LimitProbePaths paths() const
    {
        return {(m_root / "cgroup").string(), (m_root / "proc-self-cgroup").string(), (m_root / "net").string(), "/"};
    }

private:
    fs::path m_root;
};

TEST(LimitProbe, cgroupLimitTreatsMaxAndHugeValuesAsUnlimited)
{
    EXPECT_EQ(parseCgroupLimit("268435456\n"), 268435456u);
    EXPECT_EQ(parseCgroupLimit("64"), 64u);
    EXPECT_FALSE(parseCgroupLimit("max\n").has_value());
    EXPECT_FALSE(parseCgroupLimit("9223372036854771712\n").has_value());
    EXPECT_FALSE(parseCgroupLimit("").has_value());
    EXPECT_FALSE(parseCgroupLimit("12abc").has_value());
}

TEST(LimitProbe, cpuQuotaIsQuotaOverPeriod)
{
    EXPECT_DOUBLE_EQ(*parseCpuMax("150000 100000\n"), 1.5);
    EXPECT_FALSE(parseCpuMax("max 100000\n").has_value());
    EXPECT_FALSE(parseCpuMax("garbage").has_value());
    EXPECT_DOUBLE_EQ(*cpusFromCfs("50000\n", "100000\n"), 0.5);
    EXPECT_FALSE(cpusFromCfs("-1\n", "100000\n").has_value());
}

TEST(LimitProbe, findsTheCgroupPathOfAController)
{
    const std::string text = "9:name=systemd:/docker/abc\n4:memory:/docker/abc\n2:cpu,cpuacct:/docker/abc\n0::/x\n";
    EXPECT_EQ(cgroupPathFor(text, "memory"), "/docker/abc");
    EXPECT_EQ(cgroupPathFor(text, "cpu"), "/docker/abc");
    EXPECT_EQ(cgroupPathFor(text, ""), "/x");
    EXPECT_FALSE(cgroupPathFor(text, "pids").has_value());
}

TEST(LimitProbe, readsCgroupV1LimitsAtTheMountRoot)
{
    FakeTree tree;
    tree.write("proc-self-cgroup", "4:memory:/docker/abc\n8:pids:/docker/abc\n1:cpu:/docker/abc\n");
    tree.write("cgroup/memory/memory.limit_in_bytes", "268435456\n");
    tree.write("cgroup/pids/pids.max", "64\n");
    tree.write("cgroup/cpu/cpu.cfs_quota_us", "150000\n");
    tree.write("cgroup/cpu/cpu.cfs_period_us", "100000\n");

    const InForceLimits limits = probeLimits(tree.paths());
    EXPECT_EQ(limits.cgroupVersion, 1);
    EXPECT_EQ(limits.memoryBytes, 268435456u);
    EXPECT_EQ(limits.pids, 64u);
    ASSERT_TRUE(limits.cpus.has_value());
    EXPECT_DOUBLE_EQ(*limits.cpus, 1.5);
    EXPECT_EQ(limits.networkInterfaces, std::vector<std::string>{"lo"});
}

TEST(LimitProbe, cgroupV1WithoutLimitsReportsNone)
{
    // What rootless Podman on cgroup v1 gives a container: the controllers are visible but nothing is limited.
    FakeTree tree;
    tree.write("proc-self-cgroup", "4:memory:/user.slice\n");
    tree.write("cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
    tree.write("cgroup/pids/pids.max", "max\n");
    tree.write("cgroup/cpu/cpu.cfs_quota_us", "-1\n");
    tree.write("cgroup/cpu/cpu.cfs_period_us", "100000\n");

    const InForceLimits limits = probeLimits(tree.paths());
    EXPECT_EQ(limits.cgroupVersion, 1);
    EXPECT_FALSE(limits.memoryBytes.has_value());
    EXPECT_FALSE(limits.pids.has_value());
    EXPECT_FALSE(limits.cpus.has_value());
}

TEST(LimitProbe, readsCgroupV2LimitsInTheOwnCgroup)
{
    FakeTree tree;
    tree.write("proc-self-cgroup", "0::/sandbox\n");
    tree.write("cgroup/cgroup.controllers", "cpu memory pids\n");
    tree.write("cgroup/memory.max", "max\n"); // the root is not the container's cgroup
    tree.write("cgroup/sandbox/memory.max", "536870912\n");
    tree.write("cgroup/sandbox/pids.max", "128\n");
    tree.write("cgroup/sandbox/cpu.max", "200000 100000\n");

    const InForceLimits limits = probeLimits(tree.paths());
    EXPECT_EQ(limits.cgroupVersion, 2);
    EXPECT_EQ(limits.memoryBytes, 536870912u);
    EXPECT_EQ(limits.pids, 128u);
    ASSERT_TRUE(limits.cpus.has_value());
    EXPECT_DOUBLE_EQ(*limits.cpus, 2.0);
}

TEST(LimitProbe, reportsNoCgroupWhenNoneIsMounted)
{
    FakeTree tree;
    const InForceLimits limits = probeLimits(tree.paths());
    EXPECT_EQ(limits.cgroupVersion, 0);
    EXPECT_FALSE(limits.memoryBytes.has_value());
}

TEST(LimitProbe, jsonCarriesEveryFieldWithNullForUnlimited)
{
    InForceLimits limits;
    limits.cgroupVersion = 1;
    limits.memoryBytes = 1024;
    limits.rlimits = {{"nofile", 256}, {"cpu", std::nullopt}};
    limits.networkInterfaces = {"lo"};
    limits.uid = 1000;
    limits.gid = 1000;
    limits.readOnlyRoot = true;

    const auto json = limitsToJson(limits);
    EXPECT_EQ(json["cgroup_version"], 1);
    EXPECT_EQ(json["memory_bytes"], 1024);
    EXPECT_TRUE(json["pids"].is_null());
    EXPECT_TRUE(json["cpus"].is_null());
    EXPECT_EQ(json["rlimits"]["nofile"], 256);
    EXPECT_TRUE(json["rlimits"]["cpu"].is_null());
    EXPECT_EQ(json["network_interfaces"], nlohmann::json::array({"lo"}));
    EXPECT_EQ(json["uid"], 1000);
    EXPECT_EQ(json["read_only_root"], true);
}

TEST(LimitProbe, procStatusGivesSeccompNoNewPrivsAndTheCapabilitySets)
{
    InForceLimits limits;
    parseProcStatus("Name:\tpython3\nUid:\t1000\t1000\t1000\t1000\nCapInh:\t0000000000000000\n"
                    "CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapBnd:\t00000000a80425fb\n"
                    "CapAmb:\t0000000000000000\nNoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t1\n",
                    limits);
    EXPECT_EQ(limits.seccompMode, 2);
    EXPECT_EQ(limits.noNewPrivs, true);
    EXPECT_EQ(limits.capabilities["bounding"], "00000000a80425fb");
    EXPECT_EQ(limits.capabilities["effective"], "0000000000000000");
    EXPECT_EQ(limits.capabilities.size(), 4u);
    const auto json = limitsToJson(limits);
    EXPECT_EQ(json["seccomp"], 2);
    EXPECT_EQ(json["no_new_privs"], true);
    EXPECT_EQ(json["capabilities"]["bounding"], "00000000a80425fb");
}

TEST(LimitProbe, kernelWithoutTheFieldsReportsThemAbsent)
{
    InForceLimits limits;
    parseProcStatus("Name:\tpython3\nState:\tR (running)\n", limits);
    EXPECT_FALSE(limits.seccompMode.has_value());
    EXPECT_FALSE(limits.noNewPrivs.has_value());
    EXPECT_TRUE(limits.capabilities.empty());
    EXPECT_TRUE(limitsToJson(limits)["seccomp"].is_null());
}

TEST(LimitProbe, probeReportsThisProcessIdentityAndRlimits)
{
    const InForceLimits limits = probeLimits();
    EXPECT_EQ(limits.uid, ::getuid());
    EXPECT_EQ(limits.gid, ::getgid());
    EXPECT_EQ(limits.rlimits.size(), 5u);
    EXPECT_TRUE(limits.rlimits.count("nofile"));
}

} // namespace

} // namespace runner
