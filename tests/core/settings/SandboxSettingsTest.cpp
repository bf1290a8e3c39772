#include "settings/SandboxSettings.h"

#include "ScopedEnvironment.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using sandbox::test::ScopedEnvironment;

TEST(SandboxSettings, defaultsAreHardened)
{
    const SandboxSettings settings;
    EXPECT_EQ(settings.networkMode, "none");
    EXPECT_TRUE(settings.readOnlyRootfs);
    EXPECT_FALSE(settings.privileged);
    EXPECT_EQ(settings.capDrop, QStringList{"ALL"});
    EXPECT_TRUE(settings.securityOpt.contains("no-new-privileges"));
    EXPECT_NE(settings.user.left(2), "0:");
    EXPECT_GT(settings.memoryBytes, 0);
    EXPECT_GT(settings.pidsLimit, 0);
}

TEST(SandboxSettings, parsesDockerMemoryNotation)
{
    EXPECT_EQ(*parseByteSize("512m"), 512LL * 1024 * 1024);
    EXPECT_EQ(*parseByteSize("2g"), 2LL * 1024 * 1024 * 1024);
    EXPECT_EQ(*parseByteSize("1GB"), 1024LL * 1024 * 1024);
    EXPECT_EQ(*parseByteSize("4096"), 4096);
    EXPECT_FALSE(parseByteSize("lots").ok());
    EXPECT_FALSE(parseByteSize("-1m").ok());
}

TEST(SandboxSettings, acceptsEveryBooleanSpelling)
{
    for (const char *yes : {"true", "1", "yes", "on", "TRUE", "On"}) {
        EXPECT_TRUE(*parseBoolean(yes)) << yes;
    }
    for (const char *no : {"false", "0", "no", "off", "OFF"}) {
        EXPECT_FALSE(*parseBoolean(no)) << no;
    }
    EXPECT_FALSE(parseBoolean("maybe").ok());
}

TEST(SandboxSettings, readsThePythonServersVariables)
{
    ScopedEnvironment env({{"SANDBOX_MEM_LIMIT", "1g"},
                           {"SANDBOX_CPU_COUNT", "0.5"},
                           {"SANDBOX_READ_ONLY", "no"},
                           {"SANDBOX_CAP_DROP", "ALL,NET_RAW"}});
    auto settings = SandboxSettings::fromEnvironment();
    ASSERT_TRUE(settings.ok()) << settings.error().message.toStdString();
    EXPECT_EQ(settings->memoryBytes, 1024LL * 1024 * 1024);
    EXPECT_DOUBLE_EQ(settings->cpus, 0.5);
    EXPECT_FALSE(settings->readOnlyRootfs);
    EXPECT_EQ(settings->capDrop, QStringList({"ALL", "NET_RAW"}));
}

TEST(SandboxSettings, alternativeNamesWork)
{
    ScopedEnvironment env({{"SANDBOX_MEMORY", "256m"}, {"SANDBOX_CPUS", "2"}});
    auto settings = SandboxSettings::fromEnvironment();
    ASSERT_TRUE(settings.ok());
    EXPECT_EQ(settings->memoryBytes, 256LL * 1024 * 1024);
    EXPECT_DOUBLE_EQ(settings->cpus, 2);
}

