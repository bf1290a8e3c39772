#include "util/Redaction.h"

#include <gtest/gtest.h>

using namespace sandbox;

namespace {

TEST(Redaction, userInfoOfAnyUrlIsRemoved)
{
    EXPECT_EQ(redactCredentials(QStringLiteral("Looking in indexes: https://ci:s3cr3t@pypi.example.com/simple")),
              QStringLiteral("Looking in indexes: https://***@pypi.example.com/simple"));
    EXPECT_EQ(redactCredentials(QStringLiteral("git+https://ghp_token123@github.com/org/repo.git and "
                                               "http://user@10.0.0.1:3141/")),
              QStringLiteral("git+https://***@github.com/org/repo.git and http://***@10.0.0.1:3141/"));
}

TEST(Redaction, secretQueryParametersAreRemoved)
{
    EXPECT_EQ(redactCredentials(QStringLiteral("GET https://repo.example/pkg.tgz?access_token=abc123&v=2")),
              QStringLiteral("GET https://repo.example/pkg.tgz?access_token=***&v=2"));
    EXPECT_EQ(redactCredentials(QStringLiteral("https://x.example/?Token=t&password=p#frag")),
              QStringLiteral("https://x.example/?Token=***&password=***#frag"));
}

TEST(Redaction, textWithoutCredentialsIsUnchanged)
{
    const QString plain = QStringLiteral("Collecting numpy\nDownloading https://pypi.example.com/numpy-2.whl (5 MB)\n"
                                         "mail me at someone@example.com, ratio 3:4@2x");
    EXPECT_EQ(redactCredentials(plain), plain);
}

} // namespace
