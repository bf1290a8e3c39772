#include "gui/settings/NetworkHostModel.h"

namespace sandbox::gui {

Result<QString> NetworkHostModel::entryOf(const QString &text)
{
    auto host = NetworkHost::parse(text);
    if (!host) {
        return host.error();
    }
    if (host->ports.isEmpty()) {
        host->ports = NetworkHost::defaultPorts();
    }
    return host->text();
}

QString NetworkHostModel::problem(const QString &text, int row) const
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        return tr("Write a host, such as api.example.org.");
    }
    auto entry = entryOf(trimmed);
    if (!entry) {
        return tr("“%1” is not a host: write a name such as api.example.org, *.example.org for a domain and every "
                  "host under it, or an IP address, and :PORT (1 to 65535) for a port other than 80 and 443.")
            .arg(trimmed);
    }
    for (int other = 0; other < m_entries.size(); ++other) {
        if (other != row && m_entries.at(other) == *entry) {
            return tr("%1 is already in the list.").arg(*entry);
        }
    }
    return {};
}

void NetworkHostModel::setAllowList(const NetworkAllowList &allowed)
{
    beginResetModel();
    m_entries.clear();
    for (const NetworkHost &host : allowed.hosts()) {
        // "a:8080, a:8443": a row per port, each removable alone.
        m_entries << host.text().split(QStringLiteral(", "), Qt::SkipEmptyParts);
    }
    endResetModel();
}

NetworkAllowList NetworkHostModel::allowList() const
{
    auto allowed = NetworkAllowList::parse(m_entries.join(QStringLiteral(", ")));
    return allowed ? *allowed : NetworkAllowList();
}

bool NetworkHostModel::addEntry(const QString &text)
{
    if (const QString why = problem(text); !why.isEmpty()) {
        emit refused(why);
        return false;
    }
    const int row = int(m_entries.size());
    beginInsertRows({}, row, row);
    m_entries << *entryOf(text.trimmed());
    endInsertRows();
    return true;
}

void NetworkHostModel::removeEntry(int row)
{
    if (row < 0 || row >= m_entries.size()) {
        return;
    }
    beginRemoveRows({}, row, row);
    m_entries.removeAt(row);
    endRemoveRows();
}

int NetworkHostModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant NetworkHostModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return m_entries.at(index.row());
    default:
        return {};
    }
}

bool NetworkHostModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return false;
    }
    const QString text = value.toString();
    if (const QString why = problem(text, index.row()); !why.isEmpty()) {
        emit refused(why);
        return false;
    }
    m_entries[index.row()] = *entryOf(text.trimmed());
    emit dataChanged(index, index);
    return true;
}

Qt::ItemFlags NetworkHostModel::flags(const QModelIndex &index) const
{
    return QAbstractListModel::flags(index) | (index.isValid() ? Qt::ItemIsEditable : Qt::NoItemFlags);
}

} // namespace sandbox::gui
