// Settings → Network (issue 48): what sandboxes may reach when a run asks, kept in the user settings and becoming the
// ceiling of every face's SandboxSettings (LLM_SANDBOX_NETWORK_ALLOW still wins); and the secrets runs use with those
// hosts without seeing them, their values in the keychain (a MemorySecretStore here), their bindings in the secrets
// file (LLM_SANDBOX_SECRETS_FILE, the test's own).
#include "gui/settings/NetworkPage.h"

#include "AppContext.h"
#include "ScopedEnvironment.h"
#include "gui/RunText.h"
#include "gui/settings/NetworkHostModel.h"
#include "gui/settings/NetworkSecretDialog.h"
#include "gui/settings/NetworkSecretModel.h"
#include "gui/settings/NetworkSecretsPanel.h"
#include "gui/settings/SettingsDialog.h"
#include "secrets/MemorySecretStore.h"
#include "settings/UserSettings.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
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

    /// The bindings in the secrets file.
    static QList<NetworkSecret> bindings()
    {
        auto secrets = NetworkSecretsFile::load();
        EXPECT_TRUE(secrets) << qPrintable(secrets.error().message);
        return secrets ? *secrets : QList<NetworkSecret>();
    }
    /// The value the keychain holds under the secret `name`'s key; empty when none.
    QByteArray stored(const QString &name)
    {
        const auto value = m_keychain.get(NetworkSecret::keychainKey(name)).result();
        EXPECT_TRUE(value) << qPrintable(value.error().message);
        return value && value->has_value() ? **value : QByteArray();
    }
    /// Stores the secret `name` as `llm-sandbox secrets set` does.
    void storeSecret(const QString &name, const QStringList &hosts, const QByteArray &value)
    {
        auto binding = NetworkSecret::make(name, hosts, QStringLiteral("Authorization: Bearer {}"));
        ASSERT_TRUE(binding);
        ASSERT_TRUE(m_keychain.set(NetworkSecret::keychainKey(name), value).result());
        QList<NetworkSecret> secrets = bindings();
        secrets << *binding;
        ASSERT_TRUE(NetworkSecretsFile::save(secrets));
    }
    static QPushButton *okButton(NetworkSecretDialog *dialog)
    {
        return dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    }
    /// Types into the Add Secret dialog's fields (the header left as it is when null).
    static void fill(NetworkSecretDialog *dialog, const QString &name, const QString &hosts, const QString &value,
                     const QString &header = {})
    {
        for (const auto &[field, text] : {std::pair{"secretName", name}, std::pair{"secretHosts", hosts},
                                          std::pair{"secretValue", value}, std::pair{"secretHeader", header}}) {
            auto *edit = dialog->findChild<QLineEdit *>(QLatin1String(field));
            ASSERT_NE(edit, nullptr) << field;
            if (!text.isNull()) {
                edit->clear();
                QTest::keyClicks(edit, text);
            }
        }
    }
    /// Clicks the button of `role` in the next message box that opens (a modal one runs its own event loop).
    static void answerNextMessageBox(QMessageBox::ButtonRole role, QString *asked = nullptr)
    {
        auto *timer = new QTimer;
        timer->setInterval(20);
        QObject::connect(timer, &QTimer::timeout, [timer, role, asked] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box) {
                return;
            }
            if (asked) {
                *asked = box->text();
            }
            for (QAbstractButton *button : box->buttons()) {
                if (box->buttonRole(button) == role) {
                    timer->deleteLater();
                    timer->stop();
                    button->click();
                    return;
                }
            }
        });
        timer->start();
    }

    QTemporaryDir m_config;
    test::ScopedEnvironment m_environment{{"LLM_SANDBOX_NETWORK_ALLOW", QByteArray()},
                                          {"LLM_SANDBOX_JOURNAL", "off"},
                                          {"LLM_SANDBOX_SECRETS_FILE", m_config.filePath("secrets.json").toUtf8()}};
    MemorySecretStore m_keychain;
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
    NetworkPage page(m_keychain);
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

