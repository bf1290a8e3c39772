#include "engine/OrphanReaper.h"

#include <QCoreApplication>
#include <QSysInfo>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace sandbox;

namespace {

/// Our own identity with one field changed.
QString ownWith(int field, const QString &value)
{
    QStringList parts = OrphanReaper::ownIdentity().split(QLatin1Char(':'));
    parts[field] = value;
    return parts.join(QLatin1Char(':'));
}

} // namespace

TEST(OrphanReaperTest, ownIdentityNamesTheProcessMachineBootNamespaceAndUser)
{
    const auto owner = OrphanReaper::Owner::parse(OrphanReaper::ownIdentity());
    ASSERT_TRUE(owner.has_value());
    EXPECT_EQ(owner->host, QSysInfo::machineHostName());
    EXPECT_EQ(owner->pid, QString::number(QCoreApplication::applicationPid()));
    EXPECT_FALSE(owner->startTime.isEmpty());
    EXPECT_EQ(owner->startTime, OrphanReaper::processStartTime(owner->pid));
    EXPECT_EQ(owner->machineId.toLatin1(), QSysInfo::machineUniqueId());
    EXPECT_EQ(owner->bootId.toLatin1(), QSysInfo::bootUniqueId());
    EXPECT_FALSE(owner->pidNamespace.isEmpty());
    EXPECT_EQ(owner->uid, QString::number(::getuid()));
    EXPECT_FALSE(owner->isLegacy());
    EXPECT_TRUE(owner->isLocal());
}

TEST(OrphanReaperTest, aDeadPidOfAnotherMachineBootNamespaceOrUserIsNeverJudged)
{
    // Fields: host, pid, start time, machine id, boot id, PID namespace, uid.
    const QString deadPid = ownWith(1, QStringLiteral("999999999"));
    const auto ours = OrphanReaper::Owner::parse(deadPid);
    ASSERT_TRUE(ours.has_value());
    EXPECT_TRUE(OrphanReaper::ownerEnded(*ours));
    for (const auto &[field, value] :
         std::initializer_list<std::pair<int, QString>>{{3, QStringLiteral("0123456789abcdef0123456789abcdef")},
                                                        {4, QStringLiteral("00000000-0000-0000-0000-000000000000")},
                                                        {5, QStringLiteral("1")},
                                                        {6, QStringLiteral("4242")}}) {
        QStringList parts = deadPid.split(QLatin1Char(':'));
        parts[field] = value;
        const auto elsewhere = OrphanReaper::Owner::parse(parts.join(QLatin1Char(':')));
        ASSERT_TRUE(elsewhere.has_value());
        EXPECT_FALSE(OrphanReaper::ownerEnded(*elsewhere)) << "field " << field;
    }
}

TEST(OrphanReaperTest, identitiesThatAreNotThreeOrSevenFieldsAreRefused)
{
    EXPECT_FALSE(OrphanReaper::Owner::parse(QStringLiteral("host:1")).has_value());
    EXPECT_FALSE(OrphanReaper::Owner::parse(QStringLiteral("host:1:2:3")).has_value());
    EXPECT_FALSE(OrphanReaper::Owner::parse(QStringLiteral("host:1:2:m:b::0")).has_value());
    EXPECT_TRUE(OrphanReaper::Owner::parse(QStringLiteral("host:1:2")).has_value());
    EXPECT_FALSE(OrphanReaper::Owner::parse(QString()).has_value());
    EXPECT_FALSE(OrphanReaper::Owner::parse(QStringLiteral(":1:2")).has_value());
}

TEST(OrphanReaperTest, ourOwnProcessHasNotEnded)
{
    const auto owner = OrphanReaper::Owner::parse(OrphanReaper::ownIdentity());
    ASSERT_TRUE(owner.has_value());
    EXPECT_FALSE(OrphanReaper::ownerEnded(*owner));
}

TEST(OrphanReaperTest, aReusedPidWithAnotherStartTimeHasEnded)
{
    auto owner = OrphanReaper::Owner::parse(OrphanReaper::ownIdentity());
    ASSERT_TRUE(owner.has_value());
    owner->startTime = "1";
    EXPECT_TRUE(OrphanReaper::ownerEnded(*owner));
}

TEST(OrphanReaperTest, anEarlierVersionsOwnerIsJudgedByItsHostName)
{
    const auto here = OrphanReaper::Owner::parse(QSysInfo::machineHostName() + QStringLiteral(":999999999:1"));
    ASSERT_TRUE(here.has_value());
    EXPECT_TRUE(here->isLegacy());
    EXPECT_TRUE(OrphanReaper::ownerEnded(*here));
    const auto elsewhere = OrphanReaper::Owner::parse(QStringLiteral("another-host:999999999:1"));
    ASSERT_TRUE(elsewhere.has_value());
    EXPECT_FALSE(OrphanReaper::ownerEnded(*elsewhere));
}

TEST(OrphanReaperTest, onlyNumericPidsAreLookedUp)
{
    EXPECT_TRUE(OrphanReaper::processStartTime(QStringLiteral("../1")).isEmpty());
    EXPECT_TRUE(OrphanReaper::processStartTime(QString()).isEmpty());
    EXPECT_FALSE(OrphanReaper::processStartTime(QStringLiteral("self")).isEmpty());
}
