#include "engine/LibraryInstallPlan.h"

#include "lang/LanguageRegistry.h"

#include <QTemporaryDir>
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
