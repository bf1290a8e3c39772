// The command line under a translation: wide (Chinese) text keeps its columns, errors gain their translated headline.
#include "ErrorText.h"
#include "cli/BuildProgressView.h"
#include "cli/CliContext.h"

#include <QCoreApplication>
#include <QTranslator>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::cli;

namespace {

/// A translation of a few of the command line's strings, installed for one test.
class FakeChinese final : public QTranslator
{
public:
    FakeChinese() { QCoreApplication::installTranslator(this); }
    ~FakeChinese() override { QCoreApplication::removeTranslator(this); }

    bool isEmpty() const override { return false; }

    QString translate(const char *context, const char *source, const char *, int) const override
    {
        const QString key = QLatin1String(context) + u'|' + QLatin1String(source);
        if (key == QLatin1String("ErrorText|The container engine does not answer. Is it running?")) {
            return QStringLiteral("容器引擎没有响应。它在运行吗？");
        }
        if (key == QLatin1String("BuildProgressView|building")) {
            return QStringLiteral("正在构建正在构建正在构建正在构建正在构建");
        }
        if (key == QLatin1String("Cli|open the desktop app")) {
            return QStringLiteral("打开桌面应用");
        }
        return {};
    }
};

ImageBuildEvent started(const QString &name)
{
    return ImageBuildEvent{.reference = QStringLiteral("llm-sandbox/%1:abc").arg(name),
                           .name = name,
                           .kind = ImageBuildEvent::Kind::Started,
                           .line = {},
                           .seconds = 0};
}

} // namespace

TEST(TranslatedOutput, chineseCharactersTakeTwoTerminalColumns)
{
    EXPECT_EQ(displayWidth(QStringLiteral("python")), 6);
    EXPECT_EQ(displayWidth(QStringLiteral("语言")), 4);
    EXPECT_EQ(displayWidth(QStringLiteral("状态：ok")), 8);
    EXPECT_EQ(padded(QStringLiteral("语言"), -8), QStringLiteral("语言    "));
    EXPECT_EQ(padded(QStringLiteral("大小"), 8), QStringLiteral("    大小"));
    EXPECT_EQ(padded(QStringLiteral("much too long"), -4), QStringLiteral("much too long"));
    EXPECT_EQ(truncated(QStringLiteral("ab语言"), 5), QStringLiteral("ab语"));
    EXPECT_EQ(truncated(QStringLiteral("ab语言"), 6), QStringLiteral("ab语言"));
    // A character outside the BMP (a surrogate pair) is kept or dropped whole.
    const QString wide = QString::fromUcs4(U"a\U00020000b");
    EXPECT_EQ(truncated(wide, 2), QStringLiteral("a"));
    EXPECT_EQ(truncated(wide, 3), QString::fromUcs4(U"a\U00020000"));
}

TEST(TranslatedOutput, anErrorLineIsTheEnglishMessageAloneUntranslated)
{
    const Error error{QStringLiteral("Cannot connect to unix:///nonexistent."), ErrorCode::EngineUnreachable};
    EXPECT_EQ(errorLine(error), error.message);
    EXPECT_EQ(errorText(error),
              QStringLiteral("The container engine does not answer. Is it running?\n") + error.message);
}

TEST(TranslatedOutput, aTranslatedErrorLineStartsWithItsHeadline)
{
    const FakeChinese chinese;
    const Error error{QStringLiteral("Cannot connect to unix:///nonexistent."), ErrorCode::EngineUnreachable};
    EXPECT_EQ(errorLine(error), QStringLiteral("容器引擎没有响应。它在运行吗？ ") + error.message);
}

TEST(TranslatedOutput, usageDescriptionsStayInTheirColumn)
{
    const FakeChinese chinese;
    const QString usage = usageText();
    EXPECT_TRUE(usage.contains(QStringLiteral("\n  llm-sandbox                      打开桌面应用\n")))
        << usage.toStdString();
}

TEST(TranslatedOutput, aWideProgressLineStillFitsTheTerminal)
{
    const FakeChinese chinese;
    QString text;
    QTextStream stream(&text);
    BuildProgressView view(stream, true, 60);
    view.handle(started(QStringLiteral("python-runtime")));
    view.finish();
    const QString lastLine = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts).last();
    const QString drawn = lastLine.mid(lastLine.lastIndexOf(QLatin1String("\x1b[2K")) + 4);
    EXPECT_TRUE(drawn.contains(QStringLiteral("正在构建"))) << drawn.toStdString();
    // A line wider than the terminal would wrap, and the next redraw would climb one line too few.
    EXPECT_LE(displayWidth(drawn), 59) << drawn.toStdString();
    EXPECT_GT(drawn.size(), 40); // cut by columns, not by characters
}
