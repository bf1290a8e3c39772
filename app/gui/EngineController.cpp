// PLACEHOLDER (branch gui-history) until branch `gui` lands.
#include "gui/EngineController.h"

#include <QTimer>

namespace sandbox::gui {

EngineController::EngineController(EngineProvider, QString, QObject *parent) : QObject(parent) {}

quint64 EngineController::start(RunRequest, const QString &)
{
    const quint64 ticket = m_nextTicket++;
    QTimer::singleShot(0, this, [this, ticket] {
        emit runFailed(ticket, Error{QStringLiteral("placeholder controller"), ErrorCode::Unavailable});
    });
    return ticket;
}

} // namespace sandbox::gui
