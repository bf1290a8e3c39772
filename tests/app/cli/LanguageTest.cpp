// The language the program speaks: the system's locale, unless the settings choose one (AppTranslations), through
// the real binary; and English's own file, which gives the texts that count their plural forms.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTranslator>
#include <gtest/gtest.h>

namespace {

struct Output
{
    int exitCode = -1;
    QString out;
    QString err;
};

class LanguageTest : public ::testing::Test
{
protected:
    /// llm-sandbox ARGUMENTS under the locale `lang` (LANG; LC_ALL and LANGUAGE unset), with `language` as the
    /// settings' choice (empty: none).
    Output run(const QStringList &arguments, const QString &lang, const QString &language = {})
    {
        if (!language.isEmpty()) {
            QDir().mkpath(m_config.filePath(QStringLiteral("llm-sandbox")));
            QFile file(m_config.filePath(QStringLiteral("llm-sandbox/llm-sandbox.ini")));
            EXPECT_TRUE(file.open(QIODevice::WriteOnly));
            file.write("[app]\nlanguage=" + language.toUtf8() + "\n");
        }
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove(QStringLiteral("LC_ALL"));
        environment.remove(QStringLiteral("LC_MESSAGES"));
        environment.remove(QStringLiteral("LANGUAGE"));
        environment.insert(QStringLiteral("LANG"), lang);
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_config.path());
        QProcess process;
        process.setProcessEnvironment(environment);
        process.start(qEnvironmentVariable("LLM_SANDBOX_BIN"), arguments);
        EXPECT_TRUE(process.waitForFinished(30000));
        return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                QString::fromUtf8(process.readAllStandardError())};
    }

    QTemporaryDir m_config;
};

} // namespace

TEST_F(LanguageTest, followsTheSystemsLocale)
{
    const Output chinese = run({QStringLiteral("--help")}, QStringLiteral("zh_CN.UTF-8"));
    EXPECT_EQ(chinese.exitCode, 0);
    EXPECT_TRUE(chinese.out.contains(QStringLiteral("打开桌面应用"))) << chinese.out.toStdString();

    const Output english = run({QStringLiteral("--help")}, QStringLiteral("en_US.UTF-8"));
    EXPECT_TRUE(english.out.contains(QStringLiteral("open the desktop app"))) << english.out.toStdString();
    // A locale without a translation of its own gets English.
    const Output german = run({QStringLiteral("--help")}, QStringLiteral("de_DE.UTF-8"));
    EXPECT_EQ(german.out, english.out);
}

TEST_F(LanguageTest, theSettingsChoiceWinsOverTheLocale)
{
    const Output english = run({QStringLiteral("--help")}, QStringLiteral("zh_CN.UTF-8"), QStringLiteral("en"));
    EXPECT_TRUE(english.out.contains(QStringLiteral("open the desktop app"))) << english.out.toStdString();

    const Output chinese = run({QStringLiteral("nope")}, QStringLiteral("C"), QStringLiteral("zh_CN"));
    EXPECT_EQ(chinese.exitCode, 2);
    EXPECT_TRUE(chinese.err.contains(QStringLiteral("未知命令"))) << chinese.err.toStdString();
}

TEST_F(LanguageTest, aStoredLanguageThatIsNoneOfOursIsTheSystems)
{
    const Output output = run({QStringLiteral("--help")}, QStringLiteral("zh_CN.UTF-8"), QStringLiteral("../../etc"));
    EXPECT_TRUE(output.out.contains(QStringLiteral("打开桌面应用"))) << output.out.toStdString();
}

TEST(EnglishPlurals, countedTextsHaveASingularAndAPlural)
{
    QTranslator english;
    ASSERT_TRUE(english.load(QStringLiteral(":/i18n/llm-sandbox_en.qm")));
    EXPECT_EQ(english.translate("sandbox::gui::MainWindow", "%n run(s) in progress", nullptr, 1),
              QStringLiteral("%n run in progress"));
    EXPECT_EQ(english.translate("sandbox::gui::MainWindow", "%n run(s) in progress", nullptr, 3),
              QStringLiteral("%n runs in progress"));
}
