// Every text the app shows a person goes through tr(): the check the translations rest on (scripts/check-translations
// proves that every marked text is translated; this proves that every shown text is marked). A pseudo-translation
// wraps every text it is asked for in ⟦…⟧; the window's pages and every dialog are then walked widget by widget, and
// any shown text with an English word outside the brackets is a text that never reached a translator.
#include "AppContext.h"
#include "ScopedEnvironment.h"
#include "gui/DesktopApp.h"
#include "gui/MainWindow.h"
#include "gui/connect/ConnectAssistantDialog.h"
#include "gui/settings/NetworkSecretDialog.h"
#include "gui/settings/SettingsDialog.h"
#include "gui/widgets/ArtifactPreviewDialog.h"
#include "secrets/MemorySecretStore.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QTextDocument>
#include <QTranslator>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

/// Translates every text into itself in brackets: a text shown without them was never translated.
class BracketingTranslator final : public QTranslator
{
public:
    bool isEmpty() const override { return false; }
    QString translate(const char *, const char *source, const char *, int) const override
    {
        return QStringLiteral("⟦%1⟧").arg(QString::fromUtf8(source));
    }
};

/// A text shown with the brackets' contents removed, the words left in it that read as English: data (paths, URLs,
/// versions, names with digits or punctuation in them) and proper names (products, languages, units) are not.
QStringList englishWordsOutsideBrackets(QString text)
{
    // Innermost first: a translated text may hold others ("⟦⟦Charts (2)⟧ — double-click to enlarge⟧").
    static const QRegularExpression bracketed(QStringLiteral("⟦[^⟦⟧]*⟧"));
    static const QRegularExpression tag(QStringLiteral("<[^>]*>"));
    static const QRegularExpression word(QStringLiteral("^[A-Za-z][a-z]+$|^[A-Z]{2,}$"));
    static const QStringList names{
        QStringLiteral("Docker"),  QStringLiteral("Podman"), QStringLiteral("Kubernetes"), QStringLiteral("gVisor"),
        QStringLiteral("MCP"),     QStringLiteral("LLM"),    QStringLiteral("Python"),     QStringLiteral("JavaScript"),
        QStringLiteral("Java"),    QStringLiteral("Go"),     QStringLiteral("Ruby"),       QStringLiteral("Claude"),
        QStringLiteral("Cursor"),  QStringLiteral("VS"),     QStringLiteral("Code"),       QStringLiteral("English"),
        QStringLiteral("Sandbox"), QStringLiteral("HTTP"),   QStringLiteral("JSON"),       QStringLiteral("SVG"),
        QStringLiteral("PNG"),     QStringLiteral("CPU"),    QStringLiteral("MiB"),        QStringLiteral("GiB"),
        QStringLiteral("KiB"),     QStringLiteral("ms"),     QStringLiteral("runc"),       QStringLiteral("runsc"),
        QStringLiteral("Desktop"), QStringLiteral("cpp"),    QStringLiteral("stdio"),
    };
    while (text.contains(bracketed)) {
        text.remove(bracketed);
    }
    text.remove(tag);
    QStringList english;
    for (const QString &token : text.split(QRegularExpression(QStringLiteral("[\\s,;()\"'“”]+")), Qt::SkipEmptyParts)) {
        QString bare = token;
        while (!bare.isEmpty() && QStringLiteral(".:!?…").contains(bare.back())) {
            bare.chop(1);
        }
        // Names as the command line spells them (python, docker) are names too.
        if (word.match(bare).hasMatch() && !names.contains(bare, Qt::CaseInsensitive)) {
            english << bare;
        }
    }
    return english;
}

/// Every text `root` and its children show a person, each with where it is shown.
QList<std::pair<QString, QString>> shownTexts(QWidget *root)
{
    QList<std::pair<QString, QString>> texts;
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *widget : widgets) {
        const QString where =
            QStringLiteral("%1 %2").arg(QString::fromLatin1(widget->metaObject()->className()), widget->objectName());
        auto add = [&](const QString &what, const QString &text) {
            if (!text.isEmpty()) {
                texts.append({where + QLatin1Char(' ') + what, text});
            }
        };
        if (widget->isWindow()) {
            add(QStringLiteral("title"), widget->windowTitle());
        }
        add(QStringLiteral("tool tip"), widget->toolTip());
        for (QAction *action : widget->actions()) {
            add(QStringLiteral("action"), action->text());
            add(QStringLiteral("action tip"),
                action->toolTip() == QString(action->text()).remove(QLatin1Char('&')) ? QString() : action->toolTip());
        }
        if (auto *label = qobject_cast<QLabel *>(widget)) {
            add(QStringLiteral("label"), label->text());
        } else if (auto *button = qobject_cast<QAbstractButton *>(widget)) {
            add(QStringLiteral("button"), button->text());
        } else if (auto *group = qobject_cast<QGroupBox *>(widget)) {
            add(QStringLiteral("group"), group->title());
        } else if (auto *tabs = qobject_cast<QTabWidget *>(widget)) {
            for (int i = 0; i < tabs->count(); ++i) {
                add(QStringLiteral("tab"), tabs->tabText(i));
                add(QStringLiteral("tab tip"), tabs->tabToolTip(i));
            }
        } else if (auto *line = qobject_cast<QLineEdit *>(widget)) {
            add(QStringLiteral("placeholder"), line->placeholderText());
        } else if (auto *plain = qobject_cast<QPlainTextEdit *>(widget)) {
            add(QStringLiteral("placeholder"), plain->placeholderText());
        } else if (auto *combo = qobject_cast<QComboBox *>(widget)) {
            for (int i = 0; i < combo->count(); ++i) {
                add(QStringLiteral("choice"), combo->itemText(i));
            }
        } else if (auto *spin = qobject_cast<QSpinBox *>(widget)) {
            add(QStringLiteral("suffix"), spin->suffix());
            add(QStringLiteral("prefix"), spin->prefix());
            add(QStringLiteral("special value"), spin->specialValueText());
        } else if (auto *menu = qobject_cast<QMenu *>(widget)) {
            add(QStringLiteral("menu"), menu->title());
        }
        if (auto *list = qobject_cast<QListWidget *>(widget)) {
            for (int i = 0; i < list->count(); ++i) {
                add(QStringLiteral("item"), list->item(i)->text());
            }
        } else if (auto *view = qobject_cast<QAbstractItemView *>(widget); view && view->model()) {
            for (int column = 0; column < view->model()->columnCount(); ++column) {
                add(QStringLiteral("header"), view->model()->headerData(column, Qt::Horizontal).toString());
            }
        }
    }
    return texts;
}

