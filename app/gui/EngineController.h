#pragma once
// PLACEHOLDER (branch gui-history): the members the History page uses, until branch `gui` lands.

#include "engine/RunRequest.h"

#include <QObject>

namespace sandbox::gui {

class EngineController final : public QObject
{
    Q_OBJECT

public:
    quint64 start(RunRequest request, QString backend);

signals:
    void runStarted(quint64 ticket, const QString &runId);
    void runFinished(quint64 ticket, const QString &runId);
};

} // namespace sandbox::gui
