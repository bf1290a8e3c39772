#include "lang/LanguageRegistry.h"

#include <gtest/gtest.h>

using namespace sandbox;

TEST(LanguageRegistry, listsTheSevenLanguagesInOrder)
{
    EXPECT_EQ(LanguageRegistry::instance().names(),
              QStringList({"python", "javascript", "java", "cpp", "go", "r", "ruby"}));
}

TEST(LanguageRegistry, findsAliasesCaseInsensitively)
{
    EXPECT_EQ(LanguageRegistry::instance().find("JS")->name, "javascript");
    EXPECT_EQ(LanguageRegistry::instance().find("node")->name, "javascript");
    EXPECT_EQ(LanguageRegistry::instance().find("C++")->name, "cpp");
    EXPECT_EQ(LanguageRegistry::instance().find("golang")->name, "go");
    EXPECT_EQ(LanguageRegistry::instance().find(" Python ")->name, "python");
    EXPECT_EQ(LanguageRegistry::instance().find("rb")->name, "ruby");
}

TEST(LanguageRegistry, unknownLanguageErrorListsTheSupportedOnes)
{
    auto result = LanguageRegistry::instance().find("cobol");
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains("cobol"));
    EXPECT_TRUE(result.error().message.contains("python, javascript, java, cpp, go, r, ruby"));
}

TEST(LanguageRegistry, javaFileIsNamedAfterThePublicClass)
{
    const Language java = *LanguageRegistry::instance().find("java");
    EXPECT_EQ(java.sourceFileName("public class Primes { public static void main(String[] a) {} }"), "Primes.java");
    EXPECT_EQ(java.sourceFileName("class Helper {}\npublic final class App {}"), "App.java");
    EXPECT_EQ(java.sourceFileName("class NotPublic {}"), "Main.java");
}

TEST(LanguageRegistry, compiledLanguagesHaveACompileStep)
{
    for (const QString name : {"java", "cpp", "go"}) {
        EXPECT_TRUE(LanguageRegistry::instance().find(name)->isCompiled()) << name.toStdString();
    }
    for (const QString name : {"python", "javascript", "r", "ruby"}) {
        EXPECT_FALSE(LanguageRegistry::instance().find(name)->isCompiled()) << name.toStdString();
    }
}

TEST(LanguageRegistry, everyLanguageHasAnExampleAndAVersionCommand)
{
    for (const Language &language : LanguageRegistry::instance().languages()) {
        EXPECT_FALSE(language.examples.isEmpty()) << language.name.toStdString();
        EXPECT_FALSE(language.versionCommand.isEmpty()) << language.name.toStdString();
        EXPECT_FALSE(language.run.isEmpty()) << language.name.toStdString();
    }
}