/// The texts of `root` that were never translated, one line each, for the failure message.
QString untranslated(QWidget *root)
{
    QString report;
    for (const auto &[where, text] : shownTexts(root)) {
        const QStringList english = englishWordsOutsideBrackets(text);
        if (!english.isEmpty()) {
            report += QStringLiteral("%1: \"%2\" (%3)\n").arg(where, text, english.join(QLatin1Char(' ')));
        }
    }
    return report;
}

#define EXPECT_UNTRANSLATED_NONE(root)                                                                                 \
    do {                                                                                                               \
        const QString report = untranslated(root);                                                                     \
        EXPECT_TRUE(report.isEmpty()) << "texts shown without a translation:\n" << qPrintable(report);                 \
    } while (false)

class TranslationCoverageTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        QCoreApplication::installTranslator(&translator);
        auto made = AppContext::create({.source = RunSource::Gui});
        ASSERT_TRUE(made.ok()) << qPrintable(made.error().message);
        context = std::move(*made);
    }
    void TearDown() override { QCoreApplication::removeTranslator(&translator); }

    BracketingTranslator translator;
    sandbox::test::ScopedEnvironment journalOff{{"LLM_SANDBOX_JOURNAL", QByteArray("off")}};
    std::unique_ptr<AppContext> context;
};

} // namespace

TEST(TranslationCoverageCheck, findsAnUnmarkedWordAndPassesDataAndNames)
{
    EXPECT_EQ(englishWordsOutsideBrackets(QStringLiteral("⟦Stop⟧")), QStringList());
    EXPECT_EQ(englishWordsOutsideBrackets(QStringLiteral("⟦Docker %1⟧ 28.2.2 /run/docker.sock")), QStringList());
    EXPECT_EQ(englishWordsOutsideBrackets(QStringLiteral("Docker, Python 3.13 (runc)")), QStringList());
    EXPECT_EQ(englishWordsOutsideBrackets(QStringLiteral("<b>⟦Images⟧</b> Refresh")),
              QStringList{QStringLiteral("Refresh")});
    EXPECT_EQ(englishWordsOutsideBrackets(QStringLiteral("⟦Compare (⟦Ctrl⟧⟦+⟧D), then pick⟧ more")),
              QStringList{QStringLiteral("more")});
    EXPECT_EQ(englishWordsOutsideBrackets(QStringLiteral("Not marked.")),
              (QStringList{QStringLiteral("Not"), QStringLiteral("marked")}));
}

TEST_F(TranslationCoverageTest, everyPageOfTheWindowShowsOnlyTranslatedTexts)
{
    DesktopApp desktop(*context);
    MainWindow window(desktop);
    window.show();
    auto *navigation = window.findChild<QListWidget *>(QStringLiteral("navigation"));
    ASSERT_NE(navigation, nullptr);
    ASSERT_GE(navigation->count(), 7);
    for (int page = 0; page < navigation->count(); ++page) {
        navigation->setCurrentRow(page);
        QTest::qWait(50);
    }
    EXPECT_UNTRANSLATED_NONE(&window);
    // The menus' actions live in the menus, which findChildren reaches through the menu bar.
    for (QMenu *menu : window.menuBar()->findChildren<QMenu *>()) {
        EXPECT_UNTRANSLATED_NONE(menu);
    }
}

TEST_F(TranslationCoverageTest, everyDialogShowsOnlyTranslatedTexts)
{
    MemorySecretStore keychain;
    SettingsDialog settings(context->userSettings(), keychain);
    EXPECT_UNTRANSLATED_NONE(&settings);

    // Settings → Network's Add Secret, saying what is wrong with a name.
    NetworkSecretDialog secret(keychain, QStringList());
    secret.findChild<QLineEdit *>(QStringLiteral("secretName"))->setText(QStringLiteral("github-token"));
    ASSERT_FALSE(secret.problem().isEmpty());
    EXPECT_UNTRANSLATED_NONE(&secret);

    ConnectAssistantDialog connect(keychain, QStringLiteral("docker"));
    EXPECT_UNTRANSLATED_NONE(&connect);

    const QByteArray svg = "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>";
    ArtifactPreviewDialog preview({{.name = QStringLiteral("chart.svg"),
                                    .mimeType = QStringLiteral("image/svg+xml"),
                                    .data = svg,
                                    .runId = QStringLiteral("run")}},
                                  0);
    EXPECT_UNTRANSLATED_NONE(&preview);
}
