#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QStringList>

namespace sandbox::gui {

/// A CSV or tab-separated file (SeparatedValues::parse) as a table whose first row names the columns. Cells are handed
/// to the view only as it draws them, so thousands of rows open at once; a cell longer than kMaxCellCharacters shows
/// cut.
class SeparatedValuesModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    static constexpr qsizetype kMaxCellCharacters = 1000;

    using QAbstractTableModel::QAbstractTableModel;

    /// Shows `rows` (the first names the columns), at most `maxColumns` of them.
    void setRows(QList<QStringList> rows, int maxColumns);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<QStringList> m_rows;
    int m_columns = 0;
};

} // namespace sandbox::gui
