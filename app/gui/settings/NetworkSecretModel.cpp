#include "gui/settings/NetworkSecretModel.h"

#include "gui/RunText.h"

#include <QDateTime>
#include <QLocale>

namespace sandbox::gui {

void NetworkSecretModel::setSecrets(const QList<NetworkSecret> &secrets)
{
    beginResetModel();
    m_secrets = secrets;
    endResetModel();
}

int NetworkSecretModel::rowOf(const QString &name) const
{
    for (int row = 0; row < m_secrets.size(); ++row) {
        if (m_secrets.at(row).name == name) {
            return row;
        }
    }
    return -1;
}

int NetworkSecretModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_secrets.size());
}

int NetworkSecretModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NetworkSecretModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const NetworkSecret &secret = m_secrets.at(index.row());
    const QDateTime stored = QDateTime::fromString(secret.createdAt, Qt::ISODate);
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name:
            return secret.name;
        case Hosts:
            return secret.hosts.join(QStringLiteral(", "));
        case Header:
            return secret.header;
        case Stored:
            return stored.isValid() ? QLocale().toString(stored.toLocalTime().date(), QLocale::ShortFormat) : QString();
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Name:
            return tr("A run that may reach %1 sees a placeholder in $%2, never the value.")
                .arg(secret.hosts.join(QStringLiteral(", ")), secret.name);
        case Hosts:
            return secret.hosts.join(u'\n');
        case Header:
            return tr("The egress proxy sends this header with the value in place of {}.");
        case Stored:
            return dateTimeText(stored);
        default:
            return {};
        }
    }
    return {};
}

QVariant NetworkSecretModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
    case Name:
        return tr("Name");
    case Hosts:
        return tr("Hosts");
    case Header:
        return tr("Header");
    case Stored:
        return tr("Stored");
    default:
        return {};
    }
}

} // namespace sandbox::gui