TEST(SandboxSettings, badValueNamesTheVariable)
{
    {
        ScopedEnvironment env({{"SANDBOX_PRIVILEGED", "perhaps"}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_FALSE(settings.ok());
        EXPECT_TRUE(settings.error().message.contains("SANDBOX_PRIVILEGED"));
    }
    {
        ScopedEnvironment env({{"SANDBOX_CPU_COUNT", "many"}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_FALSE(settings.ok());
        EXPECT_TRUE(settings.error().message.contains("SANDBOX_CPU_COUNT"));
    }
    {
        ScopedEnvironment env({{"SANDBOX_NETWORK_MODE", "host; rm -rf /"}});
        EXPECT_FALSE(SandboxSettings::fromEnvironment().ok());
    }
}

TEST(SandboxSettings, runtimeNamesAnOciRuntimeOrNone)
{
    EXPECT_TRUE(SandboxSettings().runtime.isEmpty()) << "the engine's default unless asked";
    {
        ScopedEnvironment env({{"SANDBOX_RUNTIME", "runsc"}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_TRUE(settings.ok());
        EXPECT_EQ(settings->runtime, "runsc");
    }
    {
        ScopedEnvironment env({{"SANDBOX_RUNTIME", "runsc --platform=kvm"}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_FALSE(settings.ok());
        EXPECT_TRUE(settings.error().message.contains("SANDBOX_RUNTIME"));
    }
}

TEST(SandboxSettings, imageOverridesComeFromPerLanguageVariables)
{
    ScopedEnvironment env({{"LLM_SANDBOX_IMAGE_PYTHON", "registry.example/python:3.12"}});
    auto settings = SandboxSettings::fromEnvironment();
    ASSERT_TRUE(settings.ok());
    EXPECT_EQ(settings->imageOverrides.value("python"), "registry.example/python:3.12");
    EXPECT_FALSE(settings->imageOverrides.contains("ruby"));
}

TEST(SandboxSettings, cpuTimeLimitDefaultsToASecondMoreThanTheRunsTimeout)
{
    // A busy loop on one CPU must meet the wall-clock timeout first: both would fire at once otherwise.
    const SandboxSettings settings;
    EXPECT_EQ(settings.cpuTimeLimitFor(std::chrono::seconds(30)), std::chrono::seconds(31));
    EXPECT_EQ(settings.cpuTimeLimitFor(std::chrono::milliseconds(1500)), std::chrono::milliseconds(2500));
}

TEST(SandboxSettings, cpuTimeLimitFromTheEnvironment)
{
    {
        ScopedEnvironment env({{"SANDBOX_CPU_TIME_LIMIT", "5"}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_TRUE(settings.ok()) << settings.error().message.toStdString();
        EXPECT_EQ(settings->cpuTimeLimit, std::chrono::seconds(5));
        // The limit applies whatever the run's timeout; a shorter timeout still ends the run first.
        EXPECT_EQ(settings->cpuTimeLimitFor(std::chrono::seconds(60)), std::chrono::seconds(5));
    }
    for (const char *bad : {"0", "-1", "86401", "ten", "1.5"}) {
        ScopedEnvironment env({{"SANDBOX_CPU_TIME_LIMIT", bad}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_FALSE(settings.ok()) << bad;
        EXPECT_TRUE(settings.error().message.contains("SANDBOX_CPU_TIME_LIMIT")) << bad;
    }
}

TEST(SandboxSettings, seccompProfileIsTheBuiltinOneByDefault)
{
    const SandboxSettings settings;
    EXPECT_FALSE(settings.seccompProfile.isEmpty());
    EXPECT_EQ(settings.seccompProfile, builtinSeccompProfile());
    auto fromEnvironment = SandboxSettings::fromEnvironment();
    ASSERT_TRUE(fromEnvironment.ok());
    EXPECT_EQ(fromEnvironment->seccompProfile, builtinSeccompProfile());
}

TEST(SandboxSettings, seccompProfileFromTheEnvironment)
{
    {
        ScopedEnvironment env({{"SANDBOX_SECCOMP_PROFILE", "engine"}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_TRUE(settings.ok());
        EXPECT_TRUE(settings->seccompProfile.isEmpty());
    }
    {
        ScopedEnvironment env({{"SANDBOX_SECCOMP_PROFILE", "builtin"}});
        EXPECT_EQ(SandboxSettings::fromEnvironment()->seccompProfile, builtinSeccompProfile());
    }
    QTemporaryDir dir;
    const QByteArray profile = R"({"defaultAction":"SCMP_ACT_ALLOW"})";
    const QString good = dir.filePath("good.json");
    const QString bad = dir.filePath("bad.json");
    for (const auto &[path, text] : {std::pair{good, profile}, std::pair{bad, QByteArray("[1, 2]")}}) {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text);
    }
    {
        ScopedEnvironment env({{"SANDBOX_SECCOMP_PROFILE", qPrintable(good)}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_TRUE(settings.ok()) << settings.error().message.toStdString();
        EXPECT_EQ(settings->seccompProfile, profile);
    }
    for (const QString &path : {bad, dir.filePath("missing.json")}) {
        const QByteArray value = path.toUtf8();
        ScopedEnvironment env({{"SANDBOX_SECCOMP_PROFILE", value.constData()}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_FALSE(settings.ok()) << value.constData();
        EXPECT_TRUE(settings.error().message.contains("SANDBOX_SECCOMP_PROFILE"));
        EXPECT_TRUE(settings.error().message.contains(path));
    }
}

TEST(SandboxSettings, sessionLimitsFromTheEnvironment)
{
    {
        ScopedEnvironment env({{"LLM_SANDBOX_SESSION_IDLE_SECONDS", "90"}, {"LLM_SANDBOX_MAX_SESSIONS", "0"}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_TRUE(settings.ok()) << settings.error().message.toStdString();
        EXPECT_EQ(settings->sessionIdleTimeout, std::chrono::seconds(90));
        EXPECT_EQ(settings->maxSessions, 0);
    }
    for (const auto &[variable, bad] :
         {std::pair{"LLM_SANDBOX_SESSION_IDLE_SECONDS", "0"}, std::pair{"LLM_SANDBOX_SESSION_IDLE_SECONDS", "1h"},
          std::pair{"LLM_SANDBOX_MAX_SESSIONS", "-1"}, std::pair{"LLM_SANDBOX_MAX_SESSIONS", "100"}}) {
        ScopedEnvironment env({{variable, bad}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_FALSE(settings.ok()) << variable << "=" << bad;
        EXPECT_TRUE(settings.error().message.contains(QLatin1String(variable))) << variable;
    }
}

TEST(SandboxSettings, unenforcedLimitsAreRefusedUnlessAccepted)
{
    EXPECT_TRUE(SandboxSettings().allowUnenforcedLimits.isEmpty());
    {
        ScopedEnvironment env({{"SANDBOX_ALLOW_UNENFORCED_LIMITS", "memory, pids"}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_TRUE(settings.ok()) << settings.error().message.toStdString();
        EXPECT_EQ(settings->allowUnenforcedLimits, (QStringList{"memory", "pids"}));
    }
    {
        ScopedEnvironment env({{"SANDBOX_ALLOW_UNENFORCED_LIMITS", "all"}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_TRUE(settings.ok());
        EXPECT_TRUE(settings->allowUnenforcedLimits.contains("read_only_root"));
        EXPECT_TRUE(settings->allowUnenforcedLimits.contains("network"));
    }
    {
        ScopedEnvironment env({{"SANDBOX_ALLOW_UNENFORCED_LIMITS", "memory,swap"}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_FALSE(settings.ok());
        EXPECT_TRUE(settings.error().message.contains("SANDBOX_ALLOW_UNENFORCED_LIMITS"));
        EXPECT_TRUE(settings.error().message.contains("swap"));
    }
}