TEST_F(NetworkPageTest, thePublicWebReadOnlyAndReadOnlyHostsAreChoicesToo)
{
    NetworkPage page(m_keychain);
    page.show();
    auto *web = page.findChild<QRadioButton *>(QStringLiteral("networkWebReadOnly"));
    auto *readOnly = page.findChild<QCheckBox *>(QStringLiteral("networkHostsReadOnly"));
    ASSERT_TRUE(web && readOnly);
    EXPECT_FALSE(readOnly->isEnabled()) << "it belongs to the hosts";
    web->click();
    EXPECT_EQ(page.choice(), NetworkPage::Choice::WebReadOnly);
    EXPECT_EQ(page.allowList().text(), "*, read-only");

    ASSERT_TRUE(page.addHost(QStringLiteral("api.test")));
    EXPECT_EQ(page.choice(), NetworkPage::Choice::Hosts);
    EXPECT_TRUE(readOnly->isEnabled());
    EXPECT_FALSE(page.allowList().isReadOnly());
    readOnly->click();
    EXPECT_EQ(page.allowList().text(), "api.test, read-only");

    page.setAllowList(*NetworkAllowList::parse(QStringLiteral("web-read-only")));
    EXPECT_TRUE(web->isChecked()) << "shown as the choice it is";
    page.setAllowList(*NetworkAllowList::parse(QStringLiteral("other.test")));
    EXPECT_FALSE(readOnly->isChecked());
    page.setAllowList(*NetworkAllowList::parse(QStringLiteral("other.test, read-only")));
    EXPECT_TRUE(readOnly->isChecked());
    EXPECT_EQ(page.allowList().text(), "other.test, read-only");
}

