// The limits a runner reports in force, compared with what the container spec asked for.
#include "engine/EnforcedLimits.h"

#include "engine/ContainerStarter.h"

#include <QJsonArray>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

ContainerSpec hardenedSpec()
{
    ContainerSpec spec;
    spec.user = QStringLiteral("1000:1000");
    spec.network = ContainerNetwork::none();
    spec.memoryBytes = 512LL * 1024 * 1024;
    spec.cpus = 1.5;
    spec.pidsLimit = 256;
    spec.readOnlyRootfs = true;
    spec.ulimits = {{QStringLiteral("nofile"), 1024, 1024}, {QStringLiteral("core"), 0, 0}};
    return spec;
}

/// What a runner in a sandbox with every limit of hardenedSpec() in force reports.
QJsonObject reportInForce()
{
    return QJsonObject{
        {"cgroup_version", 1},
        {"memory_bytes", 512.0 * 1024 * 1024},
        {"pids", 256},
        {"cpus", 1.5},
        {"rlimits", QJsonObject{{"nofile", 1024}, {"core", 0}, {"cpu", QJsonValue::Null}}},
        {"network_interfaces", QJsonArray{"lo"}},
        {"uid", 1000},
        {"gid", 1000},
        {"read_only_root", true},
        {"seccomp", 2},
        {"no_new_privs", true},
        {"capabilities", QJsonObject{{"ambient", "0000000000000000"},
                                     {"bounding", "0000000000000000"},
                                     {"effective", "0000000000000000"},
                                     {"permitted", "0000000000000000"}}},
    };
}

QStringList names(const QList<UnenforcedLimit> &limits)
{
    QStringList out;
    for (const UnenforcedLimit &limit : limits) {
        out.append(limit.name);
    }
    return out;
}

TEST(EnforcedLimits, readsAndWritesTheRunnersReport)
{
    const EnforcedLimits limits = EnforcedLimits::fromJson(reportInForce());
    EXPECT_TRUE(limits.reported);
    EXPECT_EQ(limits.cgroupVersion, 1);
    EXPECT_EQ(limits.memoryBytes, 512LL * 1024 * 1024);
    EXPECT_EQ(limits.pids, 256);
    EXPECT_DOUBLE_EQ(*limits.cpus, 1.5);
    EXPECT_EQ(limits.rlimits.value("nofile"), 1024);
    EXPECT_FALSE(limits.rlimits.value("cpu").has_value());
    EXPECT_EQ(limits.networkInterfaces, QStringList{"lo"});
    EXPECT_EQ(limits.uid, 1000);
    EXPECT_TRUE(limits.readOnlyRoot);
    EXPECT_EQ(limits.toJson(), reportInForce());
}

TEST(EnforcedLimits, aMissingReportIsNotReported)
{
    const EnforcedLimits limits = EnforcedLimits::fromJson({});
    EXPECT_FALSE(limits.reported);
    EXPECT_TRUE(limits.toJson().isEmpty());
    // Nothing can be verified: every requested limit counts as not in force.
    EXPECT_EQ(names(limits.compare(hardenedSpec())),
              (QStringList{"memory", "pids", "cpus", "network", "user", "read_only_root", "seccomp", "no_new_privs",
                           "capabilities", "ulimits", "ulimits"}));
}

TEST(EnforcedLimits, everyLimitInForceLeavesNothingMissing)
{
    EXPECT_TRUE(EnforcedLimits::fromJson(reportInForce()).compare(hardenedSpec()).isEmpty());
}

TEST(EnforcedLimits, rootlessPodmanOnCgroupV1MissesMemoryAndPids)
{
    QJsonObject report = reportInForce();
    report.insert("memory_bytes", QJsonValue::Null);
    report.insert("pids", QJsonValue::Null);
    const QList<UnenforcedLimit> missing = EnforcedLimits::fromJson(report).compare(hardenedSpec());
    EXPECT_EQ(names(missing), (QStringList{"memory", "pids"}));
    EXPECT_EQ(missing.at(0).requested, "512 MiB");
    EXPECT_EQ(missing.at(0).found, "no limit");
}

TEST(EnforcedLimits, higherLimitsThanAskedForAreNotInForce)
{
    QJsonObject report = reportInForce();
    report.insert("memory_bytes", 1024.0 * 1024 * 1024);
    report.insert("cpus", 4.0);
    report.insert("rlimits", QJsonObject{{"nofile", 65536}, {"core", QJsonValue::Null}});
    const QList<UnenforcedLimit> missing = EnforcedLimits::fromJson(report).compare(hardenedSpec());
    EXPECT_EQ(names(missing), (QStringList{"memory", "cpus", "ulimits", "ulimits"}));
    EXPECT_EQ(missing.at(2).found, "nofile 65536");
}

