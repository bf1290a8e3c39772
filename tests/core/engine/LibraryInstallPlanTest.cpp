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

TEST(LibraryInstallPlan, aRegistryLoginGoesToTheEgressProxyAndTheInstallNamesThePlainAddress)
{
    // Every language's registry: the login leaves the URL, the install asks the proxy for http://host:port/...
    const struct
    {
        const char *language;
        const char *variable;
        const char *url;
        const char *installed;
        EgressRule rule;
    } cases[] = {
        {"python",
         "LLM_SANDBOX_PIP_INDEX_URL",
         "https://alice:s3cr%40t@mirror.example:8443/simple",
         "http://mirror.example:8443/simple",
         {"mirror.example", 8443, true, "alice:s3cr@t", true}},
        {"r",
         "LLM_SANDBOX_R_REPO",
         "https://alice:s3cr%40t@cran.example/",
         "http://cran.example:443/",
         {"cran.example", 443, true, "alice:s3cr@t", true}},
        {"ruby",
         "LLM_SANDBOX_GEM_SOURCE",
         "http://alice:s3cr%40t@gems.example:9292",
         "http://gems.example:9292",
         {"gems.example", 9292, true, "alice:s3cr@t", false}},
        {"java",
         "LLM_SANDBOX_MAVEN_REPOSITORY",
         "https://alice:s3cr%40t@maven.example/m2",
         "http://maven.example:443/m2",
         {"maven.example", 443, true, "alice:s3cr@t", true}},
        {"cpp",
         "LLM_SANDBOX_DEBIAN_MIRROR",
         "http://alice:s3cr%40t@deb.example/debian",
         "http://deb.example:80/debian",
         {"deb.example", 80, true, "alice:s3cr@t", false}},
    };
    for (const auto &each : cases) {
        SCOPED_TRACE(each.language);
        const char *library = QByteArray(each.language) == "java"  ? "org.example:lib:1.0"
                              : QByteArray(each.language) == "cpp" ? "libfmt-dev"
                                                                   : "somelib";
        auto plan = LibraryInstallPlan::make(language(each.language), {library}, "/sandbox",
                                             variables({{each.variable, each.url}}));
        ASSERT_TRUE(plan.ok()) << plan.error().message.toStdString();
        EXPECT_FALSE(plan->argv.join(' ').contains("s3cr")) << plan->argv.join(' ').toStdString();
        EXPECT_TRUE(plan->argv.join(' ').contains(each.installed)) << plan->argv.join(' ').toStdString();
        for (auto it = plan->environment.begin(); it != plan->environment.end(); ++it) {
            EXPECT_FALSE(it.value().contains("s3cr")) << it.key().toStdString();
        }
        EXPECT_EQ(plan->egress, QList<EgressRule>{each.rule});
        for (const FileEntry &file : plan->offlineFiles) {
            EXPECT_FALSE(file.data.contains("s3cr")) << file.path.toStdString();
        }
    }
    // Any character of a password reaches the proxy (which gets it URL-escaped); a user name HTTP Basic cannot carry
    // is refused, and the error does not show the login.
    auto spaced = LibraryInstallPlan::make(language("python"), {"requests"}, "/sandbox",
                                           variables({{"LLM_SANDBOX_PIP_INDEX_URL", "https://a:b%20c@m.example/s"}}));
    ASSERT_TRUE(spaced.ok()) << spaced.error().message.toStdString();
    EXPECT_EQ(spaced->egress.value(0).login, "a:b c");
    auto colon = LibraryInstallPlan::make(language("python"), {"requests"}, "/sandbox",
                                          variables({{"LLM_SANDBOX_PIP_INDEX_URL", "https://a%3Ab:s3cr@m.example/s"}}));
    ASSERT_FALSE(colon.ok());
    EXPECT_FALSE(colon.error().message.contains("s3cr"));
}
