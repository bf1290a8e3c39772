// A run's code read once (security/ScannedSource.h): the policy's verdict on it is the verdict on the text, and what it
// says the code imports is what ImportScanner reads.
#include "security/ScannedSource.h"

#include "security/CodePolicy.h"
#include "security/SourceLexer.h"

#include <gtest/gtest.h>

using namespace sandbox;

TEST(ScannedSourceTest, anAliasIsReadAsItsLanguageAndAnUnknownNameAsPlainText)
{
    EXPECT_EQ(ScannedSource(QStringLiteral("py"), QStringLiteral("x = 1\n")).language(), QStringLiteral("python"));
    EXPECT_EQ(ScannedSource(QStringLiteral(" Cobol "), QStringLiteral("x")).language(), QStringLiteral("cobol"));
}

TEST(ScannedSourceTest, itsImportsAreImportScannersReading)
{
    const QString code =
        QStringLiteral("# import os\nimport numpy as np\nfrom seaborn import objects\nprint('import sys')\n");
    const ScannedSource scanned(QStringLiteral("python"), code);
    QStringList modules;
    for (const ImportReference &reference : scanned.imports()) {
        modules << reference.module;
    }
    EXPECT_EQ(modules,
              (QStringList{QStringLiteral("numpy"), QStringLiteral("seaborn"), QStringLiteral("seaborn.objects")}))
        << "neither the comment nor the string counts";
    EXPECT_EQ(&scanned.imports(), &scanned.imports()) << "read once, then kept";
}

TEST(ScannedSourceTest, thePolicysVerdictOnTheScannedCodeIsItsVerdictOnTheText)
{
    const CodePolicy policy = *CodePolicy::preset(QStringLiteral("default"));
    for (const QString &code : {QStringLiteral("import subprocess\nsubprocess.run(['ls'])\n"),
                                QStringLiteral("print('import subprocess')\n")}) {
        const auto fromText = policy.check(QStringLiteral("python"), code);
        const auto fromScanned = policy.check(ScannedSource(QStringLiteral("python"), code));
        ASSERT_EQ(fromText.ok(), fromScanned.ok()) << code.toStdString();
        if (!fromText) {
            EXPECT_EQ(fromText.error().message, fromScanned.error().message);
        }
    }
    EXPECT_FALSE(policy.check(ScannedSource(QStringLiteral("python"), QStringLiteral("import subprocess\n"))).ok());
}