TEST(EnforcedLimits, networkUserAndRootFilesystemAreChecked)
{
    QJsonObject report = reportInForce();
    report.insert("network_interfaces", QJsonArray{"eth0", "lo"});
    report.insert("uid", 0);
    report.insert("read_only_root", false);
    const QList<UnenforcedLimit> missing = EnforcedLimits::fromJson(report).compare(hardenedSpec());
    EXPECT_EQ(names(missing), (QStringList{"network", "user", "read_only_root"}));
    EXPECT_EQ(missing.at(0).found, "interfaces eth0, lo");
}

TEST(EnforcedLimits, seccompNoNewPrivsAndCapabilitiesAreChecked)
{
    QJsonObject report = reportInForce();
    report.insert("seccomp", 0);
    report.insert("no_new_privs", false);
    report.insert("capabilities", QJsonObject{{"ambient", "0000000000000000"},
                                              {"bounding", "00000000a80425fb"},
                                              {"effective", "0000000000000000"}});
    const QList<UnenforcedLimit> missing = EnforcedLimits::fromJson(report).compare(hardenedSpec());
    ASSERT_EQ(names(missing), (QStringList{"seccomp", "no_new_privs", "capabilities"}));
    EXPECT_EQ(missing.at(0).found, "seccomp mode 0");
    EXPECT_EQ(missing.at(1).found, "new privileges allowed");
    EXPECT_EQ(missing.at(2).found, "permitted not reported, bounding a80425fb");

    // What the spec does not ask for is not checked: unconfined, privileges allowed, capabilities kept.
    ContainerSpec spec = hardenedSpec();
    spec.securityOpt = {QStringLiteral("seccomp=unconfined")};
    spec.noNewPrivileges = false;
    spec.capDrop = {QStringLiteral("NET_RAW")};
    EXPECT_TRUE(EnforcedLimits::fromJson(report).compare(spec).isEmpty());
}

TEST(EnforcedLimits, rootlessPodmanOnCgroupV1GivesBothCausesOfItsMissingLimits)
{
    // What rootless Podman 4.3 on a cgroup v1 host creates through its Docker-compatible API (measured here).
    QJsonObject report = reportInForce();
    report.insert("memory_bytes", QJsonValue::Null);
    report.insert("pids", QJsonValue::Null);
    report.insert("rlimits", QJsonObject{{"nofile", 20000}, {"core", 0}});
    const EnforcedLimits limits = EnforcedLimits::fromJson(report);
    const QList<UnenforcedLimit> missing = limits.compare(hardenedSpec());
    ASSERT_EQ(names(missing), (QStringList{"memory", "pids", "ulimits"}));

    EXPECT_EQ(ContainerStarter::whyNotEnforced(QStringLiteral("podman"), true, limits, missing),
              "rootless podman cannot set resource limits on cgroup v1: the host needs cgroup v2 with the memory, pids "
              "and cpu controllers delegated to the user; rootless Podman before 5.5 drops the ulimits given through "
              "its Docker-compatible API (containers/podman#25881)");
    EXPECT_EQ(ContainerStarter::whyNotEnforced(QStringLiteral("podman"), true, limits, missing.mid(2)),
              "rootless Podman before 5.5 drops the ulimits given through its Docker-compatible API "
              "(containers/podman#25881)");
    EXPECT_EQ(ContainerStarter::whyNotEnforced(QStringLiteral("docker"), false, limits, missing.mid(2)),
              "docker did not apply the container settings that set them");
}

TEST(EnforcedLimits, onlyRequestedLimitsAreChecked)
{
    ContainerSpec spec = hardenedSpec();
    spec.memoryBytes = 0;
    spec.pidsLimit = 0;
    spec.cpus = 0;
    spec.network = ContainerNetwork::named(QStringLiteral("bridge"));
    spec.readOnlyRootfs = false;
    spec.ulimits.clear();
    QJsonObject report = reportInForce();
    report.insert("memory_bytes", QJsonValue::Null);
    report.insert("network_interfaces", QJsonArray{"eth0", "lo"});
    report.insert("read_only_root", false);
    EXPECT_TRUE(EnforcedLimits::fromJson(report).compare(spec).isEmpty());
}

} // namespace
