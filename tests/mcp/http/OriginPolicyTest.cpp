#include "mcp/http/OriginPolicy.h"

#include <gtest/gtest.h>

using namespace sandbox::mcp;

namespace {

TEST(OriginPolicyTest, allowsNoOriginAndLoopbackOrigins)
{
    const OriginPolicy policy;
    EXPECT_TRUE(policy.allowsOrigin(QByteArrayView()));
    for (const char *origin : {"http://localhost", "http://localhost:6274", "https://127.0.0.1:8443",
                               "http://[::1]:3000", "http://127.1.2.3", "http://app.localhost:1"}) {
        EXPECT_TRUE(policy.allowsOrigin(origin)) << origin;
    }
}

TEST(OriginPolicyTest, refusesOtherOrigins)
{
    const OriginPolicy policy;
    for (const char *origin :
         {"http://evil.example.com", "null", "", "file://", "http://localhost.evil.com", "http://127.0.0.1.evil.com",
          "ftp://localhost", "http://user@localhost", "http://10.0.0.1", "http://0.0.0.0", "chrome-extension://abc"}) {
        EXPECT_FALSE(policy.allowsOrigin(origin)) << origin;
    }
}

TEST(OriginPolicyTest, extraOriginsAreExact)
{
    const OriginPolicy policy({QStringLiteral("https://Claude.ai/")});
    EXPECT_TRUE(policy.allowsOrigin("https://claude.ai"));
    EXPECT_FALSE(policy.allowsOrigin("https://claude.ai.evil.com"));
}

TEST(OriginPolicyTest, hostMustBeLoopbackUnlessRemoteIsAllowed)
{
    const OriginPolicy policy;
    for (const char *host : {"127.0.0.1", "127.0.0.1:8080", "localhost:1", "[::1]:80", "LOCALHOST"}) {
        EXPECT_TRUE(policy.allowsHost(host)) << host;
    }
    for (const char *host :
         {"evil.example.com", "evil.example.com:8080", "", "127.0.0.1@evil.com", "localhost/evil", "192.168.1.2:80"}) {
        EXPECT_FALSE(policy.allowsHost(host)) << host;
    }
    EXPECT_TRUE(OriginPolicy({}, false).allowsHost("sandbox.internal:8080"));
}

} // namespace
