#include "secrets/MemorySecretStore.h"

#include <gtest/gtest.h>

using namespace sandbox;

namespace {

TEST(MemorySecretStoreTest, storesReplacesAndRemovesSecrets)
{
    MemorySecretStore store;
    EXPECT_FALSE(store.get(QStringLiteral("k")).result()->has_value());
    EXPECT_TRUE(store.set(QStringLiteral("k"), "one").result().ok());
    EXPECT_TRUE(store.set(QStringLiteral("k"), "two").result().ok());
    EXPECT_EQ(store.get(QStringLiteral("k")).result()->value(), "two");
    EXPECT_TRUE(store.remove(QStringLiteral("k")).result().ok());
    EXPECT_FALSE(store.get(QStringLiteral("k")).result()->has_value());
    EXPECT_TRUE(store.remove(QStringLiteral("k")).result().ok()) << "removing a missing key succeeds";
}

TEST(MemorySecretStoreTest, unavailableStoreFailsEveryCall)
{
    MemorySecretStore store;
    store.setUnavailable(QStringLiteral("no keychain"));
    EXPECT_EQ(store.get(QStringLiteral("k")).result().error().message, QStringLiteral("no keychain"));
    EXPECT_FALSE(store.set(QStringLiteral("k"), "x").result().ok());
    EXPECT_FALSE(store.remove(QStringLiteral("k")).result().ok());
    store.setUnavailable({});
    EXPECT_TRUE(store.set(QStringLiteral("k"), "x").result().ok());
}

} // namespace
