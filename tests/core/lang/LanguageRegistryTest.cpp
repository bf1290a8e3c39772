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

TEST(LanguageRegistry, javaRunsTheClassThatDeclaresMain)
{
    const Language java = *LanguageRegistry::instance().find("java");
    const QString code = "class Helper { static int x() { return 1; } }\n"
                         "class App { public static void main(String[] args) {} }\n";
    EXPECT_EQ(java.sourceFileName(code), "Main.java");
    EXPECT_EQ(java.entryPoint(code), "App");
    EXPECT_EQ(java.commandFor(java.run, code), QStringList({"java", "-cp", ".:/tmp/libs/java/*", "App"}));
    EXPECT_EQ(java.entryPoint("public class Primes { public static void main(String[] a) {} }"), "Primes");
}

TEST(LanguageRegistry, commandsSubstituteFileAndStem)
{
    const Language cpp = *LanguageRegistry::instance().find("cpp");
    EXPECT_EQ(cpp.commandFor(cpp.compile, "int main() {}"),
              QStringList({"g++", "-std=c++23", "-O2", "-DFMT_HEADER_ONLY", "-I/opt/llm-sandbox/cpp/pch", "-o", "main",
                           "main.cpp", "@.llm-sandbox-cxxflags"}));
    EXPECT_EQ(cpp.commandFor(cpp.run, "int main() {}"), QStringList({"./main"}));
}

TEST(LanguageRegistry, goIsBuiltAsAModule)
{
    const Language go = *LanguageRegistry::instance().find("go");
    EXPECT_TRUE(go.projectFiles.value("go.mod").startsWith("module "));
}

TEST(LanguageRegistry, preinstalledLibrariesAreTheNamesInTheImageDefinition)
{
    const Language python = *LanguageRegistry::instance().find("python");
    EXPECT_TRUE(python.preinstalledLibraries.contains("scikit-learn"));
    EXPECT_TRUE(python.preinstalledLibraries.contains("pillow"));
    EXPECT_FALSE(python.preinstalledLibraries.contains("python3-sklearn")); // the package, not the name
    const Language r = *LanguageRegistry::instance().find("r");
    EXPECT_TRUE(r.preinstalledLibraries.contains("dplyr"));
    EXPECT_TRUE(r.preinstalledLibraries.contains("svglite"));
    EXPECT_TRUE(LanguageRegistry::instance().find("cpp")->preinstalledLibraries.contains("C++ standard library"));
    for (const Language &language : LanguageRegistry::instance().languages()) {
        EXPECT_FALSE(language.preinstalledLibraries.isEmpty()) << language.name.toStdString();
    }
}

TEST(LanguageRegistry, javaMainClassIsTheOneEnclosingMainNotARecordDeclaredBeforeIt)
{
    const Language java = *LanguageRegistry::instance().find("java");
    const QString code = "public class Shapes {\n"
                         "    sealed interface Shape permits Circle, Square {}\n"
                         "    record Circle(double r) implements Shape {}\n"
                         "    record Square(double side) implements Shape { String name() { return \"}\"; } }\n"
                         "    // class Decoy {\n"
                         "    public static void main(String[] args) {}\n"
                         "}\n";
    EXPECT_EQ(java.entryPoint(code), "Shapes");
    EXPECT_EQ(java.entryPoint("class Helper {}\nclass App {\n    static void main(String[] a) {}\n}\n"), "App");
}
