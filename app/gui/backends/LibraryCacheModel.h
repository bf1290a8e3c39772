#pragma once

#include "libraries/LibraryCache.h"

#include <QAbstractTableModel>

namespace sandbox::gui {

/// The library sets of the library cache (LibraryCache::entries), most recently used first: language, libraries,
/// packed and unpacked size, last use, when it was kept (today's time, else the day; whole in the tooltips). Refreshed
/// in place: a set keeps its row object (moved when its use changes the order), so that a view's selection stays with
/// the set, not the row number.
class LibraryCacheModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        LanguageColumn,
        LibrariesColumn,
        PackedColumn,
        UnpackedColumn,
        LastUsedColumn,
        CreatedColumn,
        ColumnCount
    };
    /// The entry's key (Qt::UserRole): what LibraryCache::prune takes.
    static constexpr int KeyRole = Qt::UserRole;

    using QAbstractTableModel::QAbstractTableModel;

    /// Replaces the rows with `entries` in their order: a set that stays is moved to its place and updated, one that
    /// went is removed, a new one inserted; nothing is reset.
    void setEntries(const QList<LibraryCache::Entry> &entries);
    const QList<LibraryCache::Entry> &entries() const { return m_entries; }
    /// The packed size of every set.
    qint64 totalBytes() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    qsizetype rowOf(const QString &key, qsizetype from = 0) const;

    QList<LibraryCache::Entry> m_entries;
};

} // namespace sandbox::gui
