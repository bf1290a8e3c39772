#include "gui/widgets/SeparatedValuesModel.h"

#include <algorithm>

namespace sandbox::gui {

namespace {

QString shown(const QString &cell)
{
    return cell.size() > SeparatedValuesModel::kMaxCellCharacters
               ? cell.left(SeparatedValuesModel::kMaxCellCharacters) + QChar(0x2026)
               : cell;
}

} // namespace

void SeparatedValuesModel::setRows(QList<QStringList> rows, int maxColumns)
{
    beginResetModel();
    m_rows = std::move(rows);
    qsizetype columns = 0;
    for (const QStringList &row : std::as_const(m_rows)) {
        columns = std::max(columns, row.size());
    }
    m_columns = int(std::min<qsizetype>(columns, maxColumns));
    endResetModel();
}

int SeparatedValuesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(std::max<qsizetype>(m_rows.size() - 1, 0));
}

int SeparatedValuesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_columns;
}

QVariant SeparatedValuesModel::data(const QModelIndex &index, int role) const
{
    if (role != Qt::DisplayRole || !index.isValid() || index.row() + 1 >= m_rows.size()) {
        return {};
    }
    const QStringList &cells = m_rows.at(index.row() + 1);
    return index.column() < cells.size() ? shown(cells.at(index.column())) : QString();
}

QVariant SeparatedValuesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (orientation == Qt::Vertical) {
        return section + 1;
    }
    return m_rows.isEmpty() ? QVariant() : QVariant(shown(m_rows.first().value(section)));
}

} // namespace sandbox::gui
