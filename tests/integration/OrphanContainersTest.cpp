// Containers of an llm-sandbox process that was killed before it could clean up are removed
// by the next engine; those of live processes and other hosts are left alone.
#include "BackendTestSupport.h"
#include "lang/LanguageRegistry.h"

#include <QSysInfo>
#include <gtest/gtest.h>

using namespace sandbox;

class OrphanContainersTest : public ::testing::TestWithParam<std::string>
{
protected:
    QString createContainer(const QString &owner)
    {
        auto engine = test::engineFor(GetParam());
        const Language python = *LanguageRegistry::instance().find("python");
        ContainerSpec spec;
        spec.image = *engine->catalog().runImage(python);
        spec.command = {"true"};
        spec.labels = {{ExecutionEngine::containerLabel(), "orphan-test"}, {ExecutionEngine::ownerLabel(), owner}};
        spec.ulimits = {{"nofile", 1024, 1024}, {"nproc", 512, 512}};
        auto id = test::backendFor(GetParam())->createContainer(spec);
        EXPECT_TRUE(id.ok()) << id.error().message.toStdString();
        return id.ok() ? *id : QString();
    }
    bool exists(const QString &id)
    {
        auto all = test::backendFor(GetParam())->listContainers(ExecutionEngine::containerLabel(), "orphan-test");
        return all.ok() && all->contains(id);
    }
};

TEST_P(OrphanContainersTest, containersOfEndedProcessesAreRemovedOthersKept)
{
    // Identities: host, pid, start time, machine id, boot id, PID namespace, uid.
    const auto ownWith = [](int field, const QString &value) {
        QStringList parts = ExecutionEngine::ownerIdentity().split(QLatin1Char(':'));
        parts[field] = value;
        return parts.join(QLatin1Char(':'));
    };
    const QString dead = createContainer(ownWith(1, QStringLiteral("999999999")));
    const QString live = createContainer(ExecutionEngine::ownerIdentity());
    const QString elsewhere = createContainer("another-host:1:1");
    // Our host name and a pid with no process here, but another machine, PID namespace or user: a namesake machine
    // sharing the namespace, a Flatpak app, /proc hiding another user's processes. Not ours to judge.
    QStringList namesakes;
    for (const auto &[field, value] :
         std::initializer_list<std::pair<int, QString>>{{3, QStringLiteral("0123456789abcdef0123456789abcdef")},
                                                        {5, QStringLiteral("1")},
                                                        {6, QStringLiteral("4242")}}) {
        QStringList parts = ownWith(1, QStringLiteral("999999999")).split(QLatin1Char(':'));
        parts[field] = value;
        namesakes << createContainer(parts.join(QLatin1Char(':')));
    }
    // An earlier version's identity cannot be told from a namesake's: left for the user.
    const QString legacy = createContainer(QSysInfo::machineHostName() + ":999999999:1");

    auto engine = test::engineFor(GetParam());
    EXPECT_GE(engine->removeOrphanedContainers(), 1);
    EXPECT_FALSE(exists(dead));
    const QStringList kept = QStringList{live, elsewhere, legacy} + namesakes;
    for (const QString &id : kept) {
        EXPECT_TRUE(exists(id)) << id.toStdString();
    }
    for (const QString &id : kept) {
        EXPECT_TRUE(test::backendFor(GetParam())->removeContainer(id).ok());
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, OrphanContainersTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);
