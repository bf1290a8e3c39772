#pragma once

#include <QHeaderView>

namespace sandbox::gui {

/// A table's header whose sort arrow points the way its rows are sorted, in every style: ▲ over the smallest (the
/// oldest) first, ▼ over the largest (the newest) first. Qt hands styles an ascending order as "sort down", which
/// Fusion on Linux draws as ▼, so a newest-first list showed ▲.
class SortArrowHeader final : public QHeaderView
{
    Q_OBJECT

public:
    explicit SortArrowHeader(Qt::Orientation orientation, QWidget *parent = nullptr);

protected:
    void initStyleOptionForIndex(QStyleOptionHeader *option, int logicalIndex) const override;
    void paintSection(QPainter *painter, const QRect &rect, int logicalIndex) const override;
};

} // namespace sandbox::gui
