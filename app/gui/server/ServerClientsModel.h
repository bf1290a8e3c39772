#pragma once

#include "mcp/http/HttpSession.h"

#include <QAbstractTableModel>
#include <QList>

namespace sandbox::gui {

/// The clients connected to the app's MCP server, one row per MCP session: its clientInfo, the protocol revision
/// it agreed on, when it last made a request and how many of its calls run now.
class ServerClientsModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Client,
        Version,
        Protocol,
        LastActivity,
        RunningCalls,
        ColumnCount
    };
    enum Role
    {
        SessionIdRole = Qt::UserRole + 1,
    };

    using QAbstractTableModel::QAbstractTableModel;

    /// Updates the rows in place: rows of sessions still open keep their place, ended ones go, new ones come last.
    void setSessions(const QList<mcp::HttpSessionInfo> &sessions);
    const mcp::HttpSessionInfo &sessionAt(int row) const { return m_sessions.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<mcp::HttpSessionInfo> m_sessions;
};

} // namespace sandbox::gui
