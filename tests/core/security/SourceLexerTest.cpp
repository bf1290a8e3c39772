#include "security/SourceLexer.h"

#include "security/ImportScanner.h"

#include <gtest/gtest.h>

using namespace sandbox;

namespace {

std::string blanked(const char *language, const char *code)
{
    return SourceLexer::lex(QString::fromLatin1(language), QString::fromUtf8(code)).blanked().toStdString();
}

QStringList modules(const char *language, const char *code)
{
    const LexedSource source = SourceLexer::lex(QString::fromLatin1(language), QString::fromUtf8(code));
    QStringList out;
    for (const ImportReference &reference : ImportScanner::imports(QString::fromLatin1(language), source)) {
        out << reference.module;
    }
    return out;
}

} // namespace

TEST(SourceLexer, blankingKeepsOffsetsAndLines)
{
    const QString code = QStringLiteral("x = 1  # a comment\ns = '''one\ntwo'''\ny = 2\n");
    const QString out = SourceLexer::lex(QStringLiteral("python"), code).blanked();
    ASSERT_EQ(out.size(), code.size());
    EXPECT_EQ(out.count(u'\n'), code.count(u'\n'));
    EXPECT_EQ(out.toStdString(), "x = 1             \ns = '''   \n   '''\ny = 2\n");
}

TEST(SourceLexer, pythonBlanksCommentsAndEveryStringForm)
{
    EXPECT_EQ(blanked("python", "a # b"), "a    ");
    EXPECT_EQ(blanked("python", "'#' + \"x\\\"y\" + r'\\'' + b\"z\""), "' ' + \"    \" + r'  ' + b\" \"");
    EXPECT_EQ(blanked("python", "\"\"\"doc\nos.system('x')\"\"\""), "\"\"\"   \n              \"\"\"");
}

TEST(SourceLexer, pythonFStringFieldsStayCode)
{
    EXPECT_EQ(blanked("python", "f\"a{os.system('x')}b{{c}}\""), "f\" {os.system(' ')}      \"");
}

TEST(SourceLexer, pythonSingleLineStringEndsAtLineEnd)
{
    // An unterminated quote cannot hide the following lines.
    EXPECT_EQ(blanked("python", "x = 'oops\nimport subprocess"), "x = '    \nimport subprocess");
}

TEST(SourceLexer, javascriptTemplateInterpolationsStayCode)
{
    EXPECT_EQ(blanked("javascript", "`a ${require('child_process')} b`"), "`  ${require('             ')}  `");
}

TEST(SourceLexer, javascriptRegexLiteralsDoNotOpenStrings)
{
    EXPECT_EQ(blanked("javascript", "x = /[\"']/.test(s); exec()"), "x = /    /.test(s); exec()");
    EXPECT_EQ(blanked("javascript", "a = b / c; d = e / f"), "a = b / c; d = e / f");
    EXPECT_EQ(blanked("javascript", "// c\n/* d\n */ x"), "    \n    \n    x");
}

TEST(SourceLexer, cppRawStringsAndDigitSeparators)
{
    EXPECT_EQ(blanked("cpp", "R\"x(a)\" system()x\" + 1'000'000 + 'c'"), "R\"x(           )x\" + 1'000'000 + ' '");
}

TEST(SourceLexer, goRawStringsSpanLines)
{
    EXPECT_EQ(blanked("go", "s := `a\n\"b` + \"c\""), "s := ` \n  ` + \" \"");
}

TEST(SourceLexer, javaTextBlocks)
{
    EXPECT_EQ(blanked("java", "s = \"\"\"\n\"x\"\n\"\"\";"), "s = \"\"\"\n   \n\"\"\";");
}

TEST(SourceLexer, rubyBackticksKeepTheirDelimitersVisible)
{
    EXPECT_EQ(blanked("ruby", "x = `ls #{dir}` # c"), "x = `   #{dir}`    ");
    EXPECT_EQ(blanked("ruby", "y = %x(ls) + %w[a b]"), "y = %x(  ) + %w[   ]");
}

TEST(SourceLexer, rubyHeredocsBlockCommentsAndEnd)
{
    EXPECT_EQ(blanked("ruby", "t = <<~EOS\n  system('x')\n  EOS\nz"), "t = <<~EOS\n             \n  EOS\nz");
    EXPECT_EQ(blanked("ruby", "=begin\nsystem('x')\n=end\nz"), "      \n           \n    \nz");
    EXPECT_EQ(blanked("ruby", "a\n__END__\nsystem('x')"), "a\n       \n           ");
    EXPECT_EQ(blanked("ruby", "puts $' + 'x'"), "puts $' + ' '");
}

TEST(SourceLexer, rKeepsNamesThatAreCalled)
{
    EXPECT_EQ(blanked("r", "`system`(\"ls\") # c"), "`system`(\"  \")    ");
    EXPECT_EQ(blanked("r", "\"system\"(\"ls\"); cat(\"system\")"), "\"system\"(\"  \"); cat(\"      \")");
    EXPECT_EQ(blanked("r", "r\"(a\"b)\""), "r\"(   )\"");
}

TEST(ImportScanner, readsModuleNamesFromImportLiteralsOnly)
{
    EXPECT_EQ(modules("javascript", "const a = require('node:child_process'); import x from \"fs\"; f('net')"),
              (QStringList{"child_process", "fs"}));
    EXPECT_EQ(modules("go", "import (\n\t\"fmt\"\n\tex \"os/exec\"\n)\nvar s = \"net\""),
              (QStringList{"fmt", "os/exec"}));
    EXPECT_EQ(modules("ruby", "require 'open3'\nputs 'socket'"), QStringList{"open3"});
    EXPECT_EQ(modules("r", "library(processx)\nrequireNamespace(\"sys\")\nx <- callr::r"),
              (QStringList{"processx", "sys", "callr"}));
    EXPECT_EQ(modules("cpp", "#include <sys/socket.h>\n#include \"local.h\""),
              (QStringList{"sys/socket.h", "local.h"}));
    EXPECT_EQ(modules("java", "import java.net.*;\nimport static java.lang.Math.max;"),
              (QStringList{"java.net", "java.lang.Math.max"}));
}

TEST(ImportScanner, pythonImportFormsAndAliases)
{
    EXPECT_EQ(modules("python", "from os import system as s, path\nimport a.b as c, d"),
              (QStringList{"os", "os.system", "os.path", "a.b", "d"}));
    EXPECT_EQ(modules("python", "from os import (\n    popen,\n)"), (QStringList{"os", "os.popen"}));
    EXPECT_EQ(modules("python", "__import__('os').system('x')"), (QStringList{"os", "os.system"}));
    EXPECT_EQ(modules("python", "import os as o\no.system('x')"), (QStringList{"os", "os.system"}));
    EXPECT_TRUE(modules("python", "from . import subprocess").isEmpty());
}
