#include "gui/statistics/StatisticsPage.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLocale>
#include <QStackedBarSeries>
#include <QStyle>
#include <QThread>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::gui {

namespace {

const SettingsKey<int> kPeriodDays{"periodDays", 30};

QChartView *chartView(const QString &objectName)
{
    auto *view = new QChartView(new QChart);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(320, 220);
    view->chart()->legend()->setAlignment(Qt::AlignBottom);
    return view;
}

/// Replaces the chart's series and axes.
void clear(QChart *chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

QString outcomeText(RunOutcome outcome)
{
    switch (outcome) {
    case RunOutcome::Succeeded:
        return StatisticsPage::tr("Succeeded");
    case RunOutcome::ExitedWithError:
        return StatisticsPage::tr("Exited with an error");
    case RunOutcome::TimedOut:
        return StatisticsPage::tr("Timed out");
    case RunOutcome::Stopped:
        return StatisticsPage::tr("Stopped");
    case RunOutcome::Failed:
        return StatisticsPage::tr("Could not run");
    case RunOutcome::Running:
        return StatisticsPage::tr("Running");
    }
    return {};
}

QColor outcomeColor(RunOutcome outcome, const StateColors &colors)
{
    switch (outcome) {
    case RunOutcome::Succeeded:
        return colors.succeeded;
    case RunOutcome::ExitedWithError:
        return colors.failed.lighter(130);
    case RunOutcome::TimedOut:
        return colors.timedOut;
    case RunOutcome::Stopped:
        return colors.stopped;
    case RunOutcome::Failed:
        return colors.failed;
    case RunOutcome::Running:
        return colors.running;
    }
    return {};
}

/// An axis of counts from 0, with a tick at whole numbers only.
QValueAxis *countAxis(int most)
{
    auto *axis = new QValueAxis;
    const int step = std::max(1, (most + 4) / 5);
    axis->setRange(0, std::max(1, (most + step - 1) / step * step));
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setLabelFormat(QStringLiteral("%d"));
    return axis;
}

/// A horizontal bar per count, most at the top.
void drawCounts(QChart *chart, const QList<RunCount> &counts, const QString &title,
                const std::function<QString(const QString &)> &label, const QColor &color)
{
    clear(chart);
    chart->setTitle(title);
    auto *set = new QBarSet(title);
    set->setColor(color);
    QStringList categories;
    int most = 0;
    for (auto it = counts.rbegin(); it != counts.rend(); ++it) {
        categories << label(it->key);
        *set << it->count;
        most = std::max(most, it->count);
    }
    auto *series = new QHorizontalBarSeries;
    series->append(set);
    chart->addSeries(series);
    auto *names = new QBarCategoryAxis;
    names->append(categories);
    chart->addAxis(names, Qt::AlignLeft);
    series->attachAxis(names);
    QValueAxis *values = countAxis(most);
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
    chart->legend()->hide();
}

/// Everything the charts show, read on a pool thread with statistics of its own (one connection per thread).
StatisticsPage::Numbers readOnce(const QString &path, const QDateTime &from, const QDateTime &to)
{
    const JournalStatistics statistics(path);
    StatisticsPage::Numbers numbers;
    auto days = statistics.outcomesPerDay(from, to);
    auto durations = statistics.durationsByLanguage(from, to);
    auto sources = statistics.runsBySource(from, to);
    auto clients = statistics.runsByClient(from, to);
    for (const Error *error : {days ? nullptr : &days.error(), durations ? nullptr : &durations.error(),
                               sources ? nullptr : &sources.error(), clients ? nullptr : &clients.error()}) {
        if (error && numbers.error.isEmpty()) {
            numbers.error = error->message;
        }
    }
    numbers.days = days ? *days : QList<DailyOutcomes>();
    numbers.durations = durations ? *durations : QList<DurationSummary>();
    numbers.sources = sources ? *sources : QList<RunCount>();
    numbers.clients = clients ? *clients : QList<RunCount>();
    return numbers;
}

/// readOnce(), tried again a few times when the journal could not be read (another connection was opening it).
StatisticsPage::Numbers read(const QString &path, const QDateTime &from, const QDateTime &to)
{
    StatisticsPage::Numbers numbers = readOnce(path, from, to);
    for (int attempt = 0; attempt < 3 && !numbers.error.isEmpty(); ++attempt) {
        QThread::msleep(200);
        numbers = readOnce(path, from, to);
    }
    return numbers;
}

} // namespace

StatisticsPage::StatisticsPage(QString journalPath, QWidget *parent)
    : Page(parent), m_journalPath(std::move(journalPath))
{
    setObjectName(QStringLiteral("statisticsPage"));
    m_period = new QComboBox;
    m_period->setObjectName(QStringLiteral("statisticsPeriod"));
    m_period->addItem(tr("Last 7 days"), 7);
    m_period->addItem(tr("Last 30 days"), 30);
    m_period->addItem(tr("Last 90 days"), 90);
    m_period->setCurrentIndex(1);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("statisticsSummary"));

