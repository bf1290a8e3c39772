// The engines' words about a registry, read for what they mean (backend/RegistryErrors.h): a push's and a login's
// failures as Docker and Podman report them.
#include "backend/RegistryErrors.h"

#include "backend/RegistryCredentials.h"

#include <gtest/gtest.h>

using namespace sandbox;

TEST(RegistryErrorsTest, pushUnreachableRegistryIsNamedWithWhereItsNameComesFrom)
{
    const QString message = RegistryErrors::pushMessage(
        QStringLiteral("127.0.0.1:1/llm-sandbox/python:abc"),
        QStringLiteral("Get \"http://127.0.0.1:1/v2/\": dial tcp 127.0.0.1:1: connect: connection refused"));
    EXPECT_TRUE(message.startsWith(QStringLiteral("Get \"http://127.0.0.1:1/v2/\"")));
    EXPECT_TRUE(message.contains(QStringLiteral("The registry 127.0.0.1:1 could not be reached")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("LLM_SANDBOX_REGISTRY")));
}

TEST(RegistryErrorsTest, pushMissingImageSaysWhichNameTheEngineLacks)
{
    const QString message = RegistryErrors::pushMessage(
        QStringLiteral("reg.example:5000/llm-sandbox/python:abc"),
        QStringLiteral("An image does not exist locally with the tag: reg.example:5000/llm-sandbox/python"));
    EXPECT_TRUE(
        message.contains(QStringLiteral("The engine has no image named reg.example:5000/llm-sandbox/python:abc")))
        << message.toStdString();
}

TEST(RegistryErrorsTest, pushPlainHttpRegistryPointsAtInsecureRegistries)
{
    const QString message = RegistryErrors::pushMessage(
        QStringLiteral("reg.example:5000/llm-sandbox/python:abc"),
        QStringLiteral("Get \"https://reg.example:5000/v2/\": http: server gave HTTP response to HTTPS client"));
    EXPECT_TRUE(message.contains(QStringLiteral("insecure-registries"))) << message.toStdString();
}

TEST(RegistryErrorsTest, pushRefusedWithoutLoginSaysHowToLogIn)
{
    const QString message = RegistryErrors::pushMessage(QStringLiteral("reg.example/llm-sandbox/python:abc"),
                                                        QStringLiteral("unauthorized: authentication required"));
    EXPECT_TRUE(message.contains(QStringLiteral("The registry reg.example refused the push: it needs a login")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("llm-sandbox images login reg.example"))) << message.toStdString();
}

TEST(RegistryErrorsTest, pushMissingBasicAuthCredentialsIsARefusal)
{
    const QString message = RegistryErrors::pushMessage(QStringLiteral("127.0.0.1:5000/llm-sandbox/ruby:abc"),
                                                        QStringLiteral("no basic auth credentials"));
    EXPECT_TRUE(message.contains(QStringLiteral("it needs a login"))) << message.toStdString();
}

TEST(RegistryErrorsTest, pushRefusedWithLoginBlamesTheStoredLogin)
{
    const QString message = RegistryErrors::pushMessage(QStringLiteral("reg.example/llm-sandbox/python:abc"),
                                                        QStringLiteral("unauthorized: authentication required"), true);
    EXPECT_TRUE(message.contains(QStringLiteral("refused the push with the login stored for it")))
        << message.toStdString();
}

TEST(RegistryErrorsTest, loginRefusedSaysWrongPasswordAndNamesTheUser)
{
    const RegistryCredentials login{.username = QStringLiteral("alice"), .password = "x", .serverAddress = "r:5000"};
    const QString message = RegistryErrors::loginMessage(
        login, QStringLiteral("login attempt to http://r:5000/v2/ failed with status: 401 Unauthorized"));
    EXPECT_TRUE(message.contains(QStringLiteral("The registry r:5000 refused the login of alice: wrong username or "
                                                "password")))
        << message.toStdString();
}

TEST(RegistryErrorsTest, loginUnreachableRegistryIsSaidSo)
{
    const RegistryCredentials login{.username = QStringLiteral("alice"), .password = "x", .serverAddress = "r:1"};
    const QString message = RegistryErrors::loginMessage(
        login, QStringLiteral("Get \"https://r:1/v2/\": dial tcp 127.0.0.1:1: connect: connection refused"));
    EXPECT_TRUE(message.contains(QStringLiteral("The registry r:1 could not be reached"))) << message.toStdString();
}

TEST(RegistryErrorsTest, pushOtherMessagesPassThrough)
{
    EXPECT_EQ(RegistryErrors::pushMessage(QStringLiteral("r/x:1"), QStringLiteral("disk full")),
              QStringLiteral("disk full"));
}
