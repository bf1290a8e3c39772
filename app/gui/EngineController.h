#pragma once
// PLACEHOLDER (branch gui-history): the members the History page and its test use, as branch `gui` declares
// them, until that branch lands. Its start() runs nothing: every run fails at once.

#include "engine/ExecutionEngine.h"
#include "engine/RunRequest.h"
#include "engine/RunResult.h"
#include "util/Result.h"

#include <QObject>

#include <functional>

namespace sandbox::gui {

class EngineController final : public QObject
{
    Q_OBJECT

public:
    using EngineProvider = std::function<Result<ExecutionEngine *>(const QString &backend)>;

    EngineController(EngineProvider provider, QString defaultBackend, QObject *parent = nullptr);

    quint64 start(RunRequest request, const QString &backend = {});

signals:
    void runStarted(quint64 ticket, const QString &runId, const sandbox::RunRequest &request);
    void runFinished(quint64 ticket, const sandbox::RunResult &result);
    void runFailed(quint64 ticket, const sandbox::Error &error);

private:
    quint64 m_nextTicket = 1;
};

} // namespace sandbox::gui
