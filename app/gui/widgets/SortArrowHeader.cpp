#include "gui/widgets/SortArrowHeader.h"

#include <QPainter>
#include <QStyle>
#include <QStyleOption>

namespace sandbox::gui {

SortArrowHeader::SortArrowHeader(Qt::Orientation orientation, QWidget *parent) : QHeaderView(orientation, parent)
{
    // As QTableView's own header.
    setSectionsClickable(true);
    setHighlightSections(true);
}

void SortArrowHeader::initStyleOptionForIndex(QStyleOptionHeader *option, int logicalIndex) const
{
    QHeaderView::initStyleOptionForIndex(option, logicalIndex);
    option->sortIndicator = QStyleOptionHeader::None; // paintSection draws it, pointing the right way
}

void SortArrowHeader::paintSection(QPainter *painter, const QRect &rect, int logicalIndex) const
{
    QHeaderView::paintSection(painter, rect, logicalIndex);
    if (!isSortIndicatorShown() || sortIndicatorSection() != logicalIndex || !rect.isValid()) {
        return;
    }
    // At the right end, in the room sectionSizeFromContents kept for the style's own arrow.
    const int size = style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, this);
    const int margin = style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this);
    QStyleOption arrow;
    arrow.initFrom(this);
    arrow.rect = QRect(rect.right() - margin - size, rect.center().y() - size / 2, size, size);
    painter->save();
    // The section's painting leaves the painter clipped short of where the arrow goes (nothing showed without this).
    painter->setClipRect(rect);
    style()->drawPrimitive(sortIndicatorOrder() == Qt::AscendingOrder ? QStyle::PE_IndicatorArrowUp
                                                                      : QStyle::PE_IndicatorArrowDown,
                           &arrow, painter, this);
    painter->restore();
}

} // namespace sandbox::gui
