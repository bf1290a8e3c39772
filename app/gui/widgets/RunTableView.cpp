#include "gui/widgets/RunTableView.h"

#include "gui/RunText.h"
#include "gui/widgets/SortArrowHeader.h"

#include <QEvent>
#include <QHeaderView>
#include <QLocale>
#include <QScrollBar>
#include <QStyle>
#include <algorithm>
#include <cmath>

namespace sandbox::gui {

namespace {

constexpr int kPadding = 12;
/// Rows measured: the first ones, which the view shows when it opens.
constexpr int kMeasuredRows = 100;

/// The statuses most runs have: running, succeeded, failed with an exit code, timed out.
QStringList usualStatuses()
{
    QStringList texts;
    RunEnding ending;
    ending.durationMs = ending.timeoutMs = 30'000;
    for (const auto &[outcome, exitCode] :
         {std::pair{RunOutcome::Running, std::optional<int>()}, std::pair{RunOutcome::Succeeded, std::optional<int>(0)},
          std::pair{RunOutcome::ExitedWithError, std::optional<int>(1)},
          std::pair{RunOutcome::TimedOut, std::optional<int>(137)}}) {
        ending.outcome = outcome;
        ending.exitCode = exitCode;
        texts << runStatusText(ending);
    }
    return texts;
}

} // namespace

RunTableView::RunTableView(RunTableModel::Column fillColumn, QWidget *parent)
    : QTableView(parent), m_fillColumn(fillColumn)
{
    setHorizontalHeader(new SortArrowHeader(Qt::Horizontal, this));
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setAlternatingRowColors(true);
    setShowGrid(false);
    setWordWrap(false);
    setTextElideMode(Qt::ElideRight);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 10);
    // Every width is set for the table's width (fitColumns), the fill column's too.
    horizontalHeader()->setStretchLastSection(false);
    horizontalHeader()->setHighlightSections(false);
    horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int section, int oldSize, int newSize) {
        // A column hidden or shown again (from or to no width) is no user's drag either.
        if (!m_fitting && section != m_fillColumn && oldSize > 0 && newSize > 0) {
            m_sizedByUser = true;
        }
    });
}

void RunTableView::setModel(QAbstractItemModel *model)
{
    // The header sizes its sections anew for a new or reset model: that is no user's drag.
    m_fitting = true;
    QTableView::setModel(model);
    m_fitting = false;
    // The first rows give the columns their widths; every row its status.
    connect(model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &, int first, int last) {
        if (!measureStatuses(first, last) && first < kMeasuredRows) {
            measureColumns();
        }
    });
    connect(model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                if (topLeft.column() <= RunTableModel::Status && bottomRight.column() >= RunTableModel::Status) {
                    measureStatuses(topLeft.row(), bottomRight.row());
                }
            });
    connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { m_fitting = true; });
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        m_fitting = false;
        m_widestStatus = 0;
        measureColumns();
    });
    measureColumns();
}

int RunTableView::preferredColumnsWidth() const
{
    int sum = 2 * frameWidth() + verticalScrollBar()->sizeHint().width();
    for (int column = 0; column < model()->columnCount(); ++column) {
        sum += isColumnHidden(column) ? 0 : m_widths.at(column).preferred;
    }
    return sum;
}

bool RunTableView::measureStatuses(int first, int last)
{
    if (!model() || model()->columnCount() <= RunTableModel::Status) {
        return false;
    }
    const int widest = widestText(RunTableModel::Status, first, last, fontMetrics(), {});
    if (widest <= m_widestStatus) {
        return false;
    }
    m_widestStatus = widest;
    measureColumns();
    return true;
}

int RunTableView::widestText(int column, int first, int last, const QFontMetrics &metrics,
                             const QStringList &samples) const
{
    int widest = 0;
    for (const QString &text : samples) {
        widest = std::max(widest, metrics.horizontalAdvance(text));
    }
    bool decorated = false;
    for (int row = first; row <= last; ++row) {
        const QModelIndex index = model()->index(row, column);
        widest = std::max(widest, metrics.horizontalAdvance(index.data().toString()));
        decorated = decorated || index.data(Qt::DecorationRole).isValid();
    }
    // An icon before the text (the live log's status dot), with the room the style leaves beside it.
    const int icon = decorated ? style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this) + 4 : 0;
    return widest + icon + kPadding;
}

