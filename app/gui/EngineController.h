#pragma once
// PLACEHOLDER (branch gui-history): the members the History page uses, until branch `gui` lands.

#include "engine/RunRequest.h"
#include "engine/RunResult.h"
#include "util/Result.h"

#include <QObject>

namespace sandbox::gui {

class EngineController final : public QObject
{
    Q_OBJECT

public:
    quint64 start(RunRequest request, const QString &backend = {});

signals:
    void runStarted(quint64 ticket, const QString &runId, const sandbox::RunRequest &request);
    void runFinished(quint64 ticket, const sandbox::RunResult &result);
    void runFailed(quint64 ticket, const sandbox::Error &error);
};

} // namespace sandbox::gui
