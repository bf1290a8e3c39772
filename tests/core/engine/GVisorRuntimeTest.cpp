// What gVisor does differently, judged in one place: the report of a runner under Debian 12's runsc (read by hand from
// a hardened container on Docker) against the hardened spec.
#include "engine/GVisorRuntime.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

ContainerSpec hardenedSpec()
{
    ContainerSpec spec;
    spec.user = QStringLiteral("20000:20000");
    spec.memoryBytes = 512LL * 1024 * 1024;
    spec.cpus = 1;
    spec.pidsLimit = 256;
    spec.readOnlyRootfs = true;
    spec.ulimits = {{QStringLiteral("nofile"), 1024, 1024}, {QStringLiteral("core"), 0, 0}};
    return spec;
}

/// The ready message's limits under runsc 20221219: no cgroup filesystem, seccomp mode 0, no NoNewPrivs and no CapAmb
/// line in /proc/self/status, and a root that statfs does not flag read-only.
EnforcedLimits gvisorReport()
{
    return EnforcedLimits::fromJson(QJsonObject{
        {"cgroup_version", 0},
        {"memory_bytes", QJsonValue::Null},
        {"pids", QJsonValue::Null},
        {"cpus", QJsonValue::Null},
        {"rlimits", QJsonObject{{"nofile", 1024}, {"core", 0}}},
        {"network_interfaces", QJsonArray{"lo"}},
        {"uid", 20000},
        {"gid", 20000},
        {"read_only_root", false},
        {"seccomp", 0},
        {"no_new_privs", QJsonValue::Null},
        {"capabilities",
         QJsonObject{{"bounding", "0000000000000000"}, {"effective", "0000000000000000"}, {"permitted", "0"}}},
    });
}

QStringList names(const QList<UnenforcedLimit> &limits)
{
    QStringList out;
    for (const UnenforcedLimit &limit : limits) {
        out << limit.name;
    }
    return out;
}

} // namespace

TEST(GVisorRuntime, isRecognizedByItsProgram)
{
    EXPECT_TRUE(
        GVisorRuntime::isGVisor({.name = QStringLiteral("runsc"), .handler = QStringLiteral("/usr/bin/runsc")}));
    EXPECT_TRUE(GVisorRuntime::isGVisor({.name = QStringLiteral("gvisor"), .handler = QStringLiteral("runsc")}));
    EXPECT_FALSE(GVisorRuntime::isGVisor({.name = QStringLiteral("runc"), .handler = QStringLiteral("runc")}));
    EXPECT_FALSE(GVisorRuntime::isGVisor({}));
}

TEST(GVisorRuntime, platformIsPtraceUnlessTheRuntimeArgumentsChooseAnother)
{
    EXPECT_EQ(GVisorRuntime::platform({.name = QStringLiteral("runsc")}), "ptrace");
    EXPECT_EQ(
        GVisorRuntime::platform({.name = QStringLiteral("runsc"),
                                 .arguments = {QStringLiteral("--network=none"), QStringLiteral("--platform=kvm")}}),
        "kvm");
    EXPECT_EQ(GVisorRuntime::platform(
                  {.name = QStringLiteral("runsc"), .arguments = {QStringLiteral("-platform"), QStringLiteral("kvm")}}),
              "kvm");
}

TEST(GVisorRuntime, whatGVisorReplacesIsNotedAndWhatItCannotShowIsSaid)
{
    const ContainerSpec spec = hardenedSpec();
    const EnforcedLimits limits = gvisorReport();
    const QList<UnenforcedLimit> missing = limits.compare(spec);
    ASSERT_EQ(names(missing),
              QStringList({"memory", "pids", "cpus", "read_only_root", "seccomp", "no_new_privs", "capabilities"}));

    const auto assessment = GVisorRuntime::assess(spec, limits, missing, 512LL * 1024 * 1024);

    EXPECT_TRUE(assessment.missing.isEmpty()) << names(assessment.missing).join(',').toStdString();
    EXPECT_TRUE(assessment.note.contains("seccomp: the profile is not applied inside gVisor"))
        << assessment.note.toStdString();
    EXPECT_TRUE(assessment.note.contains("memory: 512 MiB on the whole sandbox's cgroup"))
        << assessment.note.toStdString();
    EXPECT_TRUE(assessment.note.contains("read-only root")) << assessment.note.toStdString();
}

