#include "engine/ContainerSpecFactory.h"

#include "engine/SandboxContainer.h"
#include "folders/FolderSnapshot.h"

#include <QDir>
#include <QSet>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

const Ulimit *ulimit(const ContainerSpec &spec, const char *name)
{
    for (const Ulimit &each : spec.ulimits) {
        if (each.name == QLatin1String(name)) {
            return &each;
        }
    }
    return nullptr;
}

} // namespace

TEST(ContainerSpecFactoryTest, defaultSpecIsHardened)
{
    const SandboxSettings settings;
    const ContainerSpec spec = ContainerSpecFactory(settings, QStringLiteral("host:1:2")).make(QStringLiteral("img:1"));
    EXPECT_EQ(spec.image, QStringLiteral("img:1"));
    EXPECT_EQ(spec.command, QStringList{SandboxContainer::runnerPath()});
    const int uid = spec.user.section(QLatin1Char(':'), 0, 0).toInt();
    EXPECT_GE(uid, ContainerSpecFactory::kFirstSandboxUid);
    EXPECT_EQ(spec.user, QStringLiteral("%1:%1").arg(uid));
    EXPECT_EQ(spec.workingDir, QStringLiteral("/sandbox"));
    EXPECT_TRUE(spec.network.isNone());
    EXPECT_EQ(spec.capDrop, QStringList{QStringLiteral("ALL")});
    EXPECT_TRUE(spec.noNewPrivileges);
    EXPECT_FALSE(spec.securityOpt.contains(QStringLiteral("no-new-privileges"))) << "a flag, not an engine option";
    EXPECT_FALSE(spec.seccompProfile.isEmpty());
    EXPECT_TRUE(spec.readOnlyRootfs);
    EXPECT_FALSE(spec.privileged);
    EXPECT_EQ(spec.memoryBytes, settings.memoryBytes);
    EXPECT_EQ(spec.cpus, settings.cpus);
    EXPECT_EQ(spec.pidsLimit, settings.pidsLimit);
}

TEST(ContainerSpecFactoryTest, ulimitsComeFromTheSettingsAndCoreDumpsAreOff)
{
    SandboxSettings settings;
    settings.nofileLimit = 77;
    settings.nprocLimit = 88;
    settings.fileSizeLimitBytes = 99;
    const ContainerSpec spec = ContainerSpecFactory(settings, QStringLiteral("h:1:2")).make(QStringLiteral("i"));
    ASSERT_NE(ulimit(spec, "nofile"), nullptr);
    EXPECT_EQ(ulimit(spec, "nofile")->soft, 77);
    EXPECT_EQ(ulimit(spec, "nofile")->hard, 77);
    ASSERT_NE(ulimit(spec, "nproc"), nullptr);
    EXPECT_EQ(ulimit(spec, "nproc")->hard, 88);
    ASSERT_NE(ulimit(spec, "fsize"), nullptr);
    EXPECT_EQ(ulimit(spec, "fsize")->soft, 99);
    ASSERT_NE(ulimit(spec, "core"), nullptr);
    EXPECT_EQ(ulimit(spec, "core")->hard, 0);
}

TEST(ContainerSpecFactoryTest, scratchSpaceIsTmpfsOwnedByTheSandboxUser)
{
    SandboxSettings settings;
    settings.user = QStringLiteral("1234:5678");
    settings.workdirBytes = 1000;
    settings.tmpBytes = 2000;
    const ContainerSpec spec = ContainerSpecFactory(settings, QStringLiteral("h:1:2")).make(QStringLiteral("i"));
    EXPECT_EQ(spec.user, QStringLiteral("1234:5678"));
    ASSERT_EQ(spec.tmpfs.size(), 2);
    ASSERT_NE(spec.tmpfsAt(QStringLiteral("/sandbox")), nullptr);
    EXPECT_EQ(*spec.tmpfsAt(QStringLiteral("/sandbox")),
              (Tmpfs{.path = QStringLiteral("/sandbox"), .sizeBytes = 1000, .mode = 0755, .ownedBySandboxUser = true}));
    ASSERT_NE(spec.tmpfsAt(QStringLiteral("/tmp")), nullptr);
    EXPECT_EQ(*spec.tmpfsAt(QStringLiteral("/tmp")),
              (Tmpfs{.path = QStringLiteral("/tmp"), .sizeBytes = 2000, .mode = 01777}));
    EXPECT_EQ(spec.tmpfsAt(QStringLiteral("/tmp"))->mountOptions().join(u','),
              QStringLiteral("rw,exec,nosuid,nodev,size=2000,mode=1777"));
}

TEST(ContainerSpecFactoryTest, theSettingsNoNewPrivilegesIsAFlagAndTheOtherOptionsPassOn)
{
    SandboxSettings settings;
    settings.securityOpt = {QStringLiteral("apparmor=unconfined"), QStringLiteral("label=disable")};
    const ContainerSpecFactory without(settings, QStringLiteral("h:1:2"));
    EXPECT_FALSE(without.make(QStringLiteral("i")).noNewPrivileges) << "the settings no longer ask for it";
    EXPECT_EQ(without.make(QStringLiteral("i")).securityOpt, settings.securityOpt);
    for (const char *asked : {"no-new-privileges", "no-new-privileges:true", "no-new-privileges=true"}) {
        settings.securityOpt = {QLatin1String(asked)};
        EXPECT_TRUE(ContainerSpecFactory(settings, QStringLiteral("h:1:2")).make(QStringLiteral("i")).noNewPrivileges)
            << asked;
    }
    settings.securityOpt = {QStringLiteral("no-new-privileges:false")};
    EXPECT_FALSE(ContainerSpecFactory(settings, QStringLiteral("h:1:2")).make(QStringLiteral("i")).noNewPrivileges);
}

