#include "gui/backends/LibraryCacheModel.h"

#include "gui/RunText.h"

#include <QLocale>

namespace sandbox::gui {

namespace {

/// When, in few words: today its time ("6:52 AM"), this year its day ("Dec 5"), else its date; the tooltip has it
/// whole (dateTimeText).
QString whenText(const QDateTime &when)
{
    if (!when.isValid()) {
        return QStringLiteral("–");
    }
    const QDateTime local = when.toLocalTime();
    const QDate today = QDate::currentDate();
    if (local.date() == today) {
        return QLocale().toString(local.time(), QLocale::ShortFormat);
    }
    return local.date().year() == today.year() ? dayText(local.date())
                                               : QLocale().toString(local.date(), QLocale::ShortFormat);
}

bool sameShown(const LibraryCache::Entry &a, const LibraryCache::Entry &b)
{
    return a.language == b.language && a.libraries == b.libraries && a.image == b.image &&
           a.archiveBytes == b.archiveBytes && a.unpackedBytes == b.unpackedBytes && a.created == b.created &&
           a.lastUsed == b.lastUsed;
}

} // namespace

qsizetype LibraryCacheModel::rowOf(const QString &key, qsizetype from) const
{
    for (qsizetype row = from; row < m_entries.size(); ++row) {
        if (m_entries.at(row).key == key) {
            return row;
        }
    }
    return -1;
}

void LibraryCacheModel::setEntries(const QList<LibraryCache::Entry> &entries)
{
    // The sets that went first (back to front)...
    for (qsizetype row = m_entries.size() - 1; row >= 0; --row) {
        const QString &key = m_entries.at(row).key;
        const bool stays = std::any_of(entries.cbegin(), entries.cend(),
                                       [&](const LibraryCache::Entry &entry) { return entry.key == key; });
        if (!stays) {
            beginRemoveRows({}, int(row), int(row));
            m_entries.removeAt(row);
            endRemoveRows();
        }
    }
    // ... then each row in its place, from the top: the rows above `row` are in order already.
    for (qsizetype row = 0; row < entries.size(); ++row) {
        const LibraryCache::Entry &entry = entries.at(row);
        const qsizetype found = rowOf(entry.key, row);
        if (found < 0) {
            beginInsertRows({}, int(row), int(row));
            m_entries.insert(row, entry);
            endInsertRows();
            continue;
        }
        if (found != row) {
            beginMoveRows({}, int(found), int(found), {}, int(row));
            m_entries.move(found, row);
            endMoveRows();
        }
        if (!sameShown(m_entries.at(row), entry)) {
            m_entries[row] = entry;
            emit dataChanged(index(int(row), 0), index(int(row), ColumnCount - 1));
        }
    }
}

qint64 LibraryCacheModel::totalBytes() const
{
    qint64 total = 0;
    for (const LibraryCache::Entry &entry : m_entries) {
        total += entry.archiveBytes;
    }
    return total;
}

int LibraryCacheModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int LibraryCacheModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LibraryCacheModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size()) {
        return {};
    }
    const LibraryCache::Entry &entry = m_entries.at(index.row());
    if (role == KeyRole) {
        return entry.key;
    }
    if (role == Qt::ToolTipRole) {
        switch (Column(index.column())) {
        case LanguageColumn:
            return languageText(entry.language);
        case LastUsedColumn:
            return dateTimeText(entry.lastUsed);
        case CreatedColumn:
            return dateTimeText(entry.created);
        default:
            // The whole list (the column may elide it), and what the set was installed for.
            return tr("%1\nInstalled for %2").arg(entry.libraries.join(QStringLiteral(", ")), entry.image);
        }
    }
    if (role == Qt::TextAlignmentRole && (index.column() == PackedColumn || index.column() == UnpackedColumn)) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    const QString none = QStringLiteral("–");
    switch (Column(index.column())) {
    case LanguageColumn:
        return shortLanguageText(entry.language);
    case LibrariesColumn:
        return entry.libraries.join(QStringLiteral(", "));
    case PackedColumn:
        return dataSizeText(entry.archiveBytes);
    case UnpackedColumn:
        return entry.unpackedBytes > 0 ? dataSizeText(entry.unpackedBytes) : none;
    case LastUsedColumn:
        return whenText(entry.lastUsed);
    case CreatedColumn:
        return whenText(entry.created);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant LibraryCacheModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (Column(section)) {
    case LanguageColumn:
        return tr("Language");
    case LibrariesColumn:
        return tr("Libraries");
    case PackedColumn:
        return tr("Packed size");
    case UnpackedColumn:
        return tr("Unpacked size");
    case LastUsedColumn:
        return tr("Last used");
    case CreatedColumn:
        return tr("Created");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace sandbox::gui
