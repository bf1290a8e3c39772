// Kubernetes quantities as resource.Quantity reads them, in the forms metrics-server and pod specs use.
#include "backend/kubernetes/KubernetesQuantity.h"

#include <gtest/gtest.h>

using namespace sandbox;

TEST(KubernetesQuantityTest, cpuInEveryFormMetricsServerAndSpecsWrite)
{
    EXPECT_DOUBLE_EQ(*KubernetesQuantity::cores(QStringLiteral("250000000n")), 0.25);
    EXPECT_DOUBLE_EQ(*KubernetesQuantity::cores(QStringLiteral("1067211n")), 0.001067211);
    EXPECT_DOUBLE_EQ(*KubernetesQuantity::cores(QStringLiteral("12m")), 0.012);
    EXPECT_DOUBLE_EQ(*KubernetesQuantity::cores(QStringLiteral("250u")), 0.00025);
    EXPECT_DOUBLE_EQ(*KubernetesQuantity::cores(QStringLiteral("2")), 2.0);
    EXPECT_DOUBLE_EQ(*KubernetesQuantity::cores(QStringLiteral("0.5")), 0.5);
    EXPECT_DOUBLE_EQ(*KubernetesQuantity::cores(QStringLiteral(".5")), 0.5);
    EXPECT_DOUBLE_EQ(*KubernetesQuantity::cores(QStringLiteral("0")), 0.0);
    EXPECT_DOUBLE_EQ(*KubernetesQuantity::cores(QStringLiteral("+1.5")), 1.5);
}

TEST(KubernetesQuantityTest, memoryWithBinaryDecimalAndExponentSuffixes)
{
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("34Mi")), 34LL * 1024 * 1024);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("123456Ki")), 123456LL * 1024);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("1Gi")), 1LL << 30);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("2Ti")), 2LL << 40);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("1Ei")), 1LL << 60);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("268435456")), 268435456);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("128M")), 128000000);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("1k")), 1000);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("1G")), 1000000000);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("129e6")), 129000000);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("129E6")), 129000000);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("2E")), 2000000000000000000LL) << "E alone is exa";
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("1.5Gi")), 1610612736);
}

TEST(KubernetesQuantityTest, fractionsOfBytesRoundUpAsQuantityValueDoes)
{
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("1.1Ki")), 1127); // 1126.4
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("1500m")), 2);
    EXPECT_EQ(*KubernetesQuantity::bytes(QStringLiteral("0.5")), 1);
}

TEST(KubernetesQuantityTest, anythingElseIsNotAQuantity)
{
    for (const char *text : {"", "Mi", "12 Mi", "12mi", "12KB", "1.2.3", "0x10", "e3", "12Mii", "--1", "1e", "abc"}) {
        EXPECT_FALSE(KubernetesQuantity::parse(QString::fromLatin1(text)).has_value()) << text;
    }
    EXPECT_FALSE(KubernetesQuantity::bytes(QStringLiteral("16Ei")).has_value()) << "beyond 64 bits";
}
