#include "backend/PodmanBackend.h"
#include "settings/SandboxSettings.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

HttpEndpoint unusedEndpoint()
{
    // Nothing is sent: securityOptions() only builds the create body's SecurityOpt.
    return *HttpEndpoint::parse(QStringLiteral("unix:///nonexistent.sock"), false, {});
}

ContainerSpec specWithProfile(const QByteArray &profile, QStringList securityOpt = {}, bool noNewPrivileges = true)
{
    ContainerSpec spec;
    spec.securityOpt = std::move(securityOpt);
    spec.noNewPrivileges = noNewPrivileges;
    spec.seccompProfile = profile;
    return spec;
}

const QByteArray kProfile = R"({"defaultAction":"SCMP_ACT_ERRNO","syscalls":[]})";

} // namespace

TEST(SeccompProfile, builtinProfileRefusesNamespacesMountsKeyringsBpfPtraceAndModules)
{
    const QJsonObject profile = QJsonDocument::fromJson(builtinSeccompProfile()).object();
    ASSERT_EQ(profile.value("defaultAction").toString(), "SCMP_ACT_ERRNO");
    QStringList refused;
    QStringList allowed;
    for (const QJsonValue &value : profile.value("syscalls").toArray()) {
        const QJsonObject rule = value.toObject();
        QStringList names;
        for (const QJsonValue &name : rule.value("names").toArray()) {
            names << name.toString();
        }
        if (rule.value("action").toString() == "SCMP_ACT_ALLOW") {
            // clone is allowed only without namespace flags (an argument filter).
            if (!(names == QStringList{"clone"} && !rule.value("args").toArray().isEmpty())) {
                allowed << names;
            }
        } else if (rule.value("errnoRet").toInt() == 1 && rule.value("args").toArray().isEmpty()) {
            refused << names;
        }
    }
    EXPECT_GT(allowed.size(), 250) << "ordinary system calls must stay allowed";
    for (const char *call : {"read", "write", "execve", "mmap", "futex", "wait4", "socket", "setrlimit"}) {
        EXPECT_TRUE(allowed.contains(call)) << call;
    }
    for (const char *call :
         {"unshare",      "setns",       "mount",           "umount2",       "keyctl",           "add_key",
          "request_key",  "bpf",         "perf_event_open", "userfaultfd",   "ptrace",           "personality",
          "kexec_load",   "init_module", "finit_module",    "delete_module", "process_vm_readv", "io_uring_setup",
          "settimeofday", "pivot_root"}) {
        EXPECT_TRUE(refused.contains(call)) << call << " is not refused";
        EXPECT_FALSE(allowed.contains(call)) << call << " is allowed";
    }
    EXPECT_FALSE(allowed.contains("clone3")) << "clone3's flags cannot be filtered";
}

TEST(SeccompProfile, dockerGetsTheProfileAsJsonText)
{
    DockerBackend docker(unusedEndpoint());
    auto options = docker.securityOptions(specWithProfile(kProfile));
    ASSERT_TRUE(options.ok()) << options.error().message.toStdString();
    EXPECT_EQ(*options, (QStringList{"no-new-privileges", "seccomp=" + QString::fromUtf8(kProfile)}));
}

TEST(SeccompProfile, noProfileLeavesTheEnginesDefault)
{
    DockerBackend docker(unusedEndpoint());
    EXPECT_EQ(*docker.securityOptions(specWithProfile({})), QStringList{"no-new-privileges"});
    PodmanBackend podman(unusedEndpoint());
    EXPECT_EQ(*podman.securityOptions(specWithProfile({})), QStringList{"no-new-privileges"});
}

