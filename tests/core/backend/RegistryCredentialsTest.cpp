#include "backend/RegistryCredentials.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

QJsonObject decodedHeader(const QByteArray &header)
{
    const auto decoded =
        QByteArray::fromBase64Encoding(header, QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    EXPECT_TRUE(decoded) << "not base64url: " << header.toStdString();
    return QJsonDocument::fromJson(*decoded).object();
}

TEST(RegistryCredentialsTest, headerCarriesTheLoginAsTheEngineApiDocumentsIt)
{
    // '?' and '>' make base64 emit '/' and '+' in plain base64: the header must use the URL alphabet instead.
    const RegistryCredentials credentials{
        .username = QStringLiteral("alice"), .password = QStringLiteral("p?>?>w"), .serverAddress = "reg.example:5000"};
    const QByteArray header = credentials.registryAuthHeader();
    EXPECT_FALSE(header.contains('+') || header.contains('/')) << header.toStdString();
    const QJsonObject json = decodedHeader(header);
    EXPECT_EQ(json.value(QStringLiteral("username")).toString(), QStringLiteral("alice"));
    EXPECT_EQ(json.value(QStringLiteral("password")).toString(), QStringLiteral("p?>?>w"));
    EXPECT_EQ(json.value(QStringLiteral("serveraddress")).toString(), QStringLiteral("reg.example:5000"));
}

TEST(RegistryCredentialsTest, noLoginSendsAnEmptyObject)
{
    const RegistryCredentials none;
    EXPECT_TRUE(none.isEmpty());
    EXPECT_EQ(QByteArray::fromBase64(none.registryAuthHeader(), QByteArray::Base64UrlEncoding), QByteArray("{}"));
}

TEST(RegistryCredentialsTest, registryHostIsTheSameForReferencesUrlsAndNames)
{
    EXPECT_EQ(RegistryCredentials::registryHost(QStringLiteral("127.0.0.1:5000")), QStringLiteral("127.0.0.1:5000"));
    EXPECT_EQ(RegistryCredentials::registryHost(QStringLiteral("127.0.0.1:5000/llm-sandbox/python:abc")),
              QStringLiteral("127.0.0.1:5000"));
    EXPECT_EQ(RegistryCredentials::registryHost(QStringLiteral("https://Reg.Example/v2/")),
              QStringLiteral("reg.example"));
    EXPECT_EQ(RegistryCredentials::registryHost(QStringLiteral("ghcr.io/my-org")), QStringLiteral("ghcr.io"));
    EXPECT_EQ(RegistryCredentials::registryHost(QStringLiteral("index.docker.io")), QStringLiteral("docker.io"));
}

TEST(RegistryCredentialsTest, redactHidesThePasswordAndTheHeader)
{
    const RegistryCredentials credentials{
        .username = QStringLiteral("alice"), .password = QStringLiteral("s3cret"), .serverAddress = "r:1"};
    const QString header = QString::fromLatin1(credentials.registryAuthHeader());
    const QString redacted = credentials.redact(QStringLiteral("bad login s3cret, header %1").arg(header));
    EXPECT_FALSE(redacted.contains(QStringLiteral("s3cret"))) << redacted.toStdString();
    EXPECT_FALSE(redacted.contains(header)) << redacted.toStdString();
    EXPECT_TRUE(redacted.contains(QStringLiteral("alice")) || redacted.contains(QStringLiteral("***")));
    EXPECT_EQ(RegistryCredentials{}.redact(QStringLiteral("as is")), QStringLiteral("as is"));
}

} // namespace
