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
    const QString host = QSysInfo::machineHostName();
    const QString dead = createContainer(host + ":999999999:1");
    const QString live = createContainer(ExecutionEngine::ownerIdentity());
    const QString elsewhere = createContainer("another-host:1:1");

    auto engine = test::engineFor(GetParam());
    EXPECT_GE(engine->removeOrphanedContainers(), 1);
    EXPECT_FALSE(exists(dead));
    EXPECT_TRUE(exists(live));
    EXPECT_TRUE(exists(elsewhere));

    for (const QString &id : {live, elsewhere}) {
        EXPECT_TRUE(test::backendFor(GetParam())->removeContainer(id).ok());
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, OrphanContainersTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);
