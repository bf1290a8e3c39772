#pragma once

#include "folders/SharedFolder.h"

#include <QAbstractTableModel>
#include <QList>

namespace sandbox::gui {

/// The folders on Settings → Folders, one row each: the name the sandbox sees (/data/NAME, edited in place), the
/// host folder and whether results may be saved there. Names stay valid and distinct: an edit that would break
/// that is refused, and refused() says why in one sentence.
class SharedFolderModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Name,
        Folder,
        Access,
        ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setFolders(const QList<SharedFolder> &folders);
    const QList<SharedFolder> &folders() const { return m_folders; }
    /// Adds `folder` last (its name must be free: freeName()).
    void append(const SharedFolder &folder);
    void removeFolder(int row);
    void setWritable(int row, bool writable);
    /// `name`, or `name` with "-2", "-3"… when another folder has it.
    QString freeName(const QString &name) const;
    /// Why no folder may be named `name` (but the one at `row`), in one sentence; empty when it may.
    QString nameProblem(const QString &name, int row = -1) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    /// An edit was refused: why, in one sentence.
    void refused(const QString &why);

private:
    QList<SharedFolder> m_folders;
};

} // namespace sandbox::gui