TEST_F(NetworkPageTest, theChoiceIsKeptInTheUserSettingsAndBecomesTheAppsCeiling)
{
    UserSettings settings;
    EXPECT_TRUE(settings.networkAllow().isEmpty()) << "nothing by default";
    {
        SettingsDialog dialog(settings, m_keychain);
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
        SettingsDialog again(settings, m_keychain);
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

    SettingsDialog dialog(settings, m_keychain);
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

TEST_F(NetworkPageTest, theSecretsAreListedByNameHostsHeaderAndDateNeverByValue)
{
    NetworkSecretModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    auto github = NetworkSecret::make(QStringLiteral("GITHUB_TOKEN"),
                                      {QStringLiteral("api.github.com"), QStringLiteral("uploads.github.com")},
                                      QStringLiteral("Authorization: Bearer {}"));
    auto key = NetworkSecret::make(QStringLiteral("OPENAI_API_KEY"), {QStringLiteral("api.openai.com")},
                                   QStringLiteral("X-Api-Key: {}"));
    ASSERT_TRUE(github && key);
    github->createdAt = QStringLiteral("2026-11-05T14:03:00Z");
    model.setSecrets({*github, *key});
    ASSERT_EQ(model.rowCount(), 2);
    ASSERT_EQ(model.columnCount(), int(NetworkSecretModel::ColumnCount));
    const auto cell = [&model](int row, int column, int role = Qt::DisplayRole) {
        return model.index(row, column).data(role).toString();
    };
    EXPECT_EQ(cell(0, NetworkSecretModel::Name), QStringLiteral("GITHUB_TOKEN"));
    EXPECT_EQ(cell(0, NetworkSecretModel::Hosts), QStringLiteral("api.github.com, uploads.github.com"));
    EXPECT_EQ(cell(0, NetworkSecretModel::Header), QStringLiteral("Authorization: Bearer {}"));
    const QDateTime when = QDateTime::fromString(QStringLiteral("2026-11-05T14:03:00Z"), Qt::ISODate);
    EXPECT_EQ(cell(0, NetworkSecretModel::Stored), QLocale().toString(when.toLocalTime().date(), QLocale::ShortFormat));
    EXPECT_EQ(cell(0, NetworkSecretModel::Stored, Qt::ToolTipRole), dateTimeText(when)) << "the time in the tooltip";
    EXPECT_EQ(cell(0, NetworkSecretModel::Name, Qt::ToolTipRole),
              QStringLiteral("A run that may reach api.github.com, uploads.github.com sees a placeholder in "
                             "$GITHUB_TOKEN, never the value."));
    EXPECT_EQ(cell(1, NetworkSecretModel::Header), QStringLiteral("X-Api-Key: {}"));
    EXPECT_EQ(model.headerData(NetworkSecretModel::Stored, Qt::Horizontal).toString(), QStringLiteral("Stored"));
    EXPECT_EQ(model.rowOf(QStringLiteral("OPENAI_API_KEY")), 1);
    EXPECT_EQ(model.rowOf(QStringLiteral("NONE")), -1);
}

TEST_F(NetworkPageTest, anAddedSecretGoesToTheKeychainAndItsBindingToTheFileShownWithoutItsValue)
{
    NetworkPage page(m_keychain);
    page.resize(800, 700);
    page.show();
    NetworkSecretsPanel &panel = page.secrets();
    auto *table = page.findChild<QTableView *>(QStringLiteral("networkSecretList"));
    auto *add = page.findChild<QPushButton *>(QStringLiteral("networkSecretAdd"));
    ASSERT_TRUE(table && add);
    EXPECT_EQ(table->model()->rowCount(), 0);
    EXPECT_TRUE(add->isEnabled());
    const QString hint = page.findChild<QLabel *>(QStringLiteral("networkSecretsHint"))->text();
    EXPECT_TRUE(hint.contains(QLatin1String("sees only a placeholder in $NAME; the egress proxy puts the value into "
                                            "the secret's header of the HTTPS requests to those hosts")))
        << qPrintable(hint);

    add->click();
    QPointer<NetworkSecretDialog> dialog = page.findChild<NetworkSecretDialog *>();
    ASSERT_TRUE(dialog);
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_EQ(dialog->windowTitle(), QStringLiteral("Add Secret"));
    auto *value = dialog->findChild<QLineEdit *>(QStringLiteral("secretValue"));
    EXPECT_EQ(value->echoMode(), QLineEdit::Password) << "never shown as typed";
    EXPECT_EQ(dialog->findChild<QLineEdit *>(QStringLiteral("secretHeader"))->text(),
              QStringLiteral("Authorization: Bearer {}"))
        << "the usual header, as the command line's";
    EXPECT_FALSE(okButton(dialog)->isEnabled()) << "nothing written yet";
    EXPECT_TRUE(dialog->problem().isEmpty()) << "an empty field is not an error";

    // A name that is no variable's: said at once, and OK stays disabled.
    fill(dialog, QStringLiteral("github-token"), QStringLiteral("api.github.com"), QStringLiteral("ghp_example123"));
    EXPECT_FALSE(okButton(dialog)->isEnabled());
    EXPECT_TRUE(dialog->problem().startsWith(QStringLiteral("“github-token” cannot be a secret's name")))
        << qPrintable(dialog->problem());
    EXPECT_TRUE(dialog->findChild<QLabel *>(QStringLiteral("secretProblem"))->isVisible());
    fill(dialog, QStringLiteral("PATH"), {}, {});
    EXPECT_FALSE(okButton(dialog)->isEnabled()) << "one the sandbox sets itself";
    // A host with a port or a wildcard, a header without {}: each said.
    fill(dialog, QStringLiteral("GITHUB_TOKEN"), QStringLiteral("api.github.com:443"), {});
    EXPECT_TRUE(dialog->problem().startsWith(QStringLiteral("“api.github.com:443” is not a host name")))
        << qPrintable(dialog->problem());
    EXPECT_FALSE(okButton(dialog)->isEnabled());
    fill(dialog, {}, QStringLiteral("api.github.com, *.github.com"), {});
    EXPECT_TRUE(dialog->problem().startsWith(QStringLiteral("“*.github.com” is not a host name")));
    fill(dialog, {}, QStringLiteral("api.github.com,  uploads.github.com"), {}, QStringLiteral("Authorization: token"));
    EXPECT_TRUE(dialog->problem().startsWith(QStringLiteral("The header is “Name: value” with {} once")))
        << qPrintable(dialog->problem());
    EXPECT_FALSE(okButton(dialog)->isEnabled());
    fill(dialog, {}, {}, QStringLiteral("ghp with \"quotes\""), QStringLiteral("Authorization: token {}"));
    EXPECT_EQ(dialog->problem(),
              QStringLiteral("The value can go into a header only as printable ASCII, without quotes or backslashes."));
    fill(dialog, {}, {}, QStringLiteral("ghp_example123"));
    EXPECT_TRUE(dialog->problem().isEmpty()) << qPrintable(dialog->problem());
    ASSERT_TRUE(okButton(dialog)->isEnabled());
    EXPECT_TRUE(dialog->findChild<QLabel *>(QStringLiteral("secretNote"))
                    ->text()
                    .contains(QLatin1String("sees only a placeholder in $GITHUB_TOKEN")))
        << "the note names the variable";

    QTest::mouseClick(okButton(dialog), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isNull(), 5000); // closed, and gone, once both are kept

    EXPECT_EQ(stored(QStringLiteral("GITHUB_TOKEN")), QByteArray("ghp_example123"));
    const QList<NetworkSecret> kept = bindings();
    ASSERT_EQ(kept.size(), 1);
    EXPECT_EQ(kept.first().name, QStringLiteral("GITHUB_TOKEN"));
    EXPECT_EQ(kept.first().hosts,
              (QStringList{QStringLiteral("api.github.com"), QStringLiteral("uploads.github.com")}));
    EXPECT_EQ(kept.first().header, QStringLiteral("Authorization: token {}"));
    QFile file(NetworkSecretsFile::path());
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_FALSE(file.readAll().contains("ghp_example123")) << "the value never in the file";
    EXPECT_EQ(file.permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());

    // Listed, selected, and nowhere the value.
    ASSERT_EQ(table->model()->rowCount(), 1);
    EXPECT_EQ(table->currentIndex().row(), 0);
    EXPECT_EQ(table->model()->index(0, NetworkSecretModel::Name).data().toString(), QStringLiteral("GITHUB_TOKEN"));
    EXPECT_EQ(table->model()->index(0, NetworkSecretModel::Hosts).data().toString(),
              QStringLiteral("api.github.com, uploads.github.com"));
    for (int column = 0; column < table->model()->columnCount(); ++column) {
        for (int role : {Qt::DisplayRole, Qt::ToolTipRole, Qt::EditRole}) {
            EXPECT_FALSE(table->model()->index(0, column).data(role).toString().contains(u"ghp_example"))
                << column << " " << role;
        }
    }

    // Another of the same name is refused: it is edited.
    add->click();
    dialog = page.findChildren<NetworkSecretDialog *>().value(0);
    ASSERT_TRUE(dialog);
    fill(dialog, QStringLiteral("GITHUB_TOKEN"), QStringLiteral("api.github.com"), QStringLiteral("other"));
    EXPECT_TRUE(dialog->problem().startsWith(QStringLiteral("There is a secret GITHUB_TOKEN already")));
    EXPECT_FALSE(okButton(dialog)->isEnabled());
    dialog->reject();
    QTRY_VERIFY(dialog.isNull());
    EXPECT_EQ(panel.model().rowCount(), 1);
}

TEST_F(NetworkPageTest, aSecretIsEditedItsValueKeptUnlessANewOneIsTyped)
{
    storeSecret(QStringLiteral("GITHUB_TOKEN"), {QStringLiteral("api.github.com")}, "ghp_first");
    QList<NetworkSecret> before = bindings();
    ASSERT_EQ(before.size(), 1);
    before.first().createdAt = QStringLiteral("2026-01-02T03:04:05Z");
    ASSERT_TRUE(NetworkSecretsFile::save(before));

    NetworkPage page(m_keychain);
    page.show();
    auto *table = page.findChild<QTableView *>(QStringLiteral("networkSecretList"));
    auto *edit = page.findChild<QPushButton *>(QStringLiteral("networkSecretEdit"));
    ASSERT_EQ(table->model()->rowCount(), 1) << "read from the file";
    EXPECT_FALSE(edit->isEnabled()) << "nothing selected";
    table->setCurrentIndex(table->model()->index(0, 0));
    ASSERT_TRUE(edit->isEnabled());
    edit->click();
    QPointer<NetworkSecretDialog> dialog = page.findChild<NetworkSecretDialog *>();
    ASSERT_TRUE(dialog);
    EXPECT_EQ(dialog->windowTitle(), QStringLiteral("Edit Secret"));
    EXPECT_TRUE(dialog->findChild<QLineEdit *>(QStringLiteral("secretName"))->isReadOnly());
    EXPECT_TRUE(okButton(dialog)->isEnabled()) << "an empty value keeps the stored one";
    fill(dialog, {}, QStringLiteral("api.github.com, uploads.github.com"), {});
    QTest::mouseClick(okButton(dialog), Qt::LeftButton);
    QTRY_VERIFY(dialog.isNull());
    EXPECT_EQ(bindings().first().hosts,
              (QStringList{QStringLiteral("api.github.com"), QStringLiteral("uploads.github.com")}));
    EXPECT_EQ(bindings().first().createdAt, QStringLiteral("2026-01-02T03:04:05Z")) << "the value stored then";
    EXPECT_EQ(stored(QStringLiteral("GITHUB_TOKEN")), QByteArray("ghp_first"));
    EXPECT_EQ(table->model()->index(0, NetworkSecretModel::Hosts).data().toString(),
              QStringLiteral("api.github.com, uploads.github.com"));

    // A new value replaces the stored one, now.
    dialog = page.secrets().editCurrent();
    ASSERT_TRUE(dialog);
    fill(dialog, {}, {}, QStringLiteral("ghp_second"));
    dialog->save();
    QTRY_VERIFY(dialog.isNull());
    EXPECT_EQ(stored(QStringLiteral("GITHUB_TOKEN")), QByteArray("ghp_second"));
    EXPECT_NE(bindings().first().createdAt, QStringLiteral("2026-01-02T03:04:05Z"));
}

TEST_F(NetworkPageTest, aKeychainThatFailsIsSaidAndNothingIsWritten)
{
    m_keychain.setUnavailable(QStringLiteral("no keychain service"));
    NetworkPage page(m_keychain);
    page.show();
    QPointer<NetworkSecretDialog> dialog = page.secrets().addSecret();
    ASSERT_TRUE(dialog);
    fill(dialog, QStringLiteral("GITHUB_TOKEN"), QStringLiteral("api.github.com"), QStringLiteral("ghp_example123"));
    ASSERT_TRUE(okButton(dialog)->isEnabled());
    QTest::mouseClick(okButton(dialog), Qt::LeftButton);
    QTRY_VERIFY(!dialog->problem().isEmpty());
    EXPECT_TRUE(dialog->problem().startsWith(
        QStringLiteral("The system keychain could not keep the value: no keychain service. Nothing was stored")))
        << qPrintable(dialog->problem());
    EXPECT_FALSE(dialog->isBusy());
    EXPECT_TRUE(dialog->isVisible()) << "open, to try again or cancel";
    EXPECT_TRUE(okButton(dialog)->isEnabled());
    EXPECT_FALSE(QFile::exists(NetworkSecretsFile::path())) << "no binding without its value";
    EXPECT_EQ(page.secrets().model().rowCount(), 0);

    // Once it answers, the same OK keeps it.
    m_keychain.setUnavailable({});
    QTest::mouseClick(okButton(dialog), Qt::LeftButton);
    QTRY_VERIFY(dialog.isNull());
    EXPECT_EQ(bindings().size(), 1);
    EXPECT_EQ(stored(QStringLiteral("GITHUB_TOKEN")), QByteArray("ghp_example123"));
}

TEST_F(NetworkPageTest, removingASecretAsksThenTakesItOutOfTheKeychainAndTheFile)
{
    storeSecret(QStringLiteral("GITHUB_TOKEN"), {QStringLiteral("api.github.com")}, "ghp_first");
    storeSecret(QStringLiteral("OPENAI_API_KEY"), {QStringLiteral("api.openai.com")}, "sk-second");
    NetworkPage page(m_keychain);
    page.show();
    auto *table = page.findChild<QTableView *>(QStringLiteral("networkSecretList"));
    auto *remove = page.findChild<QPushButton *>(QStringLiteral("networkSecretRemove"));
    ASSERT_EQ(table->model()->rowCount(), 2);
    EXPECT_FALSE(remove->isEnabled());
    table->setCurrentIndex(table->model()->index(0, 0));
    ASSERT_TRUE(remove->isEnabled());

    // Asked first: Cancel keeps it.
    QString asked;
    answerNextMessageBox(QMessageBox::RejectRole, &asked);
    remove->click();
    EXPECT_TRUE(asked.startsWith(QStringLiteral("Remove the secret GITHUB_TOKEN? Its value is deleted from the system "
                                                "keychain")))
        << qPrintable(asked);
    EXPECT_EQ(bindings().size(), 2);
    EXPECT_EQ(stored(QStringLiteral("GITHUB_TOKEN")), QByteArray("ghp_first"));

    // A keychain that fails keeps it too, and says why.
    m_keychain.setUnavailable(QStringLiteral("no keychain service"));
    answerNextMessageBox(QMessageBox::AcceptRole);
    remove->click();
    QTRY_VERIFY(!page.secrets().problem().isEmpty());
    EXPECT_EQ(page.secrets().problem(), QStringLiteral("The system keychain could not delete the value of "
                                                       "GITHUB_TOKEN: no keychain service. The secret stays."));
    EXPECT_EQ(bindings().size(), 2);
    EXPECT_EQ(table->model()->rowCount(), 2);

    m_keychain.setUnavailable({});
    answerNextMessageBox(QMessageBox::AcceptRole);
    remove->click();
    QTRY_COMPARE(table->model()->rowCount(), 1);
    EXPECT_TRUE(page.secrets().problem().isEmpty());
    EXPECT_FALSE(page.secrets().isBusy());
    EXPECT_EQ(table->model()->index(0, NetworkSecretModel::Name).data().toString(), QStringLiteral("OPENAI_API_KEY"));
    ASSERT_EQ(bindings().size(), 1);
    EXPECT_EQ(bindings().first().name, QStringLiteral("OPENAI_API_KEY"));
    EXPECT_TRUE(stored(QStringLiteral("GITHUB_TOKEN")).isEmpty());
    EXPECT_EQ(stored(QStringLiteral("OPENAI_API_KEY")), QByteArray("sk-second"));
}

TEST_F(NetworkPageTest, aSecretsFileThatIsNotOneIsSaidAndNotWrittenOver)
{
    QFile file(NetworkSecretsFile::path());
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("{ not json");
    file.close();
    NetworkPage page(m_keychain);
    page.show();
    EXPECT_TRUE(page.secrets().problem().contains(QLatin1String("is not one"))) << qPrintable(page.secrets().problem());
    EXPECT_FALSE(page.findChild<QPushButton *>(QStringLiteral("networkSecretAdd"))->isEnabled());
    EXPECT_EQ(page.secrets().addSecret(), nullptr);
}
