#include "backend/HttpEndpoint.h"

#include <gtest/gtest.h>

using namespace sandbox;

TEST(HttpEndpoint, unixSocketAddress)
{
    auto endpoint = HttpEndpoint::parse("unix:///var/run/docker.sock", false, {});
    ASSERT_TRUE(endpoint.ok());
    EXPECT_EQ(endpoint->unixSocket, "/var/run/docker.sock");
    EXPECT_FALSE(endpoint->tls);
}

TEST(HttpEndpoint, tcpWithoutTlsUsesPort2375)
{
    auto endpoint = HttpEndpoint::parse("tcp://10.0.0.5", false, {});
    ASSERT_TRUE(endpoint.ok());
    EXPECT_EQ(endpoint->baseUrl, "http://10.0.0.5:2375");
    EXPECT_TRUE(endpoint->unixSocket.isEmpty());
}

TEST(HttpEndpoint, tlsVerifyTakesCertificatesFromCertPath)
{
    auto endpoint = HttpEndpoint::parse("tcp://docker.example:2376", true, "/certs");
    ASSERT_TRUE(endpoint.ok());
    EXPECT_EQ(endpoint->baseUrl, "https://docker.example:2376");
    EXPECT_TRUE(endpoint->verifyPeer);
    EXPECT_EQ(endpoint->caFile, "/certs/ca.pem");
    EXPECT_EQ(endpoint->certFile, "/certs/cert.pem");
    EXPECT_EQ(endpoint->keyFile, "/certs/key.pem");
}

TEST(HttpEndpoint, rejectsRelativeSocketPathsAndUnknownSchemes)
{
    EXPECT_FALSE(HttpEndpoint::parse("unix://relative.sock", false, {}).ok());
    EXPECT_FALSE(HttpEndpoint::parse("npipe:////./pipe/docker_engine", false, {}).ok());
    EXPECT_FALSE(HttpEndpoint::parse("", false, {}).ok());
}
