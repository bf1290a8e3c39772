// Settings → Network (issue 48): what sandboxes may reach when a run asks, kept in the user settings and becoming the
// ceiling of every face's SandboxSettings (LLM_SANDBOX_NETWORK_ALLOW still wins).
#include "gui/settings/NetworkPage.h"

#include "AppContext.h"
#include "ScopedEnvironment.h"
#include "gui/settings/NetworkHostModel.h"
#include "gui/settings/SettingsDialog.h"
#include "settings/UserSettings.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

class NetworkPageTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_config.isValid());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_config.path());
    }
    void TearDown() override
    {
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation));
    }
    static NetworkAllowList parsed(const QString &text)
    {
        auto allowed = NetworkAllowList::parse(text);
        EXPECT_TRUE(allowed) << qPrintable(allowed.error().message);
        return allowed ? *allowed : NetworkAllowList();
    }

    QTemporaryDir m_config;
    test::ScopedEnvironment m_environment{{"LLM_SANDBOX_NETWORK_ALLOW", QByteArray()}, {"LLM_SANDBOX_JOURNAL", "off"}};
};

} // namespace

TEST_F(NetworkPageTest, theHostListTakesOnlyHostsOnceEachAndSaysWhyOneIsRefused)
{
    NetworkHostModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QStringList refusals;
    QObject::connect(&model, &NetworkHostModel::refused, [&refusals](const QString &why) { refusals << why; });

    EXPECT_TRUE(model.addEntry(QStringLiteral("  API.Example.org ")));
    EXPECT_TRUE(model.addEntry(QStringLiteral("*.example.org:8443")));
    EXPECT_TRUE(model.addEntry(QStringLiteral("203.0.113.7:80")));
    EXPECT_EQ(model.entries(), (QStringList{QStringLiteral("api.example.org"), QStringLiteral("*.example.org:8443"),
                                            QStringLiteral("203.0.113.7:80")}))
        << "lower case, the default ports unsaid";
    for (const char *bad : {"not a host", "api.example.org:99999", "exa_mple.org", "http://api.example.org", ""}) {
        EXPECT_FALSE(model.addEntry(QString::fromUtf8(bad))) << bad;
    }
    ASSERT_EQ(refusals.size(), 5);
    EXPECT_TRUE(refusals.first().contains(QStringLiteral("“not a host” is not a host"))) << qPrintable(refusals[0]);
    EXPECT_TRUE(refusals.at(1).contains(QLatin1String(":PORT (1 to 65535)"))) << qPrintable(refusals[1]);
    EXPECT_EQ(refusals.last(), QStringLiteral("Write a host, such as api.example.org."));
    EXPECT_FALSE(model.addEntry(QStringLiteral("API.example.org")));
    EXPECT_EQ(refusals.last(), QStringLiteral("api.example.org is already in the list."));
    EXPECT_EQ(model.rowCount(), 3);

    // Edited in place: checked as an addition is, the entry itself not counted as another.
    const QModelIndex first = model.index(0);
    EXPECT_TRUE(model.setData(first, QStringLiteral("API.example.org")));
    EXPECT_FALSE(model.setData(first, QStringLiteral("*.example.org:8443")));
    EXPECT_FALSE(model.setData(first, QStringLiteral("bad host")));
    EXPECT_TRUE(model.setData(first, QStringLiteral("pypi.org:443")));
    EXPECT_EQ(model.allowList(), parsed(QStringLiteral("pypi.org:443, *.example.org:8443, 203.0.113.7:80")));

    // A host with several ports is a row per port; the list comes back as it went in.
    const NetworkAllowList several = parsed(QStringLiteral("api.test, api.test:8443, *.example.org"));
    model.setAllowList(several);
    EXPECT_EQ(model.entries(), (QStringList{QStringLiteral("api.test:80"), QStringLiteral("api.test:443"),
                                            QStringLiteral("api.test:8443"), QStringLiteral("*.example.org")}));
    EXPECT_EQ(model.allowList(), several);
    model.removeEntry(2);
    EXPECT_EQ(model.allowList(), parsed(QStringLiteral("api.test, *.example.org")));
}

