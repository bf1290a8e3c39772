#include "mcp/http/BearerToken.h"

#include "secrets/MemorySecretStore.h"

#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::mcp;

namespace {

Result<BearerToken::Loaded> loadNow(SecretStore &store, const QByteArray &fromEnvironment = {})
{
    QFuture<Result<BearerToken::Loaded>> future = BearerToken::load(store, fromEnvironment);
    future.waitForFinished();
    return future.result();
}

TEST(BearerTokenTest, generatesLongUrlSafeRandomTokens)
{
    const QByteArray first = BearerToken::generate();
    EXPECT_EQ(first.size(), 43); // 32 bytes in base64url without padding
    EXPECT_NE(first, BearerToken::generate());
    for (const char c : first) {
        EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') << c;
    }
    EXPECT_TRUE(BearerToken::validate(first).ok());
}

TEST(BearerTokenTest, matchesOnlyTheSameToken)
{
    const QByteArray token = BearerToken::generate();
    EXPECT_TRUE(BearerToken::matches(token, token));
    EXPECT_FALSE(BearerToken::matches(token.left(42), token));
    EXPECT_FALSE(BearerToken::matches(QByteArray(token + "x"), token));
    EXPECT_FALSE(BearerToken::matches({}, token));
    EXPECT_FALSE(BearerToken::matches({}, {})) << "a server without a token lets nobody in";
}

TEST(BearerTokenTest, readsTheAuthorizationHeader)
{
    EXPECT_EQ(BearerToken::fromAuthorizationHeader("Bearer abc"), "abc");
    EXPECT_EQ(BearerToken::fromAuthorizationHeader("bearer   abc  "), "abc");
    EXPECT_EQ(BearerToken::fromAuthorizationHeader("Basic abc"), "");
    EXPECT_EQ(BearerToken::fromAuthorizationHeader("Bearer"), "");
    EXPECT_EQ(BearerToken::fromAuthorizationHeader(""), "");
}

TEST(BearerTokenTest, isCreatedOnFirstUseAndKeptInTheStore)
{
    MemorySecretStore store;
    const Result<BearerToken::Loaded> first = loadNow(store);
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(first->source, BearerToken::Source::Created);

    const Result<BearerToken::Loaded> second = loadNow(store);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(second->source, BearerToken::Source::SecretStore);
    EXPECT_EQ(second->token, first->token);

    QFuture<Result<std::optional<QByteArray>>> stored = store.get(BearerToken::kSecretKey);
    EXPECT_EQ(stored.result()->value(), first->token);
}

TEST(BearerTokenTest, environmentTokenWinsAndIsChecked)
{
    MemorySecretStore store;
    const QByteArray mine(40, 'k');
    const Result<BearerToken::Loaded> loaded = loadNow(store, mine);
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(loaded->token, mine);
    EXPECT_EQ(loaded->source, BearerToken::Source::Environment);
    EXPECT_FALSE(store.get(BearerToken::kSecretKey).result()->has_value()) << "the keychain is not touched";

    const Result<BearerToken::Loaded> shortOne = loadNow(store, "short");
    ASSERT_FALSE(shortOne.ok());
    EXPECT_TRUE(shortOne.error().message.contains(QLatin1String(BearerToken::kEnvironmentVariable)));
    EXPECT_FALSE(loadNow(store, QByteArray(40, ' ')).ok());
}

TEST(BearerTokenTest, unusableStoreIsAnError)
{
    MemorySecretStore store;
    store.setUnavailable(QStringLiteral("no keychain daemon"));
    const Result<BearerToken::Loaded> loaded = loadNow(store);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().message, QStringLiteral("no keychain daemon"));
}

} // namespace