TEST(ContainerSpecFactoryTest, everySandboxHasAUserIdOfItsOwnAboveTheDesktopAccounts)
{
    // RLIMIT_NPROC counts a uid's threads host-wide: no sandbox may share one with a person or another sandbox.
    const ContainerSpecFactory factory(SandboxSettings{}, QStringLiteral("h:1:2"));
    QSet<QString> users;
    for (int i = 0; i < 1000; ++i) {
        const ContainerSpec spec = factory.make(QStringLiteral("i"));
        const int uid = spec.user.section(QLatin1Char(':'), 0, 0).toInt();
        EXPECT_GE(uid, ContainerSpecFactory::kFirstSandboxUid);
        EXPECT_LT(uid, ContainerSpecFactory::kFirstSandboxUid + ContainerSpecFactory::kSandboxUids);
        EXPECT_LT(uid, 65536) << "outside the ids a rootless engine maps";
        EXPECT_TRUE(spec.tmpfsAt(QStringLiteral("/sandbox"))->ownedBySandboxUser);
        users.insert(spec.user);
    }
    EXPECT_EQ(users.size(), 1000);
}

TEST(ContainerSpecFactoryTest, labelsNameTheContainerAndItsOwner)
{
    const ContainerSpecFactory factory(SandboxSettings{}, QStringLiteral("host:42:777"));
    const ContainerSpec first = factory.make(QStringLiteral("i"));
    const ContainerSpec second = factory.make(QStringLiteral("i"));
    EXPECT_EQ(first.labels.value(ContainerSpecFactory::ownerLabel()), QStringLiteral("host:42:777"));
    EXPECT_EQ(first.labels.value(ContainerSpecFactory::runLabel()).size(), 16);
    EXPECT_NE(first.labels.value(ContainerSpecFactory::runLabel()),
              second.labels.value(ContainerSpecFactory::runLabel()));
}

TEST(ContainerSpecFactoryTest, anInstallStepsNetworkOverridesTheSettings)
{
    const ContainerSpecFactory factory(SandboxSettings{}, QStringLiteral("h:1:2"));
    const ContainerNetwork bridge = ContainerNetwork::named(QStringLiteral("bridge"));
    EXPECT_EQ(factory.make(QStringLiteral("i"), bridge).network, bridge);
    EXPECT_EQ(factory.make(QStringLiteral("i")).network, ContainerNetwork::none());
    SandboxSettings named;
    named.networkMode = QStringLiteral("lab-net");
    EXPECT_EQ(ContainerSpecFactory(named, QStringLiteral("h:1:2")).make(QStringLiteral("i")).network,
              ContainerNetwork::named(QStringLiteral("lab-net")));
}

TEST(ContainerSpecFactoryTest, sharedFoldersAreReadOnlyCopiesAndAWritableOneAScratchSpaceOfTheSandboxsOwn)
{
    QTemporaryDir root;
    ASSERT_TRUE(root.isValid());
    ASSERT_TRUE(QDir(root.path()).mkpath(QStringLiteral("sales")) && QDir(root.path()).mkpath(QStringLiteral("out")));
    const SharedFolder sales{root.filePath(QStringLiteral("sales")), QStringLiteral("sales"), false};
    const SharedFolder out{root.filePath(QStringLiteral("out")), QStringLiteral("out"), true};
    ASSERT_FALSE(FolderSnapshot::makeView(sales).isEmpty());
    ASSERT_FALSE(FolderSnapshot::makeView(out).isEmpty());
    SandboxSettings settings;
    settings.sharedFolders = {sales, out};
    const ContainerSpecFactory factory(settings, QStringLiteral("host:1:2"));
    const ContainerSpec spec = factory.make(QStringLiteral("img:1"));
    EXPECT_EQ(spec.binds,
              (QList<BindMount>{{FolderSnapshot::viewOf(sales), QStringLiteral("/data/sales"), true},
                                {FolderSnapshot::viewOf(out), QStringLiteral("/opt/llm-sandbox/shared/out"), true}}))
        << "nothing of the host is writable to a sandbox";
    const auto scratch = std::find_if(spec.tmpfs.cbegin(), spec.tmpfs.cend(),
                                      [](const Tmpfs &each) { return each.path == QLatin1String("/data/out"); });
    ASSERT_NE(scratch, spec.tmpfs.cend());
    EXPECT_TRUE(scratch->ownedBySandboxUser);
    EXPECT_FALSE(scratch->executable);
    EXPECT_FALSE(scratch->readOnly);
    const QList<RunnerResultDir> resultDirs{
        {QStringLiteral("/data/out"), QStringLiteral("/opt/llm-sandbox/shared/out")}};
    EXPECT_EQ(ContainerSpecFactory::resultDirsOf(settings.sharedFolders), resultDirs);

    const ContainerSpec without = factory.make(QStringLiteral("img:1"), {}, false);
    EXPECT_TRUE(without.binds.isEmpty());
    EXPECT_EQ(without.tmpfs.size(), spec.tmpfs.size() - 1) << "a builder gets no folder";
    QDir(FolderSnapshot::viewOf(sales)).removeRecursively();
    QDir(FolderSnapshot::viewOf(out)).removeRecursively();
}