TEST_F(NetworkPageTest, thePresetsAndTheHostsAreChosenAsRadioButtonsWithTheHostsCheckedInline)
{
    NetworkPage page;
    page.resize(700, 500);
    page.show();
    auto *nothing = page.findChild<QRadioButton *>(QStringLiteral("networkNothing"));
    auto *registries = page.findChild<QRadioButton *>(QStringLiteral("networkRegistries"));
    auto *hosts = page.findChild<QRadioButton *>(QStringLiteral("networkHosts"));
    auto *list = page.findChild<QListView *>(QStringLiteral("networkHostList"));
    auto *field = page.findChild<QLineEdit *>(QStringLiteral("networkNewHost"));
    auto *add = page.findChild<QPushButton *>(QStringLiteral("networkAdd"));
    auto *remove = page.findChild<QPushButton *>(QStringLiteral("networkRemove"));
    auto *problem = page.findChild<QLabel *>(QStringLiteral("networkProblem"));
    ASSERT_TRUE(nothing && registries && hosts && list && field && add && remove && problem);
    EXPECT_EQ(nothing->text(), QStringLiteral("&Nothing (default)"));
    EXPECT_TRUE(nothing->isChecked()) << "nothing by default";
    EXPECT_TRUE(page.allowList().isEmpty());
    EXPECT_FALSE(list->isEnabled());
    EXPECT_FALSE(add->isEnabled()) << "nothing written yet";
    // What the page promises, in words.
    const QString note = page.findChild<QLabel *>(QStringLiteral("networkNote"))->text();
    EXPECT_TRUE(note.contains(QLatin1String("private and loopback addresses and this computer's are never reachable")))
        << qPrintable(note);
    EXPECT_TRUE(note.contains(QLatin1String("is shown with the run")));
    EXPECT_TRUE(page.findChild<QLabel *>(QStringLiteral("networkIntro"))
                    ->text()
                    .contains(QLatin1String("A run gets some only when it asks for hosts")));
    EXPECT_TRUE(page.findChild<QLabel *>(QStringLiteral("networkHostsHint"))
                    ->text()
                    .contains(QLatin1String("*.example.org: example.org and every host under it. Add :PORT")));

    registries->click();
    EXPECT_EQ(page.choice(), NetworkPage::Choice::Registries);
    EXPECT_EQ(page.allowList(), parsed(QStringLiteral("registries")));

    // A host typed and added (Return) chooses "These hosts"; a bad one is said under the list and not added.
    QTest::keyClicks(field, QStringLiteral("api.test"));
    EXPECT_TRUE(add->isEnabled());
    QTest::keyClick(field, Qt::Key_Return);
    EXPECT_TRUE(field->text().isEmpty());
    EXPECT_TRUE(hosts->isChecked());
    EXPECT_TRUE(list->isEnabled());
    QTest::keyClicks(field, QStringLiteral("api.test:0"));
    QTest::mouseClick(add, Qt::LeftButton);
    EXPECT_EQ(field->text(), QStringLiteral("api.test:0")) << "kept to be corrected";
    EXPECT_TRUE(problem->isVisibleTo(&page));
    EXPECT_TRUE(page.problem().startsWith(QStringLiteral("“api.test:0” is not a host"))) << qPrintable(page.problem());
    field->clear();
    EXPECT_TRUE(page.addHost(QStringLiteral("*.example.org:8443")));
    EXPECT_FALSE(problem->isVisibleTo(&page)) << "a good one clears the problem";
    EXPECT_EQ(page.allowList(), parsed(QStringLiteral("api.test, *.example.org:8443")));

    // Remove takes the selected host off.
    list->setCurrentIndex(list->model()->index(0, 0));
    EXPECT_TRUE(remove->isEnabled());
    QTest::mouseClick(remove, Qt::LeftButton);
    EXPECT_EQ(page.allowList(), parsed(QStringLiteral("*.example.org:8443")));

    // Another choice keeps the list for later, but allows only what it says.
    nothing->click();
    EXPECT_TRUE(page.allowList().isEmpty());
    EXPECT_FALSE(remove->isEnabled());
    hosts->click();
    EXPECT_EQ(page.allowList(), parsed(QStringLiteral("*.example.org:8443")));

    // Shown again as what it is.
    page.setAllowList(parsed(QStringLiteral("registries")));
    EXPECT_TRUE(registries->isChecked());
    page.setAllowList(parsed(QStringLiteral("pypi.org")));
    EXPECT_TRUE(hosts->isChecked()) << "one registry is a host, not the preset";
    page.setAllowList({});
    EXPECT_TRUE(nothing->isChecked());
}

