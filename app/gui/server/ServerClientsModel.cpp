#include "gui/server/ServerClientsModel.h"

#include <algorithm>

namespace sandbox::gui {

void ServerClientsModel::setSessions(const QList<mcp::HttpSessionInfo> &sessions)
{
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
    if (role == Qt::ToolTipRole && index.column() == Client) {
        return tr("MCP session %1").arg(session.id);
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
    case Version:
        return session.clientVersion;
    case Protocol:
        return session.protocolVersion;
    case LastActivity:
        return session.lastActivity.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
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

} // namespace sandbox::gui
