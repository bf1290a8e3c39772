#pragma once

#include "backend/ContainerBackend.h"
#include "engine/ExecutionEngine.h"
#include "engine/RunObserver.h"
#include "engine/RunProgress.h"
#include "util/Result.h"

#include <QHash>
#include <QObject>
#include <QThreadPool>
#include <functional>
#include <memory>
#include <mutex>

namespace sandbox::gui {

/// The GUI's only door to the engine. Runs execute on worker threads of its own pool; what a run reports
/// arrives as signals on the GUI thread, tagged with the ticket start() returned. The controller owns the stop
/// sources of its runs: destroying it cancels every run and waits for them, so no worker outlives the window.
class EngineController final : public QObject
{
    Q_OBJECT

public:
    /// Gives the engine of a backend (empty: the default one); AppContext::engine in the app. Asked for each run and
    /// probe, never kept: an engine the app replaces (AppContext::reconnect) serves the next run.
    using EngineProvider = std::function<Result<ExecutionEngine *>(const QString &backend)>;

    EngineController(EngineProvider provider, QString defaultBackend, QObject *parent = nullptr);
    ~EngineController() override;

    QString defaultBackend() const { return m_defaultBackend; }
    void setDefaultBackend(const QString &backend);

    /// Starts `request` on `backend` (empty: the default backend) and returns the run's ticket (never 0).
    quint64 start(RunRequest request, const QString &backend = {});
    /// Asks run `ticket` to stop; runFinished or runFailed follows.
    void cancel(quint64 ticket);
    void cancelAll();
    bool isRunning(quint64 ticket) const;
    int runningCount() const;

    /// Asks `backend` (empty: the default one) for its version, off the GUI thread; backendProbed follows.
    void probe(const QString &backend = {});

signals:
    void runStarted(quint64 ticket, const QString &runId, const sandbox::RunRequest &request);
    void runProgress(quint64 ticket, const sandbox::RunProgress &progress);
    void runOutput(quint64 ticket, sandbox::OutputStream stream, const QByteArray &chunk);
    void runArtifact(quint64 ticket, const sandbox::Artifact &artifact);
    /// The run ended (on its own, by its limits or cancelled): `result` says how.
    void runFinished(quint64 ticket, const sandbox::RunResult &result);
    /// The run could not be done (engine unreachable, image missing, ...).
    void runFailed(quint64 ticket, const sandbox::Error &error);
    void runningCountChanged(int count);
    /// setDefaultBackend() chose another backend.
    void defaultBackendChanged(const QString &backend);
    /// Answer to probe(): `error` is empty when the backend answered.
    void backendProbed(const QString &backend, const sandbox::BackendInfo &info, const QString &error,
                       sandbox::ErrorCode code);

private:
    class Forwarder;
    struct ActiveRun
    {
        std::stop_source stop;
    };

    Result<ExecutionEngine *> engineFor(const QString &backend);
    QString backendOrDefault(const QString &backend) const;
    void finishRun(quint64 ticket, const Result<RunResult> &result);

    EngineProvider m_provider;
    std::mutex m_providerMutex; // the provider may create an engine: one caller at a time
    QString m_defaultBackend;
    QHash<quint64, std::shared_ptr<ActiveRun>> m_runs; // GUI thread only
    quint64 m_nextTicket = 1;
    // Last: destroyed first, so its threads are gone before the state they use.
    QThreadPool m_pool;
};

} // namespace sandbox::gui
