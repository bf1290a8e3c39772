#pragma once

#include "AppContext.h"
#include "ScopedEnvironment.h"

#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <memory>

namespace sandbox::gui::guitest {

/// What the whole window needs for a test without engines: a home, settings, data and journal of its own, Docker and
/// Podman at addresses where nothing listens (the window shows them unavailable and starts no container), and the MCP
/// server's token from the environment (no keychain is asked). Write the journal (journalPath()) before context().
class OfflineApp final
{
public:
    QString journalPath() const { return m_home.filePath(QStringLiteral("journal.sqlite")); }
    /// The app's context over this environment, made on first use.
    AppContext &context()
    {
        if (!m_context) {
            auto made = AppContext::create({.source = RunSource::Gui});
            EXPECT_TRUE(made.ok()) << qPrintable(made.error().message);
            m_context = std::move(*made);
        }
        return *m_context;
    }

private:
    /// Points the settings of this process at `folder` while it lives: Qt reads XDG_CONFIG_HOME only once per
    /// process, so without it the window's state (its page, splits, geometry) would pass from one test to the next.
    class SettingsFolder final
    {
    public:
        explicit SettingsFolder(const QString &folder)
        {
            for (const QSettings::Format format : {QSettings::NativeFormat, QSettings::IniFormat}) {
                QSettings::setPath(format, QSettings::UserScope, folder);
            }
        }
        ~SettingsFolder()
        {
            for (const QSettings::Format format : {QSettings::NativeFormat, QSettings::IniFormat}) {
                QSettings::setPath(format, QSettings::UserScope, m_before);
            }
        }
        SettingsFolder(const SettingsFolder &) = delete;
        SettingsFolder &operator=(const SettingsFolder &) = delete;

    private:
        const QString m_before = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    };

    QTemporaryDir m_home;
    SettingsFolder m_settingsFolder{m_home.filePath(QStringLiteral("config"))};
    sandbox::test::ScopedEnvironment m_environment{
        {"LLM_SANDBOX_JOURNAL", journalPath().toUtf8()},
        {"XDG_CONFIG_HOME", m_home.filePath(QStringLiteral("config")).toUtf8()},
        {"XDG_DATA_HOME", m_home.filePath(QStringLiteral("data")).toUtf8()},
        {"HOME", m_home.path().toUtf8()},
        {"BACKEND", QByteArray("docker")},
        {"DOCKER_HOST", "unix://" + m_home.filePath(QStringLiteral("no-docker.sock")).toUtf8()},
        {"CONTAINER_HOST", "unix://" + m_home.filePath(QStringLiteral("no-podman.sock")).toUtf8()},
        {"LLM_SANDBOX_HTTP_TOKEN", QByteArray("offline-app-test-token")}};
    std::unique_ptr<AppContext> m_context;
};

} // namespace sandbox::gui::guitest
