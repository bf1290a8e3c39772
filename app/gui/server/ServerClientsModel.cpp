#include "gui/server/ServerClientsModel.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"

#include <QGuiApplication>
#include <QPalette>
#include <algorithm>

namespace sandbox::gui {

ServerClientsModel::ClientState ServerClientsModel::clientState(const mcp::HttpSessionInfo &session,
                                                                const QDateTime &now)
{
    if (session.runningCalls > 0) {
        return ClientState::Working;
    }
    if (session.clientGone) {
        return ClientState::Gone;
    }
    if (session.streamOpen || session.lastActivity.msecsTo(now) < std::chrono::milliseconds(kIdleAfter).count()) {
        return ClientState::Connected;
    }
    return ClientState::Idle;
}

int ServerClientsModel::presentClients(const QList<mcp::HttpSessionInfo> &sessions, const QDateTime &now)
{
    return int(std::count_if(sessions.begin(), sessions.end(), [&now](const mcp::HttpSessionInfo &session) {
        const ClientState state = clientState(session, now);
        return state == ClientState::Working || state == ClientState::Connected;
    }));
}

void ServerClientsModel::setSessions(const QList<mcp::HttpSessionInfo> &sessions, const QDateTime &now)
{
    m_now = now;
    const auto contains = [](const QList<mcp::HttpSessionInfo> &list, const QString &id) {
        return std::any_of(list.begin(), list.end(), [&id](const mcp::HttpSessionInfo &info) { return info.id == id; });
    };
    for (int row = int(m_sessions.size()) - 1; row >= 0; --row) {
        if (!contains(sessions, m_sessions.at(row).id)) {
            beginRemoveRows({}, row, row);
            m_sessions.removeAt(row);
            endRemoveRows();
        }
    }
    for (const mcp::HttpSessionInfo &session : sessions) {
        const auto found = std::find_if(m_sessions.begin(), m_sessions.end(),
                                        [&session](const mcp::HttpSessionInfo &info) { return info.id == session.id; });
        if (found == m_sessions.end()) {
            const int row = int(m_sessions.size());
            beginInsertRows({}, row, row);
            m_sessions.append(session);
            endInsertRows();
        } else {
            *found = session;
            const int row = int(found - m_sessions.begin());
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        }
    }
}

int ServerClientsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sessions.size());
}

int ServerClientsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ServerClientsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) {
        return {};
    }
    const mcp::HttpSessionInfo &session = m_sessions.at(index.row());
    if (role == SessionIdRole) {
        return session.id;
    }
    const ClientState state = clientState(session, m_now);
    if (role == Qt::ToolTipRole && index.column() == Client) {
        return tr("MCP session %1").arg(session.id);
    }
    if (role == Qt::ToolTipRole && index.column() == State) {
        switch (state) {
        case ClientState::Gone:
            return tr("The client closed its event stream: it has most likely exited. Its session ends after 30 idle "
                      "minutes, or now with End Session.");
        case ClientState::Idle:
            return tr("No request since %1. Its session ends after 30 idle minutes, or now with End Session.")
                .arg(timeText(session.lastActivity.toLocalTime().time()));
        case ClientState::Working:
        case ClientState::Connected:
            return {};
        }
    }
    if (role == Qt::ForegroundRole) {
        // A client that is most likely gone reads as such across the row; one at work shows it in its state.
        if (state == ClientState::Gone || state == ClientState::Idle) {
            return QGuiApplication::palette().color(QPalette::PlaceholderText);
        }
        if (state == ClientState::Working && index.column() == State) {
            return StateColors::of(QGuiApplication::palette()).running;
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole && index.column() == RunningCalls) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case Client:
        return session.clientName.isEmpty() ? tr("(no name given)") : session.clientName;
    case State:
        return stateText(session);
    case Version:
        return session.clientVersion;
    case Protocol:
        return session.protocolVersion;
    case LastActivity:
        return timeText(session.lastActivity.toLocalTime().time());
    case RunningCalls:
        return session.runningCalls;
    default:
        return {};
    }
}

QVariant ServerClientsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Client:
        return tr("Client");
    case State:
        return tr("State");
    case Version:
        return tr("Version");
    case Protocol:
        return tr("Protocol");
    case LastActivity:
        return tr("Last activity");
    case RunningCalls:
        return tr("Running calls");
    default:
        return {};
    }
}

QString ServerClientsModel::stateText(const mcp::HttpSessionInfo &session) const
{
    switch (clientState(session, m_now)) {
    case ClientState::Working:
        return tr("Working");
    case ClientState::Connected:
        return tr("Connected");
    case ClientState::Idle:
        return tr("Idle for %n min", nullptr, int(session.lastActivity.secsTo(m_now) / 60));
    case ClientState::Gone:
        return tr("Disconnected");
    }
    return {};
}

} // namespace sandbox::gui
