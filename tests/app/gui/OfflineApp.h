#pragma once

#include "AppContext.h"
#include "ScopedEnvironment.h"

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
    QTemporaryDir m_home;
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
