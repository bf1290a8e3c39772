#include "gui/livelog/LiveLogFilterModel.h"

#include "gui/livelog/LiveLogModel.h"

namespace sandbox::gui {

LiveLogFilterModel::LiveLogFilterModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(LiveLogModel::SortRole);
    setDynamicSortFilter(true);
}

void LiveLogFilterModel::setText(const QString &text)
{
    if (text != m_text) {
        m_text = text;
        invalidateRowsFilter();
    }
}

void LiveLogFilterModel::setSources(const QList<RunSource> &sources)
{
    if (sources != m_sources) {
        m_sources = sources;
        invalidateRowsFilter();
    }
}

bool LiveLogFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_sources.isEmpty() && !m_sources.contains(RunSource(index.data(LiveLogModel::SourceRole).toInt()))) {
        return false;
    }
    return m_text.isEmpty() || index.data(LiveLogModel::SearchRole).toString().contains(m_text, Qt::CaseInsensitive);
}

} // namespace sandbox::gui
