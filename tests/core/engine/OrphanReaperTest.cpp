#include "engine/OrphanReaper.h"

#include <QCoreApplication>
#include <QSysInfo>
#include <gtest/gtest.h>

using namespace sandbox;

TEST(OrphanReaperTest, ownIdentityIsHostPidAndStartTime)
{
    const auto owner = OrphanReaper::Owner::parse(OrphanReaper::ownIdentity());
    ASSERT_TRUE(owner.has_value());
    EXPECT_EQ(owner->host, QSysInfo::machineHostName());
    EXPECT_EQ(owner->pid, QString::number(QCoreApplication::applicationPid()));
    EXPECT_FALSE(owner->startTime.isEmpty());
    EXPECT_EQ(owner->startTime, OrphanReaper::processStartTime(owner->pid));
}

TEST(OrphanReaperTest, identitiesThatAreNotThreeFieldsAreRefused)
{
    EXPECT_FALSE(OrphanReaper::Owner::parse(QStringLiteral("host:1")).has_value());
    EXPECT_FALSE(OrphanReaper::Owner::parse(QStringLiteral("host:1:2:3")).has_value());
    EXPECT_FALSE(OrphanReaper::Owner::parse(QString()).has_value());
    EXPECT_FALSE(OrphanReaper::Owner::parse(QStringLiteral(":1:2")).has_value());
}

TEST(OrphanReaperTest, ourOwnProcessHasNotEnded)
{
    const auto owner = OrphanReaper::Owner::parse(OrphanReaper::ownIdentity());
    ASSERT_TRUE(owner.has_value());
    EXPECT_FALSE(OrphanReaper::ownerEnded(*owner, QSysInfo::machineHostName()));
}

TEST(OrphanReaperTest, aReusedPidWithAnotherStartTimeHasEnded)
{
    auto owner = OrphanReaper::Owner::parse(OrphanReaper::ownIdentity());
    ASSERT_TRUE(owner.has_value());
    owner->startTime = "1";
    EXPECT_TRUE(OrphanReaper::ownerEnded(*owner, QSysInfo::machineHostName()));
}

TEST(OrphanReaperTest, aPidWithoutProcessHasEnded)
{
    const auto owner = OrphanReaper::Owner::parse(QSysInfo::machineHostName() + QStringLiteral(":999999999:1"));
    ASSERT_TRUE(owner.has_value());
    EXPECT_TRUE(OrphanReaper::ownerEnded(*owner, QSysInfo::machineHostName()));
}

TEST(OrphanReaperTest, anotherHostsOwnerIsNeverJudged)
{
    const auto owner = OrphanReaper::Owner::parse(QStringLiteral("another-host:999999999:1"));
    ASSERT_TRUE(owner.has_value());
    EXPECT_FALSE(OrphanReaper::ownerEnded(*owner, QSysInfo::machineHostName()));
}

TEST(OrphanReaperTest, onlyNumericPidsAreLookedUp)
{
    EXPECT_TRUE(OrphanReaper::processStartTime(QStringLiteral("../1")).isEmpty());
    EXPECT_TRUE(OrphanReaper::processStartTime(QString()).isEmpty());
    EXPECT_FALSE(OrphanReaper::processStartTime(QStringLiteral("self")).isEmpty());
}
