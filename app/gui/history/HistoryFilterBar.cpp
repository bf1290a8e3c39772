#include "gui/history/HistoryFilterBar.h"

#include "gui/RunText.h"
#include "lang/LanguageRegistry.h"

#include <QComboBox>
#include <QDateEdit>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

namespace sandbox::gui {

namespace {

enum Period
{
    AnyTime,
    Today,
    LastWeek,
    LastMonth,
    CustomRange
};

} // namespace

HistoryFilterBar::HistoryFilterBar(QWidget *parent) : QWidget(parent)
{
    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("historyLanguageFilter"));
    m_language->addItem(tr("All languages"), QString());
    for (const QString &name : LanguageRegistry::instance().names()) {
        m_language->addItem(name, name);
    }

    m_status = new QComboBox(this);
    m_status->setObjectName(QStringLiteral("historyStatusFilter"));
    m_status->addItem(tr("Any status"));
    // The outcomes in the words of the status column.
    for (const RunOutcome outcome :
         {RunOutcome::Running, RunOutcome::Succeeded, RunOutcome::ExitedWithError, RunOutcome::TimedOut,
          RunOutcome::Stopped, RunOutcome::Failed, RunOutcome::Interrupted}) {
        m_status->addItem(runOutcomeName(outcome), int(outcome));
    }

    m_source = new QComboBox(this);
    m_source->setObjectName(QStringLiteral("historySourceFilter"));
    m_source->addItem(tr("All sources"), QString());
    for (const auto &[text, sources] : runSourceChoices()) {
        m_source->addItem(text, sources);
    }

    m_period = new QComboBox(this);
    m_period->setObjectName(QStringLiteral("historyPeriodFilter"));
    m_period->addItem(tr("Any time"), AnyTime);
    m_period->addItem(tr("Today"), Today);
    m_period->addItem(tr("Last 7 days"), LastWeek);
    m_period->addItem(tr("Last 30 days"), LastMonth);
    m_period->addItem(tr("Date range…"), CustomRange);

    const QDate today = QDate::currentDate();
    m_from = new QDateEdit(today.addDays(-7), this);
    m_from->setObjectName(QStringLiteral("historyFromDate"));
    m_from->setCalendarPopup(true);
    m_to = new QDateEdit(today, this);
    m_to->setObjectName(QStringLiteral("historyToDate"));
    m_to->setCalendarPopup(true);

    m_text = new QLineEdit(this);
    m_text->setObjectName(QStringLiteral("historyTextFilter"));
    m_text->setPlaceholderText(tr("Search code, output and chart titles…"));
    m_text->setClearButtonEnabled(true);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text, 3);
    layout->addWidget(m_language, 1);
    layout->addWidget(m_status, 1);
    layout->addWidget(m_source, 1);
    layout->addWidget(m_period, 1);
    layout->addWidget(m_from);
    layout->addWidget(m_to);

    m_textDebounce.setSingleShot(true);
    m_textDebounce.setInterval(TextDebounceMs);
    connect(&m_textDebounce, &QTimer::timeout, this, &HistoryFilterBar::emitFilter);
    connect(m_text, &QLineEdit::textChanged, &m_textDebounce, qOverload<>(&QTimer::start));
    for (QComboBox *combo : {m_language, m_status, m_source}) {
        connect(combo, &QComboBox::currentIndexChanged, this, &HistoryFilterBar::emitFilter);
    }
    connect(m_period, &QComboBox::currentIndexChanged, this, [this] {
        updateDateRangeVisibility();
        emitFilter();
    });
    connect(m_from, &QDateEdit::dateChanged, this, &HistoryFilterBar::emitFilter);
    connect(m_to, &QDateEdit::dateChanged, this, &HistoryFilterBar::emitFilter);
    updateDateRangeVisibility();
}

RunFilter HistoryFilterBar::filter() const
{
    RunFilter filter;
    filter.language = m_language->currentData().toString();
    if (const QVariant outcome = m_status->currentData(); outcome.isValid()) {
        filter.outcome = RunOutcome(outcome.toInt());
    }
    filter.sources = runSourcesFromString(m_source->currentData().toString());
    filter.text = m_text->text().trimmed();
    const QDate today = QDate::currentDate();
    switch (m_period->currentData().toInt()) {
    case Today:
        filter.from = today.startOfDay();
        break;
    case LastWeek:
        filter.from = today.addDays(-6).startOfDay();
        break;
    case LastMonth:
        filter.from = today.addDays(-29).startOfDay();
        break;
    case CustomRange:
        filter.from = m_from->date().startOfDay();
        filter.to = m_to->date().endOfDay();
        break;
    default:
        break;
    }
    return filter;
}

void HistoryFilterBar::emitFilter()
{
    m_textDebounce.stop();
    emit filterChanged(filter());
}

void HistoryFilterBar::updateDateRangeVisibility()
{
    const bool custom = m_period->currentData().toInt() == CustomRange;
    m_from->setVisible(custom);
    m_to->setVisible(custom);
}

} // namespace sandbox::gui
