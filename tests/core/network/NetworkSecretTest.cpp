// Secrets bound to hosts (issue 48): what may be written down about them, and the authority the proxy signs with.
#include "network/NetworkSecret.h"

#include "network/InterceptionAuthority.h"
#include "secrets/MemorySecretStore.h"
#include "secrets/NetworkSecretSource.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

NetworkAllowList allowList(const char *text)
{
    return *NetworkAllowList::parse(QString::fromLatin1(text));
}

TEST(NetworkSecret, isANameHostsAndAHeaderWithOnePlaceForTheValue)
{
    auto secret = NetworkSecret::make(QStringLiteral("GITHUB_TOKEN"), {QStringLiteral("API.GitHub.com")},
                                      QStringLiteral("Authorization:Bearer {}"));
    ASSERT_TRUE(secret) << qPrintable(secret.error().message);
    EXPECT_EQ(secret->hosts, QStringList{"api.github.com"});
    EXPECT_EQ(secret->header, "Authorization: Bearer {}");
    EXPECT_EQ(secret->headerName(), "Authorization");
    EXPECT_EQ(secret->headerValue("abc%20"), "Bearer abc%20");
    EXPECT_FALSE(secret->createdAt.isEmpty());

    const auto refused = [](const char *name, const QStringList &hosts, const char *header) {
        auto made = NetworkSecret::make(QString::fromLatin1(name), hosts, QString::fromLatin1(header));
        return !made && made.error().code == ErrorCode::BadRequest;
    };
    EXPECT_TRUE(refused("lower", {"a.test"}, "X: {}"));
    EXPECT_TRUE(refused("1ST", {"a.test"}, "X: {}"));
    EXPECT_TRUE(refused("PATH", {"a.test"}, "X: {}")) << "a variable the sandbox uses";
    EXPECT_TRUE(refused("HTTPS_PROXY", {"a.test"}, "X: {}"));
    EXPECT_TRUE(refused("LLM_SANDBOX_X", {"a.test"}, "X: {}"));
    EXPECT_TRUE(refused("TOKEN", {}, "X: {}")) << "bound to no host";
    EXPECT_TRUE(refused("TOKEN", {"*.github.com"}, "X: {}")) << "no wildcard";
    EXPECT_TRUE(refused("TOKEN", {"a.test:443"}, "X: {}")) << "no port";
    EXPECT_TRUE(refused("TOKEN", {"10.0.0.1"}, "X: {}")) << "no address";
    EXPECT_TRUE(refused("TOKEN", {"a.test"}, "X: Bearer")) << "nowhere for the value";
    EXPECT_TRUE(refused("TOKEN", {"a.test"}, "X: {} {}")) << "twice";
    EXPECT_TRUE(refused("TOKEN", {"a.test"}, "Bad Header: {}"));
    EXPECT_TRUE(refused("TOKEN", {"a.test"}, "X: \"{}\"")) << "a quote would end squid's value";
    EXPECT_TRUE(refused("TOKEN", {"a.test"}, "X: {}\r\nY: 1"));

    EXPECT_TRUE(NetworkSecret::checkValue("ghp_abc123-._~+/="));
    EXPECT_FALSE(NetworkSecret::checkValue(""));
    EXPECT_FALSE(NetworkSecret::checkValue("a\"b"));
    EXPECT_FALSE(NetworkSecret::checkValue("a\\b"));
    EXPECT_FALSE(NetworkSecret::checkValue("a\nb"));
    EXPECT_FALSE(NetworkSecret::checkValue(QByteArray(8193, 'a')));
}

TEST(NetworkSecret, isReachableWhenTheRunMayReachOneOfItsHosts)
{
    auto secret =
        *NetworkSecret::make(QStringLiteral("T"), {QStringLiteral("api.example.org")}, QStringLiteral("X-Key: {}"));
    EXPECT_TRUE(secret.isReachableWith(allowList("api.example.org")));
    EXPECT_TRUE(secret.isReachableWith(allowList("*.example.org")));
    EXPECT_TRUE(secret.isReachableWith(allowList("*")));
    EXPECT_FALSE(secret.isReachableWith(allowList("example.org")));
    EXPECT_FALSE(secret.isReachableWith(allowList("other.test")));
    EXPECT_FALSE(secret.isReachableWith(NetworkAllowList()));
}