TEST(SeccompProfile, aProfileNamedInSecurityOptWins)
{
    QTemporaryDir dir;
    const QString path = dir.filePath("mine.json");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(kProfile);
    file.close();

    DockerBackend docker(unusedEndpoint());
    EXPECT_EQ(*docker.securityOptions(specWithProfile("{}", {"seccomp=unconfined"}, false)),
              QStringList{"seccomp=unconfined"});
    // Docker's API wants the text: a path is read, like the docker CLI does.
    EXPECT_EQ(*docker.securityOptions(specWithProfile("{}", {"seccomp=" + path})),
              (QStringList{"no-new-privileges", "seccomp=" + QString::fromUtf8(kProfile)}));
    EXPECT_FALSE(docker.securityOptions(specWithProfile("{}", {"seccomp=" + dir.filePath("missing.json")})).ok());

    PodmanBackend podman(unusedEndpoint());
    EXPECT_EQ(*podman.securityOptions(specWithProfile("{}", {"seccomp=" + path}, false)),
              QStringList{"seccomp=" + path});
}

TEST(SeccompProfile, podmanGetsThePathOfAFileHoldingTheProfile)
{
    QStandardPaths::setTestModeEnabled(true);
    PodmanBackend podman(unusedEndpoint());
    auto options = podman.securityOptions(specWithProfile(kProfile));
    ASSERT_TRUE(options.ok()) << options.error().message.toStdString();
    ASSERT_EQ(options->size(), 2);
    EXPECT_EQ(options->first(), "no-new-privileges");
    ASSERT_TRUE(options->last().startsWith("seccomp=/")) << options->last().toStdString();
    QFile written(options->last().mid(8));
    ASSERT_TRUE(written.open(QIODevice::ReadOnly));
    EXPECT_EQ(written.readAll(), kProfile);
    // The same profile again: the same file.
    EXPECT_EQ(*podman.securityOptions(specWithProfile(kProfile)), *options);
}

TEST(TmpfsOptions, eachEngineGivesTheScratchSpaceToTheSandboxsUserInItsOwnWords)
{
    ContainerSpec spec;
    spec.user = QStringLiteral("20001:20001");
    spec.tmpfs = {
        Tmpfs{.path = QStringLiteral("/sandbox"), .sizeBytes = 1000, .mode = 0755, .ownedBySandboxUser = true},
        Tmpfs{.path = QStringLiteral("/tmp"), .sizeBytes = 2000, .executable = false}};
    const DockerBackend docker(unusedEndpoint());
    const QHash<QString, QString> dockers = docker.tmpfsMounts(spec);
    EXPECT_EQ(dockers.value(QStringLiteral("/sandbox")),
              QStringLiteral("rw,exec,nosuid,nodev,size=1000,mode=0755,uid=20001,gid=20001"));
    EXPECT_EQ(dockers.value(QStringLiteral("/tmp")), QStringLiteral("rw,noexec,nosuid,nodev,size=2000,mode=1777"));
    spec.user = QStringLiteral("4321");
    EXPECT_TRUE(
        docker.tmpfsMounts(spec).value(QStringLiteral("/sandbox")).endsWith(QStringLiteral("uid=4321,gid=4321")))
        << "a user without a group: the group of the same number";

    // Podman refuses uid= and gid= and fills a tmpfs from the image unless told not to.
    const PodmanBackend podman(unusedEndpoint());
    const QHash<QString, QString> podmans = podman.tmpfsMounts(spec);
    EXPECT_EQ(podmans.value(QStringLiteral("/sandbox")),
              QStringLiteral("rw,exec,nosuid,nodev,size=1000,mode=0755,U,notmpcopyup"));
    EXPECT_EQ(podmans.value(QStringLiteral("/tmp")),
              QStringLiteral("rw,noexec,nosuid,nodev,size=2000,mode=1777,notmpcopyup"));
    EXPECT_FALSE(podmans.contains(QStringLiteral("/run")));
    spec.readOnlyRootfs = true;
    EXPECT_EQ(podman.tmpfsMounts(spec).value(QStringLiteral("/run")),
              QStringLiteral("ro,noexec,nosuid,nodev,size=65536"))
        << "a read-only root gets no writable /run from Podman";
}
