// A backend's panel without an engine (issue 37, item 16): it says what the status bar found, not "Not tested yet.".
#include "gui/backends/BackendPanel.h"

#include "AppContext.h"
#include "gui/backends/ConnectionTab.h"
#include "gui/settings/SettingsDialog.h"
#include "secrets/MemorySecretStore.h"
#include "settings/UserSettings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextDocument>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

TEST(BackendPanelTest, theConnectionTabSaysWhatTheStatusBarFoundUntilATestSaysMore)
{
    QTemporaryDir folder;
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, folder.path());
    auto context = AppContext::create({.source = RunSource::Gui});
    ASSERT_TRUE(context.ok()) << qPrintable(context.error().message);
    MemorySecretStore keychain;
    {
        BackendPanel panel(**context, keychain, QStringLiteral("podman"));
        auto *result = panel.findChild<QLabel *>(QStringLiteral("testResult"));
        ASSERT_NE(result, nullptr);
        panel.connectionTab()->showReachable(BackendInfo{.name = QStringLiteral("podman"),
                                                         .endpoint = QStringLiteral("unix:///run/podman/podman.sock"),
                                                         .version = QStringLiteral("5.4.2"),
                                                         .apiVersion = QStringLiteral("1.41")},
                                             {});
        EXPECT_FALSE(result->text().contains(QLatin1String("Not tested"))) << qPrintable(result->text());
        EXPECT_TRUE(result->text().startsWith(QLatin1String("Podman 5.4.2 answers at unix:///run/podman/podman.sock")))
            << qPrintable(result->text());
        panel.connectionTab()->showReachable({}, QStringLiteral("Cannot reach Podman."));
        EXPECT_TRUE(result->text().contains(QLatin1String("Cannot reach Podman."))) << qPrintable(result->text());
    }
    context->reset();
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                       QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation));
}

TEST(BackendPanelTest, engineNamesAndCommandsReadAsPeopleWriteThem)
{
    // "Copy from" offered "podman" (the engine's internal name), and the engine-down hint showed `dockerd` with its
    // backticks.
    QTemporaryDir folder;
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, folder.path());
    auto context = AppContext::create({.source = RunSource::Gui});
    ASSERT_TRUE(context.ok()) << qPrintable(context.error().message);
    MemorySecretStore keychain;
    {
        BackendPanel panel(**context, keychain, QStringLiteral("docker"));
        auto *copyFrom = panel.findChild<QComboBox *>(QStringLiteral("copyFrom"));
        ASSERT_NE(copyFrom, nullptr);
        ASSERT_EQ(copyFrom->count(), 1);
        EXPECT_EQ(copyFrom->itemText(0), QStringLiteral("Podman"));
        EXPECT_EQ(copyFrom->itemData(0).toString(), QStringLiteral("podman"));

        auto *result = panel.findChild<QLabel *>(QStringLiteral("testResult"));
        ASSERT_NE(result, nullptr);
        panel.connectionTab()->showReachable(
            {}, QStringLiteral("Cannot reach Docker at /run/docker.sock: start it (e.g. `dockerd` or `systemctl "
                               "start docker`) <now>."));
        QTextDocument shown;
        shown.setHtml(result->text());
        EXPECT_FALSE(shown.toPlainText().contains(QLatin1Char('`'))) << qPrintable(result->text());
        EXPECT_TRUE(shown.toPlainText().contains(QLatin1String("(e.g. dockerd or systemctl start docker) <now>.")))
            << qPrintable(shown.toPlainText());
        EXPECT_TRUE(result->text().contains(QLatin1String("<code>dockerd</code>"))) << qPrintable(result->text());
    }
    context->reset();
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                       QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation));
}

TEST(BackendPanelTest, theDefaultBackendIsChosenOnTheBackendsPageAndSettingsShowsIt)
{
    // Settings had a backend list of its own beside each backend's "Default backend" box: two places for one choice.
    QTemporaryDir folder;
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, folder.path());
    auto context = AppContext::create({.source = RunSource::Gui});
    ASSERT_TRUE(context.ok()) << qPrintable(context.error().message);
    MemorySecretStore keychain;
    {
        UserSettings &settings = (*context)->userSettings();
        BackendPanel panel(**context, keychain, QStringLiteral("podman"));
        auto *makeDefault = panel.findChild<QCheckBox *>(QStringLiteral("defaultBackend"));
        ASSERT_NE(makeDefault, nullptr);
        makeDefault->setChecked(true);
        ASSERT_EQ(settings.backend(), QStringLiteral("podman"));

        SettingsDialog dialog(settings, keychain);
        EXPECT_EQ(dialog.findChild<QComboBox *>(QStringLiteral("settingsBackend")), nullptr) << "no second chooser";
        auto *shown = dialog.findChild<QLabel *>(QStringLiteral("settingsBackend"));
        ASSERT_NE(shown, nullptr);
        EXPECT_TRUE(shown->text().contains(QLatin1String("Podman"))) << qPrintable(shown->text());
        // Its link leads to the Backends page.
        bool asked = false;
        QObject::connect(&dialog, &SettingsDialog::backendsPageRequested, [&] { asked = true; });
        emit shown->linkActivated(QStringLiteral("#backends"));
        EXPECT_TRUE(asked);
        dialog.apply();
        EXPECT_EQ(settings.backend(), QStringLiteral("podman")) << "OK leaves the choice alone";
    }
    context->reset();
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                       QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation));
}
