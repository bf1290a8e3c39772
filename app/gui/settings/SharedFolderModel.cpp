#include "gui/settings/SharedFolderModel.h"

#include "gui/StateColors.h"

#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QPalette>
#include <algorithm>

namespace sandbox::gui {

namespace {

/// The folder is there to be read: sandboxes see it (UserSettings::usableSharedFolders).
bool isThere(const SharedFolder &folder)
{
    return QFileInfo(folder.path).isDir();
}

} // namespace

void SharedFolderModel::setFolders(const QList<SharedFolder> &folders)
{
    beginResetModel();
    m_folders = folders;
    endResetModel();
}

void SharedFolderModel::append(const SharedFolder &folder)
{
    const int row = int(m_folders.size());
    beginInsertRows({}, row, row);
    m_folders.append(folder);
    endInsertRows();
}

void SharedFolderModel::removeFolder(int row)
{
    if (row < 0 || row >= m_folders.size()) {
        return;
    }
    beginRemoveRows({}, row, row);
    m_folders.removeAt(row);
    endRemoveRows();
}

void SharedFolderModel::setWritable(int row, bool writable)
{
    if (row < 0 || row >= m_folders.size() || m_folders.at(row).writable == writable) {
        return;
    }
    m_folders[row].writable = writable;
    emit dataChanged(index(row, Access), index(row, Access));
}

QString SharedFolderModel::freeName(const QString &name) const
{
    QString free = name;
    for (int suffix = 2; !nameProblem(free).isEmpty(); ++suffix) {
        const QString tail = QStringLiteral("-%1").arg(suffix);
        free = name.left(64 - tail.size()) + tail;
    }
    return free;
}

QString SharedFolderModel::nameProblem(const QString &name, int row) const
{
    if (!SharedFolder::nameIsValid(name)) {
        return tr("“%1” cannot name a folder in the sandbox: use up to 64 letters, digits, “.”, “_” or “-”, not "
                  "starting with “.” or “-”.")
            .arg(name);
    }
    for (int other = 0; other < m_folders.size(); ++other) {
        if (other != row && m_folders.at(other).name == name) {
            return tr("Another folder is already named “%1”.").arg(name);
        }
    }
    return {};
}

int SharedFolderModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_folders.size());
}

int SharedFolderModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SharedFolderModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_folders.size()) {
        return {};
    }
    const SharedFolder &folder = m_folders.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return folder.mountPath();
        case Folder:
            return QDir::toNativeSeparators(folder.path);
        case Access:
            if (!isThere(folder)) {
                return tr("Missing: not shared");
            }
            return folder.writable ? tr("Results may be saved here") : tr("Read only");
        default:
            return {};
        }
    case Qt::EditRole:
        return index.column() == Name ? QVariant(folder.name) : data(index, Qt::DisplayRole);
    case Qt::ToolTipRole:
        if (!isThere(folder)) {
            return tr("This folder is not there any more: sandboxes do not see it until it is back.");
        }
        if (index.column() == Name) {
            return tr("The folder's name in the sandbox: double-click to change it");
        }
        return data(index, Qt::DisplayRole);
    case Qt::ForegroundRole:
        if (index.column() == Access && !isThere(folder)) {
            return StateColors::of(QGuiApplication::palette()).failed;
        }
        return {};
    default:
        return {};
    }
}

bool SharedFolderModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || index.column() != Name || role != Qt::EditRole || index.row() >= m_folders.size()) {
        return false;
    }
    // What a user types after "/data/" in the editor is the name too.
    QString name = value.toString().trimmed();
    if (name.startsWith(QLatin1String("/data/"))) {
        name.remove(0, 6);
    }
    if (name == m_folders.at(index.row()).name) {
        return true;
    }
    if (const QString problem = nameProblem(name, index.row()); !problem.isEmpty()) {
        emit refused(problem);
        return false;
    }
    m_folders[index.row()].name = name;
    emit dataChanged(index, index);
    return true;
}

Qt::ItemFlags SharedFolderModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == Name) {
        flags |= Qt::ItemIsEditable;
    }
    return flags;
}

QVariant SharedFolderModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Name:
        return tr("In the sandbox");
    case Folder:
        return tr("Folder");
    case Access:
        return tr("Access");
    default:
        return {};
    }
}

} // namespace sandbox::gui