    m_outcomes = chartView(QStringLiteral("outcomesChart"));
    m_durations = chartView(QStringLiteral("durationsChart"));
    m_sources = chartView(QStringLiteral("sourcesChart"));
    m_clients = chartView(QStringLiteral("clientsChart"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_period);
    bar->addWidget(m_summary, 1);
    auto *grid = new QGridLayout;
    grid->addWidget(m_outcomes, 0, 0);
    grid->addWidget(m_durations, 0, 1);
    grid->addWidget(m_sources, 1, 0);
    grid->addWidget(m_clients, 1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(grid, 1);

    connect(m_period, &QComboBox::currentIndexChanged, this, &StatisticsPage::reload);
    // Read again a moment after the journal changed, while the page is on show; otherwise when it is shown next.
    m_refresh = std::make_unique<JournalRefresh<Numbers>>(
        this, m_journalPath, std::chrono::milliseconds(1000),
        [this] {
            const QDateTime to = QDateTime::currentDateTime().addSecs(1);
            const QDateTime from = QDateTime(to.date().addDays(1 - m_period->currentData().toInt()), QTime(0, 0));
            return [path = m_journalPath, from, to] {
                return read(path, from, to);
            };
        },
        [this](Numbers numbers) {
            m_numbers = std::move(numbers);
            draw();
        },
        [this] { return isVisible(); });
    styleCharts();
}

StatisticsPage::~StatisticsPage() = default;

QString StatisticsPage::title() const
{
    return tr("Statistics");
}

QIcon StatisticsPage::icon() const
{
    return style()->standardIcon(QStyle::SP_FileDialogInfoView);
}

void StatisticsPage::saveState(QSettings &settings) const
{
    kPeriodDays.write(settings, m_period->currentData().toInt());
}

void StatisticsPage::restoreState(const QSettings &settings)
{
    m_period->setCurrentIndex(std::max(0, m_period->findData(kPeriodDays.read(settings))));
}

void StatisticsPage::shown()
{
    m_refresh->reloadIfStale();
}

QChart *StatisticsPage::outcomesChart() const
{
    return m_outcomes->chart();
}

QChart *StatisticsPage::durationsChart() const
{
    return m_durations->chart();
}

QChart *StatisticsPage::sourcesChart() const
{
    return m_sources->chart();
}

QChart *StatisticsPage::clientsChart() const
{
    return m_clients->chart();
}

void StatisticsPage::reload()
{
    m_refresh->reload();
}

void StatisticsPage::waitForLoaded()
{
    m_refresh->waitForLoaded();
}

void StatisticsPage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        styleCharts();
        draw();
    }
}

void StatisticsPage::styleCharts()
{
    const bool dark = StateColors::isDark(palette());
    for (QChartView *view : {m_outcomes, m_durations, m_sources, m_clients}) {
        view->chart()->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        view->chart()->setBackgroundBrush(palette().base());
        view->chart()->setTitleBrush(palette().text());
        view->chart()->legend()->setLabelColor(palette().color(QPalette::Text));
        view->setBackgroundBrush(palette().window());
    }
}