TEST(GVisorRuntime, aMemoryLimitTheEngineDoesNotShowStaysMissing)
{
    const ContainerSpec spec = hardenedSpec();
    const EnforcedLimits limits = gvisorReport();

    const auto assessment = GVisorRuntime::assess(spec, limits, limits.compare(spec), std::nullopt);

    EXPECT_EQ(names(assessment.missing), QStringList{"memory"});
}

TEST(GVisorRuntime, limitsGVisorDoesNotExplainStayMissing)
{
    ContainerSpec spec = hardenedSpec();
    spec.network = ContainerNetwork::none();
    EnforcedLimits limits = gvisorReport();
    limits.networkInterfaces = {QStringLiteral("lo"), QStringLiteral("eth0")};
    limits.capabilities.insert(QStringLiteral("effective"), 0x20);

    const auto assessment = GVisorRuntime::assess(spec, limits, limits.compare(spec), 512LL * 1024 * 1024);

    EXPECT_EQ(names(assessment.missing), QStringList({"network", "capabilities"}));
}

TEST(GVisorRuntime, theSandboxsTasksAreBoundedInsideAndTheSentrysThreadsOnTheHost)
{
    ContainerSpec spec = hardenedSpec();
    spec.ulimits.append({QStringLiteral("nproc"), 1024, 1024});

    GVisorRuntime::adapt(spec);

    EXPECT_EQ(spec.ulimits.last().soft, 256);
    EXPECT_EQ(spec.ulimits.last().hard, 256);
    EXPECT_EQ(spec.pidsLimit, 256 * GVisorRuntime::kHostTasksPerTask);
    EXPECT_EQ(spec.ulimits.first().soft, 1024) << "other limits stay";
}

TEST(GVisorRuntime, refusalsWithEnosysReachGVisorsKernelAndThoseWithEpermStay)
{
    ContainerSpec spec = hardenedSpec();
    spec.seccompProfile = R"({"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 38, "syscalls": [
        {"names": ["read", "shmget", "mq_open"], "action": "SCMP_ACT_ALLOW"},
        {"names": ["semget"], "action": "SCMP_ACT_ALLOW"},
        {"names": ["mount", "keyctl"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1},
        {"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38}]})";

    GVisorRuntime::adapt(spec);

    const QJsonObject profile = QJsonDocument::fromJson(spec.seccompProfile).object();
    EXPECT_EQ(profile.value("defaultAction").toString(), "SCMP_ACT_ALLOW");
    EXPECT_FALSE(profile.contains("defaultErrnoRet"));
    const QJsonArray expected = QJsonDocument::fromJson(R"([
        {"names": ["read"], "action": "SCMP_ACT_ALLOW"},
        {"names": ["mount", "keyctl"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1},
        {"names": ["clone3"], "action": "SCMP_ACT_ALLOW"},
        {"names": ["shmget", "semget", "msgget", "mq_open"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1}])")
                                    .array();
    EXPECT_EQ(profile.value("syscalls").toArray(), expected) << spec.seccompProfile.toStdString();
}

TEST(GVisorRuntime, theEnginesDefaultProfileStaysTheEngines)
{
    ContainerSpec spec = hardenedSpec();
    spec.seccompProfile.clear();

    GVisorRuntime::adapt(spec);

    EXPECT_TRUE(spec.seccompProfile.isEmpty());
}

TEST(GVisorRuntime, itsDescriptionSaysWhetherTheSentryAppliesTheProfile)
{
    OciRuntime runtime{QStringLiteral("runsc"),
                       QStringLiteral("/usr/bin/runsc"),
                       {QStringLiteral("--network=none"), QStringLiteral("--oci-seccomp")}};
    EXPECT_TRUE(GVisorRuntime::description(runtime).contains("its Sentry applies the seccomp profile"))
        << GVisorRuntime::description(runtime).toStdString();
    runtime.arguments = {QStringLiteral("--network=none")};
    EXPECT_TRUE(GVisorRuntime::description(runtime).contains("the seccomp profile is not loaded inside it"))
        << GVisorRuntime::description(runtime).toStdString();
}
