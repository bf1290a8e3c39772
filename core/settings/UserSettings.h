#pragma once

#include "folders/SharedFolder.h"
#include "network/NetworkAllowList.h"
#include "settings/BackendConnection.h"

#include <QObject>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <chrono>

namespace sandbox {

/// The settings a person chooses (in the desktop app's settings dialog), kept in
/// ~/.config/llm-sandbox/llm-sandbox.ini. Every face reads them at start-up, so the app and the
/// MCP server an assistant launches agree; environment variables still win over them.
class UserSettings final : public QObject
{
    Q_OBJECT

public:
    explicit UserSettings(QObject *parent = nullptr);

    /// docker, podman or kubernetes; empty: none chosen (defaultBackend()).
    QString backend() const;
    /// backend(), or defaultBackend() when none is chosen: what the settings dialog and the Backends page show.
    QString chosenBackend() const;
    /// The backend when nobody chose one: the one place that says so.
    static QString defaultBackend() { return QStringLiteral("docker"); }
    void setBackend(const QString &backend);
    /// The backend a face uses when none is named: $BACKEND, then backend(), then docker.
    QString effectiveBackend() const;
    /// Where each backend is reached (the environment's variables win over it: BackendFactory).
    BackendConnection connection() const;
    void setConnection(const BackendConnection &connection);
    /// The OCI runtime of the sandboxes (runsc: gVisor); empty: the engine's default.
    QString runtime() const;
    void setRuntime(const QString &runtime);
    /// The timeout of a run that names none (the console, `run`, MCP's execute_code).
    std::chrono::seconds defaultTimeout() const;
    void setDefaultTimeout(std::chrono::seconds timeout);
    /// Journal retention: runs older than this many days are removed.
    int journalMaxAgeDays() const;
    void setJournalMaxAgeDays(int days);
    /// Journal retention: the oldest runs go once the journal (with its artifacts) is larger than this.
    int journalMaxSizeMiB() const;
    void setJournalMaxSizeMiB(int mebibytes);

    /// The folders the user shares with the desktop app's sandboxes (Settings → Folders), as stored: a folder that
    /// has gone since is still listed (usableSharedFolders() leaves it out). Other faces share none of them unless
    /// told to (`run --share`, LLM_SANDBOX_SHARE, which the Connect dialog and install-mcp can set).
    QList<SharedFolder> sharedFolders() const;
    void setSharedFolders(const QList<SharedFolder> &folders);
    /// sharedFolders() that can be shared now: those that still exist and are not refused (SharedFolder::parse).
    QList<SharedFolder> usableSharedFolders() const;

    /// What sandboxes may reach when a run asks for network (Settings → Network): nothing unless the user allows some
    /// (NetworkAllowList::text() as stored; what does not parse is nothing). Every face takes it as the ceiling of
    /// SandboxSettings::networkAllow; LLM_SANDBOX_NETWORK_ALLOW wins over it.
    NetworkAllowList networkAllow() const;
    void setNetworkAllow(const NetworkAllowList &allowed);

    /// The desktop app starts its MCP server (Streamable HTTP) when it starts.
    bool serverStartsWithApp() const;
    void setServerStartsWithApp(bool starts);
    /// Closing the desktop app's window while its MCP server runs leaves the server running in the system tray (where
    /// the desktop has one); on unless turned off.
    bool serverKeepsRunningInTray() const;
    void setServerKeepsRunningInTray(bool keeps);
    /// The loopback port of the desktop app's MCP server.
    int serverPort() const;
    void setServerPort(int port);

    /// The language of the app and the command line, applied when a process starts: empty (the system's), "en" or
    /// "zh_CN" (AppTranslations); anything else stored is the system's.
    QString language() const;
    void setLanguage(const QString &language);
    /// The languages language() can be, besides the system's.
    static const QStringList &languages();

    /// The assistants' configuration files (absolute paths) to which install-mcp added the servers object: when our
    /// entry was its only member, uninstall-mcp removes the object too, so the file comes back as it was.
    bool addedServersObject(const QString &configPath) const;
    void setAddedServersObject(const QString &configPath, bool added);

    static constexpr std::chrono::seconds kDefaultTimeout{30};
    static constexpr int kDefaultServerPort = 8931;
    static constexpr int kDefaultJournalMaxAgeDays = 30;
    static constexpr int kDefaultJournalMaxSizeMiB = 1024;

signals:
    void changed();

private:
    void write(const QString &key, const QVariant &value);

    mutable QSettings m_settings;
};

} // namespace sandbox
