#include "gui/widgets/NetworkConnectionModel.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"

#include <QGuiApplication>
#include <QPalette>
#include <algorithm>

namespace sandbox::gui {

void NetworkConnectionModel::setConnections(const QList<NetworkConnection> &connections)
{
    beginResetModel();
    m_connections = connections;
    endResetModel();
}

int NetworkConnectionModel::refusedCount() const
{
    return int(std::count_if(m_connections.cbegin(), m_connections.cend(),
                             [](const NetworkConnection &connection) { return !connection.allowed; }));
}

bool NetworkConnectionModel::hasSecrets() const
{
    return std::any_of(m_connections.cbegin(), m_connections.cend(),
                       [](const NetworkConnection &connection) { return !connection.secret.isEmpty(); });
}

int NetworkConnectionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_connections.size());
}

int NetworkConnectionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NetworkConnectionModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const NetworkConnection &connection = m_connections.at(index.row());
    const int column = index.column();
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (column) {
        case Endpoint:
            return role == Qt::ToolTipRole && !connection.address.isEmpty()
                       ? tr("%1, reached at %2").arg(connection.endpoint(), connection.address)
                       : connection.endpoint();
        case Method:
            return connection.method;
        case Result:
            return connection.allowed ? tr("Allowed") : tr("Refused");
        case Reason:
            return networkReasonText(connection.reason);
        case Secret:
            return role == Qt::ToolTipRole && !connection.secret.isEmpty()
                       ? tr("The egress proxy put the value of the secret %1 into this request; the sandbox saw only "
                            "a placeholder.")
                             .arg(connection.secret)
                       : connection.secret;
        case Status:
            return connection.status > 0 ? QString::number(connection.status) : QString();
        case Sent:
            return dataSizeText(connection.bytesOut);
        case Received:
            return dataSizeText(connection.bytesIn);
        case Duration:
            return durationText(connection.durationMs);
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && !connection.allowed && (column == Result || column == Reason)) {
        return StateColors::of(QGuiApplication::palette()).failed; // as a failed run's status is
    }
    if (role == Qt::TextAlignmentRole && column >= Status) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant NetworkConnectionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
    case Endpoint:
        return tr("Host");
    case Method:
        return tr("Method");
    case Result:
        return tr("Result");
    case Reason:
        return tr("Reason");
    case Secret:
        return tr("Secret");
    case Status:
        return tr("HTTP"); // the status the proxy answered: 200, 403
    case Sent:
        return tr("Sent");
    case Received:
        return tr("Received");
    case Duration:
        return tr("Duration");
    default:
        return {};
    }
}

} // namespace sandbox::gui