void StatisticsPage::draw()
{
    const StateColors colors = StateColors::of(palette());
    const QLocale locale;
    int total = 0;
    int succeeded = 0;

    // Runs per day, stacked by outcome.
    QChart *outcomes = m_outcomes->chart();
    clear(outcomes);
    outcomes->setTitle(tr("Runs per day"));
    auto *stacked = new QStackedBarSeries;
    QStringList days;
    int busiest = 0;
    for (const DailyOutcomes &day : m_numbers.days) {
        days << locale.toString(day.day, QStringLiteral("d MMM"));
        busiest = std::max(busiest, day.total());
        total += day.total();
        succeeded += day.counts[int(RunOutcome::Succeeded)];
    }
    for (int outcome = 0; outcome < 6; ++outcome) {
        auto *set = new QBarSet(outcomeText(RunOutcome(outcome)));
        set->setColor(outcomeColor(RunOutcome(outcome), colors));
        set->setBorderColor(Qt::transparent);
        for (const DailyOutcomes &day : m_numbers.days) {
            *set << day.counts[outcome];
        }
        stacked->append(set);
    }
    outcomes->addSeries(stacked);
    auto *dayAxis = new QBarCategoryAxis;
    dayAxis->append(days);
    // A month of days: upright labels would overlap.
    dayAxis->setGridLineVisible(false);
    dayAxis->setLabelsAngle(days.size() > 10 ? -90 : 0);
    outcomes->addAxis(dayAxis, Qt::AlignBottom);
    stacked->attachAxis(dayAxis);
    QValueAxis *runsAxis = countAxis(busiest);
    outcomes->addAxis(runsAxis, Qt::AlignLeft);
    stacked->attachAxis(runsAxis);
    outcomes->legend()->setVisible(true);
    outcomes->legend()->setAlignment(Qt::AlignRight);

    // Durations per language: a box per language (quartiles, median, whiskers at the extremes).
    QChart *durations = m_durations->chart();
    clear(durations);
    durations->setTitle(tr("Duration per language (ms)"));
    auto *boxes = new QBoxPlotSeries;
    boxes->setName(tr("Duration"));
    boxes->setBrush(colors.running.lighter(140));
    boxes->setPen(QPen(colors.running, 1.5));
    qint64 longest = 0;
    QStringList languages;
    for (const DurationSummary &summary : m_numbers.durations) {
        const QString name = tr("%1 (%2)").arg(languageText(summary.language)).arg(summary.count);
        auto *box = new QBoxSet(double(summary.minimum), double(summary.lowerQuartile), double(summary.median),
                                double(summary.upperQuartile), double(summary.maximum), name);
        boxes->append(box);
        languages << name;
        longest = std::max(longest, summary.maximum);
    }
    durations->addSeries(boxes);
    auto *languageAxis = new QBarCategoryAxis;
    languageAxis->append(languages);
    durations->addAxis(languageAxis, Qt::AlignBottom);
    boxes->attachAxis(languageAxis);
    auto *msAxis = new QValueAxis;
    msAxis->setRange(0, double(std::max<qint64>(longest, 10)));
    msAxis->setLabelFormat(QStringLiteral("%d"));
    msAxis->applyNiceNumbers();
    durations->addAxis(msAxis, Qt::AlignLeft);
    boxes->attachAxis(msAxis);
    durations->legend()->hide();

    drawCounts(
        m_sources->chart(), m_numbers.sources, tr("Runs by source"),
        [](const QString &source) {
            JournalRun run;
            run.source = source;
            return runSourceText(run);
        },
        colors.running);
    drawCounts(
        m_clients->chart(), m_numbers.clients, tr("MCP runs by client"),
        [](const QString &client) { return client.isEmpty() ? tr("(not named)") : client; }, colors.stopped);

    if (!m_numbers.error.isEmpty()) {
        m_summary->setText(tr("The journal cannot be read: %1").arg(m_numbers.error));
    } else if (m_journalPath.isEmpty()) {
        m_summary->setText(tr("The journal is off (LLM_SANDBOX_JOURNAL=off): no runs are recorded."));
    } else {
        m_summary->setText(tr("%n run(s), %1 succeeded", nullptr, total)
                               .arg(total == 0
                                        ? QStringLiteral("—")
                                        : locale.toString(100.0 * succeeded / total, 'f', 0) + QLatin1Char('%')));
    }
}

} // namespace sandbox::gui
