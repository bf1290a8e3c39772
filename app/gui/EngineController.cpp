#include "gui/EngineController.h"

#include <QMetaObject>
#include <QPointer>

namespace sandbox::gui {

/// Forwards one run's observer callbacks from its worker thread to the controller's thread.
class EngineController::Forwarder final : public RunObserver
{
public:
    Forwarder(EngineController *controller, quint64 ticket) : m_controller(controller), m_ticket(ticket) {}

    // The lambdas capture values only: they run on the GUI thread after this forwarder (on the worker's
    // stack) may be gone.
    void runStarted(const QString &runId, const RunRequest &request) override
    {
        post([ticket = m_ticket, runId, request](EngineController *c) { emit c->runStarted(ticket, runId, request); });
    }
    void runProgress(const QString &runId, const RunProgress &progress) override
    {
        Q_UNUSED(runId)
        post([ticket = m_ticket, progress](EngineController *c) { emit c->runProgress(ticket, progress); });
    }
    void runOutput(const QString &runId, OutputStream stream, const QByteArray &chunk) override
    {
        Q_UNUSED(runId)
        post([ticket = m_ticket, stream, chunk](EngineController *c) { emit c->runOutput(ticket, stream, chunk); });
    }
    void runArtifact(const QString &runId, const Artifact &artifact) override
    {
        Q_UNUSED(runId)
        post([ticket = m_ticket, artifact](EngineController *c) { emit c->runArtifact(ticket, artifact); });
    }

private:
    template <typename F>
    void post(F &&function)
    {
        // Queued: the signal is emitted on the controller's thread. The controller outlives the run (its
        // destructor waits), and events still queued when it goes are dropped with it.
        EngineController *controller = m_controller;
        QMetaObject::invokeMethod(
            controller, [controller, function = std::forward<F>(function)] { function(controller); },
            Qt::QueuedConnection);
    }

    EngineController *m_controller;
    quint64 m_ticket;
};

EngineController::EngineController(EngineProvider provider, QString defaultBackend, QObject *parent)
    : QObject(parent), m_provider(std::move(provider)), m_defaultBackend(std::move(defaultBackend))
{
    // Every run holds a thread for its whole length: the pool must not make a run wait for another.
    m_pool.setMaxThreadCount(64);
}

EngineController::~EngineController()
{
    cancelAll();
    m_pool.waitForDone();
}

void EngineController::setDefaultBackend(const QString &backend)
{
    if (backend != m_defaultBackend) {
        m_defaultBackend = backend;
        emit defaultBackendChanged(backend);
    }
}

QString EngineController::backendOrDefault(const QString &backend) const
{
    return backend.isEmpty() ? m_defaultBackend : backend;
}

Result<ExecutionEngine *> EngineController::engineFor(const QString &backend)
{
    std::lock_guard lock(m_providerMutex);
    return m_provider(backend);
}

quint64 EngineController::start(RunRequest request, const QString &backend)
{
    const quint64 ticket = m_nextTicket++;
    auto run = std::make_shared<ActiveRun>();
    m_runs.insert(ticket, run);
    emit runningCountChanged(runningCount());

    const QString backendName = backendOrDefault(backend);
    std::stop_token token = run->stop.get_token();
    m_pool.start([this, ticket, backendName, token, request = std::move(request)] {
        Result<RunResult> result = [&]() -> Result<RunResult> {
            auto engine = engineFor(backendName);
            if (!engine) {
                return engine.error();
            }
            if (token.stop_requested()) {
                return Error{QStringLiteral("The run was cancelled before it started."), ErrorCode::Cancelled};
            }
            Forwarder forwarder(this, ticket);
            return (*engine)->run(request, token, &forwarder);
        }();
        QMetaObject::invokeMethod(
            this, [this, ticket, result = std::move(result)] { finishRun(ticket, result); }, Qt::QueuedConnection);
    });
    return ticket;
}

void EngineController::finishRun(quint64 ticket, const Result<RunResult> &result)
{
    m_runs.remove(ticket);
    if (result) {
        emit runFinished(ticket, *result);
    } else {
        emit runFailed(ticket, result.error());
    }
    emit runningCountChanged(runningCount());
}

void EngineController::cancel(quint64 ticket)
{
    if (auto run = m_runs.value(ticket)) {
        run->stop.request_stop();
    }
}

void EngineController::cancelAll()
{
    for (const auto &run : std::as_const(m_runs)) {
        run->stop.request_stop();
    }
}

bool EngineController::isRunning(quint64 ticket) const
{
    return m_runs.contains(ticket);
}

int EngineController::runningCount() const
{
    return int(m_runs.size());
}

void EngineController::probe(const QString &backend)
{
    const QString backendName = backendOrDefault(backend);
    m_pool.start([this, backendName] {
        BackendInfo info;
        Error error;
        bool ok = false;
        if (auto engine = engineFor(backendName); !engine) {
            error = engine.error();
        } else if (auto answer = (*engine)->backend().probe(); !answer) {
            error = answer.error();
        } else {
            info = *answer;
            ok = true;
        }
        QMetaObject::invokeMethod(
            this,
            [this, backendName, info, error, ok] {
                emit backendProbed(backendName, info, ok ? QString() : error.message, error.code);
            },
            Qt::QueuedConnection);
    });
}

} // namespace sandbox::gui