TEST_F(NetworkPageTest, theChoiceIsKeptInTheUserSettingsAndBecomesTheAppsCeiling)
{
    UserSettings settings;
    EXPECT_TRUE(settings.networkAllow().isEmpty()) << "nothing by default";
    {
        SettingsDialog dialog(settings);
        dialog.showNetwork();
        auto *page = dialog.findChild<NetworkPage *>();
        ASSERT_NE(page, nullptr);
        auto *tabs = dialog.findChild<QTabWidget *>(QStringLiteral("settingsTabs"));
        EXPECT_EQ(tabs->currentWidget(), page);
        EXPECT_EQ(tabs->tabText(tabs->currentIndex()), QStringLiteral("&Network"));
        EXPECT_TRUE(page->findChild<QRadioButton *>(QStringLiteral("networkNothing"))->isChecked());
        ASSERT_TRUE(page->addHost(QStringLiteral("api.test")));
        ASSERT_TRUE(page->addHost(QStringLiteral("*.example.org:8443")));
        dialog.apply();
    }
    const NetworkAllowList chosen = parsed(QStringLiteral("api.test, *.example.org:8443"));
    EXPECT_EQ(UserSettings().networkAllow(), chosen);
    EXPECT_EQ(QSettings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("llm-sandbox"),
                        QStringLiteral("llm-sandbox"))
                  .value(QStringLiteral("network/allow"))
                  .toString(),
              chosen.text());
    {
        SettingsDialog again(settings);
        EXPECT_EQ(again.findChild<NetworkPage *>()->allowList(), chosen) << "shown again";
    }

    // The desktop app's ceiling (its runs and its MCP server); a server an assistant starts itself, and the command
    // line, allow only what LLM_SANDBOX_NETWORK_ALLOW says, as they share only what LLM_SANDBOX_SHARE does.
    auto app = AppContext::create({.source = RunSource::Gui, .desktopSettings = true});
    ASSERT_TRUE(app) << qPrintable(app.error().message);
    EXPECT_EQ((*app)->settings().networkAllow, chosen);
    auto cli = AppContext::create({.source = RunSource::Mcp});
    ASSERT_TRUE(cli);
    EXPECT_TRUE((*cli)->settings().networkAllow.isEmpty());

    // A change applies to the next runs (the engines made so far are retired).
    settings.setNetworkAllow(parsed(QStringLiteral("registries")));
    EXPECT_TRUE((*app)->reloadSandboxSettings());
    EXPECT_EQ((*app)->settings().networkAllow, parsed(QStringLiteral("registries")));
    EXPECT_FALSE((*app)->reloadSandboxSettings()) << "nothing changed since";
    settings.setNetworkAllow({});
    EXPECT_TRUE((*app)->reloadSandboxSettings());
    EXPECT_TRUE((*app)->settings().networkAllow.isEmpty());
    EXPECT_FALSE(QSettings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("llm-sandbox"),
                           QStringLiteral("llm-sandbox"))
                     .contains(QStringLiteral("network/allow")))
        << "nothing is the default: not written";

    // A hand-edited entry that does not parse allows nothing.
    QSettings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("llm-sandbox"), QStringLiteral("llm-sandbox"))
        .setValue(QStringLiteral("network/allow"), QStringLiteral("api.test, not a host!"));
    EXPECT_TRUE(UserSettings().networkAllow().isEmpty());
}

TEST_F(NetworkPageTest, theEnvironmentWinsAndThePageSaysSoReadOnly)
{
    UserSettings settings;
    settings.setNetworkAllow(parsed(QStringLiteral("api.test")));
    const test::ScopedEnvironment environment{{"LLM_SANDBOX_NETWORK_ALLOW", "pypi.org"}};
    auto app = AppContext::create({.source = RunSource::Gui, .desktopSettings = true});
    ASSERT_TRUE(app) << qPrintable(app.error().message);
    EXPECT_EQ((*app)->settings().networkAllow, parsed(QStringLiteral("pypi.org")));
    settings.setNetworkAllow(parsed(QStringLiteral("registries")));
    EXPECT_FALSE((*app)->reloadSandboxSettings()) << "the environment's value stays for the whole process";
    EXPECT_EQ((*app)->settings().networkAllow, parsed(QStringLiteral("pypi.org")));

    SettingsDialog dialog(settings);
    dialog.show();
    auto *page = dialog.findChild<NetworkPage *>();
    ASSERT_NE(page, nullptr);
    dialog.showNetwork();
    auto *said = page->findChild<QLabel *>(QStringLiteral("networkEnvironment"));
    ASSERT_NE(said, nullptr);
    EXPECT_TRUE(said->isVisible());
    EXPECT_TRUE(said->text().contains(QLatin1String("LLM_SANDBOX_NETWORK_ALLOW is set")));
    EXPECT_TRUE(said->text().contains(QLatin1String("runs may reach pypi.org"))) << qPrintable(said->text());
    for (const char *name : {"networkNothing", "networkRegistries", "networkHosts"}) {
        EXPECT_FALSE(page->findChild<QRadioButton *>(QLatin1String(name))->isEnabled()) << name;
    }
    EXPECT_FALSE(page->findChild<QLineEdit *>(QStringLiteral("networkNewHost"))->isEnabled());
    EXPECT_FALSE(page->addHost(QStringLiteral("other.test")));
    EXPECT_TRUE(page->findChild<QRadioButton *>(QStringLiteral("networkRegistries"))->isChecked())
        << "the user's own choice, shown as it is kept";
}
