#include "secrets/RegistryCredentialStore.h"

#include "secrets/MemorySecretStore.h"

#include <gtest/gtest.h>

using namespace sandbox;

namespace {

TEST(RegistryCredentialStoreTest, keyIsDerivedFromTheRegistryHost)
{
    EXPECT_EQ(RegistryCredentialStore::secretKey(QStringLiteral("127.0.0.1:5000")),
              QStringLiteral("registry/127.0.0.1:5000"));
    EXPECT_EQ(RegistryCredentialStore::secretKey(QStringLiteral("http://127.0.0.1:5000/llm-sandbox/python:abc")),
              QStringLiteral("registry/127.0.0.1:5000"));
}

TEST(RegistryCredentialStoreTest, savedLoginIsFoundByItsRegistryAndRemoved)
{
    MemorySecretStore secrets;
    RegistryCredentialStore store(secrets);
    const RegistryCredentials login{
        .username = QStringLiteral("alice"), .password = QStringLiteral("pw"), .serverAddress = "Reg.Example:5000"};
    ASSERT_TRUE(store.save(login).result().ok());

    const auto loaded = store.load(QStringLiteral("reg.example:5000/llm-sandbox/ruby:1")).result();
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    ASSERT_TRUE(loaded->has_value());
    EXPECT_EQ((*loaded)->username, QStringLiteral("alice"));
    EXPECT_EQ((*loaded)->password, QStringLiteral("pw"));
    EXPECT_EQ((*loaded)->serverAddress, QStringLiteral("reg.example:5000"));

    const auto other = store.load(QStringLiteral("other.example")).result();
    ASSERT_TRUE(other.ok());
    EXPECT_FALSE(other->has_value());

    ASSERT_TRUE(store.remove(QStringLiteral("reg.example:5000")).result().ok());
    const auto removed = store.load(QStringLiteral("reg.example:5000")).result();
    ASSERT_TRUE(removed.ok());
    EXPECT_FALSE(removed->has_value());
    EXPECT_TRUE(store.remove(QStringLiteral("reg.example:5000")).result().ok()) << "removing nothing succeeds";
}

TEST(RegistryCredentialStoreTest, unusableKeychainIsTheStoresError)
{
    MemorySecretStore secrets;
    secrets.setUnavailable(QStringLiteral("no usable system keychain (no D-Bus session bus)"));
    RegistryCredentialStore store(secrets);
    const RegistryCredentials login{.username = "u", .password = "p", .serverAddress = "r:1"};
    const Result<void> saved = store.save(login).result();
    ASSERT_FALSE(saved.ok());
    EXPECT_EQ(saved.error().message, QStringLiteral("no usable system keychain (no D-Bus session bus)"));
    EXPECT_FALSE(store.load(QStringLiteral("r:1")).result().ok());
}

TEST(RegistryCredentialStoreTest, entryThatIsNoLoginIsAnErrorThatDoesNotQuoteIt)
{
    MemorySecretStore secrets;
    ASSERT_TRUE(secrets.set(QStringLiteral("registry/r:1"), "hunter2").result().ok());
    RegistryCredentialStore store(secrets);
    const auto loaded = store.load(QStringLiteral("r:1")).result();
    ASSERT_FALSE(loaded.ok());
    EXPECT_FALSE(loaded.error().message.contains(QStringLiteral("hunter2"))) << loaded.error().message.toStdString();
    EXPECT_TRUE(loaded.error().message.contains(QStringLiteral("images logout r:1")));
}

} // namespace
