#include "engine/LibraryInstallPlan.h"

#include "lang/LanguageRegistry.h"

#include <QTemporaryDir>
#include <algorithm>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

std::function<QString(const char *)> variables(QHash<QString, QString> values)
{
    return [values](const char *name) {
        return values.value(QString::fromLatin1(name));
    };
}

Language language(const char *name)
{
    return *LanguageRegistry::instance().find(name);
}

} // namespace

TEST(LibraryInstallPlan, pipUsesTheConfiguredIndexAndNeedsNetwork)
{
    auto plan = LibraryInstallPlan::make(language("python"), {"requests==2.31.0"}, "/sandbox",
                                         variables({{"LLM_SANDBOX_PIP_INDEX_URL", "https://mirror.example/simple"}}));
    ASSERT_TRUE(plan.ok()) << plan.error().message.toStdString();
    EXPECT_TRUE(plan->needsNetwork);
    EXPECT_TRUE(plan->argv.contains("https://mirror.example/simple"));
    EXPECT_EQ(plan->argv.last(), "requests==2.31.0");
}

TEST(LibraryInstallPlan, pipTrustsAPlainHttpIndexTheUserNamedButNeverAnHttpsOne)
{
    auto plain = LibraryInstallPlan::make(language("python"), {"requests"}, "/sandbox",
                                          variables({{"LLM_SANDBOX_PIP_INDEX_URL", "http://10.1.2.3:3141/simple"}}));
    ASSERT_TRUE(plain.ok()) << plain.error().message.toStdString();
    EXPECT_EQ(plain->environment.value("PIP_TRUSTED_HOST"), "10.1.2.3");
    // --trusted-host would also switch off certificate checks for an https:// index.
    auto tls = LibraryInstallPlan::make(language("python"), {"requests"}, "/sandbox",
                                        variables({{"LLM_SANDBOX_PIP_INDEX_URL", "https://mirror.example/simple"}}));
    ASSERT_TRUE(tls.ok());
    EXPECT_FALSE(tls->environment.contains("PIP_TRUSTED_HOST"));
}

TEST(LibraryInstallPlan, rReadsThePythonServersRRepoVariable)
{
    auto plan = LibraryInstallPlan::make(language("r"), {"jsonlite"}, "/sandbox",
                                         variables({{"R_REPO", "https://cran.example.org"}}));
    ASSERT_TRUE(plan.ok());
    EXPECT_TRUE(plan->argv.contains("https://cran.example.org"));
}

TEST(LibraryInstallPlan, offlineFolderNeedsNoNetworkAndShipsItsFiles)
{
    QTemporaryDir dir;
    QFile gem(dir.filePath("greeter-1.0.0.gem"));
    ASSERT_TRUE(gem.open(QIODevice::WriteOnly));
    gem.write("gem bytes");
    gem.close();
    auto plan = LibraryInstallPlan::make(language("ruby"), {"greeter"}, "/sandbox",
                                         variables({{"LLM_SANDBOX_GEM_OFFLINE_DIR", dir.path()}}));
    ASSERT_TRUE(plan.ok()) << plan.error().message.toStdString();
    EXPECT_FALSE(plan->needsNetwork);
    ASSERT_EQ(plan->offlineFiles.size(), 1);
    EXPECT_EQ(plan->offlineFiles.first().data, "gem bytes");
    EXPECT_TRUE(plan->argv.contains("/sandbox/.llm-sandbox-offline/greeter-1.0.0.gem"));
}

TEST(LibraryInstallPlan, offlineFolderWithoutThePackageIsAClearError)
{
    QTemporaryDir dir;
    auto plan = LibraryInstallPlan::make(language("javascript"), {"lodash"}, "/sandbox",
                                         variables({{"LLM_SANDBOX_NPM_OFFLINE_DIR", dir.path()}}));
    ASSERT_FALSE(plan.ok());
    EXPECT_TRUE(plan.error().message.contains("lodash"));
}

TEST(LibraryInstallPlan, refusesOptionLikeAndShellLikeNames)
{
    for (const char *name : {"--upgrade", "-e git+https://x", "a b", "pkg;id", "pkg|id", "$(id)", "`id`", "../x"}) {
        EXPECT_FALSE(LibraryInstallPlan::make(language("python"), {name}, "/sandbox", variables({})).ok()) << name;
    }
    EXPECT_FALSE(LibraryInstallPlan::make(language("java"), {"junit"}, "/sandbox", variables({})).ok());
    EXPECT_TRUE(LibraryInstallPlan::make(language("java"), {"junit:junit:4.13.2"}, "/sandbox", variables({})).ok());
    EXPECT_TRUE(LibraryInstallPlan::make(language("javascript"), {"@types/node@20"}, "/sandbox", variables({})).ok());
}

