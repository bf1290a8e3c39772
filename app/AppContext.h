#pragma once

#include "backend/ContainerBackend.h"
#include "engine/RunSource.h"
#include "images/ImageCatalog.h"
#include "settings/SandboxSettings.h"
#include "settings/UserSettings.h"
#include "util/Result.h"

#include <QFuture>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace sandbox {

class ExecutionEngine;
class JournalRecorder;
class RunJournal;

/// Assembles the program, once, for every face (--mcp, serve, run, images, doctor, the desktop app):
/// settings (user settings, then the environment) -> backend -> engine -> journal recorder -> orphan
/// cleanup -> prewarm. Nothing else creates an engine.
class AppContext final
{
public:
    struct Options
    {
        RunSource source = RunSource::Cli; ///< the face: where its runs come from
        QString backendName;               ///< --backend; empty: $BACKEND, then the user settings, then docker
        QString policy;                    ///< --policy (a validated preset name); empty: $SANDBOX_POLICY, then default
        /// Remove containers left by llm-sandbox processes that died, when an engine is first made (off the
        /// caller's thread).
        bool removeOrphans = false;
        QStringList prewarm; ///< languages to warm when an engine is first made
        /// Remove old runs from the journal (the user's retention settings), off the caller's thread.
        bool applyRetention = false;
        /// The sandboxes read the folders and may reach the hosts of the user settings (Settings → Folders, Settings →
        /// Network): the desktop app's. Other faces share and allow only what they are told to (`run --share`,
        /// LLM_SANDBOX_SHARE, LLM_SANDBOX_NETWORK_ALLOW): nothing by default.
        bool desktopSettings = false;
    };

    /// An error (with its code) when the settings are invalid; a backend that cannot be made is not an
    /// error here: engine() reports it, so a server can still start and explain.
    static Result<std::unique_ptr<AppContext>> create(const Options &options);
    /// Waits for the cleanup it started; the engines remove their containers.
    ~AppContext();

    AppContext(const AppContext &) = delete;
    AppContext &operator=(const AppContext &) = delete;

    /// A copy: the desktop app changes the shared folders while other threads read the settings.
    SandboxSettings settings() const;
    UserSettings &userSettings() { return *m_userSettings; }
    /// The backend runs use unless they name one: --backend, $BACKEND, the user settings, docker.
    QString defaultBackend() const;
    /// Reads the default backend again from the user settings (unless --backend named one), for a face that changes
    /// them while it runs (the desktop app); true when it changed. Calls that name no backend use it from now on.
    bool reloadDefaultBackend();

    /// Reads the user's sandbox settings again, for the desktop app whose user changes them while it runs: the shared
    /// folders and what runs may reach (Options::desktopSettings; unless LLM_SANDBOX_SHARE, LLM_SANDBOX_NETWORK_ALLOW
    /// name them); true when they changed. The engines made so far are then
    /// retired as reconnect() retires one: runs in progress and open sessions keep the settings they had, and every
    /// new sandbox (none is taken from a warm pool made before) gets the new ones.
    bool reloadSandboxSettings();
    /// Whether LLM_SANDBOX_NETWORK_ALLOW sets what runs may reach, over the user settings (Settings → Network says so).
    static bool networkAllowFromEnvironment();

    /// The images runs use (built ones, or the user's LLM_SANDBOX_IMAGE_<LANG> overrides).
    ImageCatalog catalog() const;
    /// The backend `name` (default: defaultBackend()), made on first use.
    Result<std::shared_ptr<ContainerBackend>> backend(const QString &name = {});
    /// The engine of backend `name` (default: defaultBackend()), made on first use with everything
    /// attached; an error (with its code) when the backend cannot be made. Thread-safe.
    Result<ExecutionEngine *> engine(const QString &name = {});
    /// The journal recorder of backend `name`'s engine (made with it), or null when the journal is off or could
    /// not be opened. MCP servers hand it the exact tool calls and results (it is their ExchangeSink).
    JournalRecorder *recorder(const QString &name = {});
    /// The journal recorder made with `engine` (also a retired one), or null.
    JournalRecorder *recorderOf(const ExecutionEngine *engine);

    /// Makes backend `name` again from the user settings' connection at the next backend()/engine() call, for a face
    /// whose user changed where it is reached while it runs (the desktop app). The engine made so far is retired, not
    /// destroyed: runs in progress and open sessions keep it (callers hold its pointer) until this context goes; its
    /// warm containers are removed now (off the caller's thread) and it pools none again.
    void reconnect(const QString &name);

    /// The run journal's database (LLM_SANDBOX_JOURNAL), or empty when it is off.
    QString journalPath() const { return m_journalPath; }
    /// Why the journal cannot be written now (a full disk, a lock another program holds, a damaged file), or empty.
    QString journalProblem() const;
    /// Called (on a recorder's thread) each time the journal's problem changes: why it cannot be written, or empty
    /// once it can again. The desktop app shows it in its status bar.
    void onJournalProblem(std::function<void(const QString &problem)> handler);

private:
    AppContext(Options options, SandboxSettings settings, std::unique_ptr<UserSettings> userSettings);

    struct EngineSlot;

    void openJournal();
    /// Removes old runs (the user's retention settings), off the caller's thread.
    void applyRetention();
    /// `name`, or the default backend when empty; lower case.
    QString resolved(const QString &name) const;
    /// backend() with m_mutex held.
    Result<std::shared_ptr<ContainerBackend>> backendLocked(const QString &chosen);

    Options m_options;
    SandboxSettings m_settings;
    std::unique_ptr<UserSettings> m_userSettings;
    QString m_defaultBackend;
    QString m_journalPath;
    std::unique_ptr<RunJournal> m_journal;
    QFuture<void> m_retention;
    /// Applies the retention again every kRetentionInterval while the process runs.
    std::unique_ptr<QTimer> m_retentionTimer;
    mutable std::mutex m_problemMutex; // guards the two below
    QString m_journalProblem;
    std::function<void(const QString &)> m_journalProblemHandler;
    mutable std::mutex
        m_mutex; // guards m_defaultBackend, m_settings.sharedFolders and .networkAllow and the maps below
    std::map<QString, std::shared_ptr<ContainerBackend>> m_backends;
    // Last: engines go first (their containers are removed while the backends still exist).
    std::map<QString, std::unique_ptr<EngineSlot>> m_engines;
    /// Engines replaced by reconnect(): raw pointers to them live on in run threads, the GUI's controller and MCP
    /// sessions, so they stay until the context goes.
    std::vector<std::unique_ptr<EngineSlot>> m_retired;
};

} // namespace sandbox