TEST(NetworkSecretsFile, keepsTheBindingsOnlyForTheUserAlone)
{
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("config/secrets.json"));
    EXPECT_TRUE(NetworkSecretsFile::load(path)->isEmpty()) << "no file: no secrets";
    const NetworkSecret secret = *NetworkSecret::make(
        QStringLiteral("T"), {QStringLiteral("a.test"), QStringLiteral("b.test")}, QStringLiteral("X-Key: key={}"));
    ASSERT_TRUE(NetworkSecretsFile::save({secret}, path));
    EXPECT_EQ(QFile(path).permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteOther), 0);
    auto loaded = NetworkSecretsFile::load(path);
    ASSERT_TRUE(loaded);
    ASSERT_EQ(loaded->size(), 1);
    EXPECT_EQ(loaded->first().toJson(), secret.toJson());

    QFile broken(path);
    ASSERT_TRUE(broken.open(QIODevice::WriteOnly));
    broken.write(R"({"secrets": [{"name": "lower", "hosts": ["a.test"], "header": "X: {}"}]})");
    broken.close();
    auto refused = NetworkSecretsFile::load(path);
    ASSERT_FALSE(refused);
    EXPECT_TRUE(refused.error().message.contains(path)) << qPrintable(refused.error().message);
}

TEST(InterceptionAuthority, isMadeOnceAsAnAuthorityThatSignsCertificatesOnly)
{
    auto made = InterceptionAuthority::generate();
    ASSERT_TRUE(made) << qPrintable(made.error().message);
    EXPECT_TRUE(made->certificatePem.startsWith("-----BEGIN CERTIFICATE-----"));
    EXPECT_TRUE(made->keyPem.startsWith("-----BEGIN PRIVATE KEY-----"));
    auto read = InterceptionAuthority::fromPem(made->toPem());
    ASSERT_TRUE(read) << qPrintable(read.error().message);
    EXPECT_EQ(read->certificatePem, made->certificatePem);
    EXPECT_EQ(read->keyPem, made->keyPem);

    auto other = InterceptionAuthority::generate();
    EXPECT_NE(other->certificatePem, made->certificatePem);
    EXPECT_FALSE(InterceptionAuthority::fromPem(made->certificatePem + other->keyPem)) << "not its key";
    EXPECT_FALSE(InterceptionAuthority::fromPem("not pem"));
}

TEST(StoredNetworkSecrets, givesARunTheSecretsOfTheHostsItMayReachWithNewPlaceholders)
{
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("secrets.json"));
    ASSERT_TRUE(NetworkSecretsFile::save(
        {*NetworkSecret::make(QStringLiteral("API_TOKEN"), {QStringLiteral("api.test")},
                              QStringLiteral("Authorization: Bearer {}")),
         *NetworkSecret::make(QStringLiteral("OTHER"), {QStringLiteral("other.test")}, QStringLiteral("X: {}"))},
        path));
    auto store = std::make_shared<MemorySecretStore>();
    ASSERT_TRUE(store->set(NetworkSecret::keychainKey(QStringLiteral("API_TOKEN")), "value-1").result());
    StoredNetworkSecrets source(store, nullptr, path);

    auto none = source.secretsFor(allowList("elsewhere.test"));
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->isEmpty());
    EXPECT_FALSE(store->get(InterceptionAuthority::keychainKey()).result()->has_value())
        << "no authority is made for a run without secrets";

    auto first = source.secretsFor(allowList("api.test, elsewhere.test"));
    ASSERT_TRUE(first) << qPrintable(first.error().message);
    ASSERT_EQ(first->secrets.size(), 1);
    EXPECT_EQ(first->secrets[0].value, "value-1");
    EXPECT_TRUE(first->secrets[0].placeholder.startsWith("LLMSANDBOX_PLACEHOLDER_API_TOKEN_"));
    EXPECT_FALSE(first->secrets[0].placeholder.contains("value-1"));
    EXPECT_EQ(first->hostsWithin(allowList("api.test, elsewhere.test")), QStringList{"api.test"});
    auto kept = store->get(InterceptionAuthority::keychainKey()).result();
    ASSERT_TRUE(kept && kept->has_value()) << "the authority is kept in the keychain";
    EXPECT_EQ(**kept, first->authority.toPem());

    auto second = source.secretsFor(allowList("api.test"));
    ASSERT_TRUE(second);
    EXPECT_NE(second->secrets[0].placeholder, first->secrets[0].placeholder) << "a new placeholder per run";
    EXPECT_EQ(second->authority.certificatePem, first->authority.certificatePem) << "one authority";

    auto missing = source.secretsFor(allowList("other.test"));
    ASSERT_FALSE(missing) << "a bound secret without a value is an error, never a silent run without it";
    EXPECT_TRUE(missing.error().message.contains("OTHER"));
    store->setUnavailable(QStringLiteral("no keychain service"));
    auto unavailable = StoredNetworkSecrets(store, nullptr, path).secretsFor(allowList("api.test"));
    ASSERT_FALSE(unavailable);
    EXPECT_TRUE(unavailable.error().message.contains("no keychain service"));
}

} // namespace
