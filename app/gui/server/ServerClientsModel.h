#pragma once

#include "mcp/http/HttpSession.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>
#include <chrono>

namespace sandbox::gui {

/// The clients connected to the app's MCP server, one row per MCP session: its clientInfo, whether it is still
/// there, the protocol revision it agreed on, when it last made a request and how many of its calls run now.
class ServerClientsModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Client,
        State,
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

    /// Where a client stands. A session outlives its client (it expires after 30 idle minutes): one that dropped its
    /// event stream or has been silent a while is most likely gone.
    enum class ClientState
    {
        Working,   ///< a call of its runs
        Connected, ///< listening on its event stream, or it made a request lately
        Idle,      ///< no request for a while and no event stream
        Gone,      ///< it dropped its event stream and has made no request since
    };
    /// Silent this long without an event stream: idle.
    static constexpr std::chrono::minutes kIdleAfter{2};

    using QAbstractTableModel::QAbstractTableModel;

    static ClientState clientState(const mcp::HttpSessionInfo &session, const QDateTime &now);
    /// The clients that are there (working or connected): the ones that quitting cuts off.
    static int presentClients(const QList<mcp::HttpSessionInfo> &sessions, const QDateTime &now);

    /// Updates the rows in place: rows of sessions still open keep their place, ended ones go, new ones come last.
    /// `now` is when the sessions were read (their idle times are measured to it).
    void setSessions(const QList<mcp::HttpSessionInfo> &sessions,
                     const QDateTime &now = QDateTime::currentDateTimeUtc());
    const mcp::HttpSessionInfo &sessionAt(int row) const { return m_sessions.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString stateText(const mcp::HttpSessionInfo &session) const;

    QList<mcp::HttpSessionInfo> m_sessions;
    QDateTime m_now;
};

} // namespace sandbox::gui