void RunTableView::measureColumns()
{
    // What each column needs: its header and its widest text in the first rows (samples besides). Time, duration and
    // status (every row's, and the usual ones before there are rows) are never cut; source, language and result give
    // way down to their header, elided; the fill column takes what is left, and wants its widest text up to 40
    // characters. A hidden column needs nothing.
    if (!model()) {
        return;
    }
    const QFontMetrics metrics = fontMetrics();
    const QFontMetrics headerMetrics = horizontalHeader()->fontMetrics();
    const int digit = metrics.horizontalAdvance(QLatin1Char('0'));
    const int rows = std::min(model()->rowCount(), kMeasuredRows);
    // The usual statuses and those of the first rows, with the icon the rows put before them.
    const int statusWidth = widestText(RunTableModel::Status, 0, rows - 1, metrics, usualStatuses());
    m_minimumWidth = 2 * frameWidth() + verticalScrollBar()->sizeHint().width();
    for (int column = 0; column < model()->columnCount(); ++column) {
        if (isColumnHidden(column)) {
            m_widths.at(column) = {};
            continue;
        }
        const int header =
            headerMetrics.horizontalAdvance(model()->headerData(column, Qt::Horizontal).toString()) + kPadding + 4;
        const int least = std::max(header, digit * 5);
        ColumnWidth &width = m_widths.at(column);
        if (column == m_fillColumn) {
            // In its own font (History's code is monospace).
            const QVariant font = rows > 0 ? model()->index(0, column).data(Qt::FontRole) : QVariant();
            const QFontMetrics fillMetrics(font.isValid() ? font.value<QFont>() : this->font());
            const int cap = fillMetrics.horizontalAdvance(QLatin1Char('0')) * 40 + kPadding;
            width = {std::max(least, std::min(widestText(column, 0, rows - 1, fillMetrics, {}), cap)), least};
        } else {
            QStringList samples;
            if (column == RunTableModel::Started && rows == 0) {
                samples << QLocale().toString(QDateTime(QDate(2026, 12, 28), QTime(23, 59, 59)), QLocale::ShortFormat);
            } else if (column == RunTableModel::Duration) {
                samples << durationText(28'450);
            }
            if (column == RunTableModel::Status) {
                const int widest = std::max({statusWidth, m_widestStatus, least});
                width = {widest, widest};
                m_minimumWidth += width.minimum;
                continue;
            }
            const bool flexible = column == RunTableModel::Source || column == RunTableModel::Language ||
                                  column == RunTableModel::Outcome;
            width.preferred =
                std::clamp(widestText(column, 0, rows - 1, metrics, samples), least, std::max(least, digit * 24));
            width.minimum = flexible ? std::min(width.preferred, least) : width.preferred;
        }
        m_minimumWidth += width.minimum;
    }
    emit columnsMeasured();
    fitColumns();
}

bool RunTableView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::Resize) {
        fitColumns();
    }
    return QTableView::viewportEvent(event);
}

void RunTableView::fitColumns()
{
    if (!model()) {
        return;
    }
    const int columns = model()->columnCount();
    const int available = viewport()->width();
    const ColumnWidth &fill = m_widths.at(m_fillColumn);
    m_fitting = true;
    int used = 0;
    if (m_sizedByUser) {
        // The user's widths stay; the fill column still takes the rest.
        for (int column = 0; column < columns; ++column) {
            used += column == m_fillColumn || isColumnHidden(column) ? 0 : columnWidth(column);
        }
    } else {
        int preferred = 0;
        int shrinkable = 0;
        for (int column = 0; column < columns; ++column) {
            preferred += m_widths.at(column).preferred;
            shrinkable += m_widths.at(column).preferred - m_widths.at(column).minimum;
        }
        const double shrink =
            shrinkable > 0 ? std::clamp(double(preferred - available) / double(shrinkable), 0.0, 1.0) : 0.0;
        for (int column = 0; column < columns; ++column) {
            if (column == m_fillColumn || isColumnHidden(column)) {
                continue;
            }
            const ColumnWidth &width = m_widths.at(column);
            const int shown = width.preferred - int(std::lround((width.preferred - width.minimum) * shrink));
            setColumnWidth(column, shown);
            used += shown;
        }
    }
    horizontalHeader()->setMinimumSectionSize(std::min(fill.minimum, 40));
    setColumnWidth(m_fillColumn, std::max(fill.minimum, available - used));
    m_fitting = false;
}

} // namespace sandbox::gui
