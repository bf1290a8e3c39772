#pragma once

#include "network/NetworkConnection.h"

#include <QAbstractTableModel>
#include <QList>

namespace sandbox::gui {

/// A run's network connections (JournalRun::networkConnections), one row each in the order they ended: where to, the
/// method, whether the egress proxy let it through and why not, the HTTP status, the bytes each way and how long it
/// took, and the name of the user's secret the proxy added to it (never its value). A refused row's result and reason
/// are in the colour of a failure.
class NetworkConnectionModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Endpoint,
        Method,
        Result,
        Reason, ///< beside the result: what a narrow pane shows first
        Secret, ///< the secret's name, for a request that carried one
        Status,
        Sent,
        Received,
        Duration,
        ColumnCount
    };
    using QAbstractTableModel::QAbstractTableModel;

    void setConnections(const QList<NetworkConnection> &connections);
    const QList<NetworkConnection> &connections() const { return m_connections; }
    /// How many were refused.
    int refusedCount() const;
    /// Whether a secret was added to any.
    bool hasSecrets() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<NetworkConnection> m_connections;
};

} // namespace sandbox::gui