TEST(LibraryInstallPlan, registryMustBeAnHttpOrFileAddress)
{
    auto plan = LibraryInstallPlan::make(language("javascript"), {"lodash"}, "/sandbox",
                                         variables({{"LLM_SANDBOX_NPM_REGISTRY", "--registry=evil"}}));
    ASSERT_FALSE(plan.ok());
    EXPECT_TRUE(plan.error().message.contains("--registry=evil"));
}

TEST(LibraryInstallPlan, cppInstallsDebianPackagesFromTheConfiguredMirror)
{
    auto plan = LibraryInstallPlan::make(language("cpp"), {"libfmt-dev"}, "/sandbox",
                                         variables({{"LLM_SANDBOX_DEBIAN_MIRROR", "http://mirror.example/debian"}}));
    ASSERT_TRUE(plan.ok()) << plan.error().message.toStdString();
    EXPECT_TRUE(plan->argv.contains("http://mirror.example/debian"));
    EXPECT_EQ(plan->argv.last(), "libfmt-dev");
    EXPECT_FALSE(LibraryInstallPlan::make(language("cpp"), {"-o"}, "/sandbox", variables({})).ok());
}

TEST(LibraryInstallPlan, aRegistryLoginGoesIntoAPrivateFileNotOntoTheCommandLine)
{
    auto pip = LibraryInstallPlan::make(
        language("python"), {"requests"}, "/sandbox",
        variables({{"LLM_SANDBOX_PIP_INDEX_URL", "https://alice:s3cr%40t@mirror.example:8443/simple"}}));
    ASSERT_TRUE(pip.ok()) << pip.error().message.toStdString();
    EXPECT_FALSE(pip->argv.join(' ').contains("s3cr")) << pip->argv.join(' ').toStdString();
    EXPECT_TRUE(pip->argv.contains("https://mirror.example:8443/simple"));
    EXPECT_EQ(pip->environment.value("NETRC"), "/sandbox/" + LibraryInstallPlan::credentialsFile());
    const auto file = std::find_if(pip->offlineFiles.begin(), pip->offlineFiles.end(), [](const FileEntry &entry) {
        return entry.path == LibraryInstallPlan::credentialsFile();
    });
    ASSERT_NE(file, pip->offlineFiles.end());
    EXPECT_EQ(file->data, "machine mirror.example login alice password s3cr@t\n");
    EXPECT_EQ(file->mode, 0600);
    for (auto it = pip->environment.begin(); it != pip->environment.end(); ++it) {
        EXPECT_FALSE(it.value().contains("s3cr")) << it.key().toStdString();
    }
    EXPECT_EQ(pip->egress, (QList<EgressRule>{{"mirror.example", 8443, true}}));

    auto npm = LibraryInstallPlan::make(language("javascript"), {"lodash"}, "/sandbox",
                                        variables({{"LLM_SANDBOX_NPM_REGISTRY", "https://bob:tok@npm.example/repo"}}));
    ASSERT_TRUE(npm.ok()) << npm.error().message.toStdString();
    EXPECT_FALSE(npm->argv.join(' ').contains("tok@"));
    EXPECT_EQ(npm->environment.value("NPM_CONFIG_USERCONFIG"), "/sandbox/" + LibraryInstallPlan::credentialsFile());
    const auto npmrc = std::find_if(npm->offlineFiles.begin(), npm->offlineFiles.end(), [](const FileEntry &entry) {
        return entry.path == LibraryInstallPlan::credentialsFile();
    });
    ASSERT_NE(npmrc, npm->offlineFiles.end());
    EXPECT_EQ(npmrc->data, "//npm.example/repo/:_auth=" + QByteArray("bob:tok").toBase64() + "\n");

    // A login that could not be written into such a file safely is refused, not passed on.
    auto quoted = LibraryInstallPlan::make(language("python"), {"requests"}, "/sandbox",
                                           variables({{"LLM_SANDBOX_PIP_INDEX_URL", "https://a:b%20c@m.example/s"}}));
    ASSERT_FALSE(quoted.ok());
    EXPECT_FALSE(quoted.error().message.contains("b c"));
}
