#include "gui/statistics/StatisticsPage.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/widgets/ThemedIcon.h"
#include "journal/JournalReader.h"

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
#include <QLineSeries>
#include <QLocale>
#include <QSignalBlocker>
#include <QStackedBarSeries>
#include <QThread>
#include <QTimer>
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

/// How many of the newest runs the resource chart offers.
constexpr int kRecentRuns = 50;

/// Everything the charts show, read on the journal feed's thread with its reader and statistics of their own; the
/// samples are those of run `run`, or of the newest run when it is empty.
StatisticsPage::Numbers readOnce(const JournalReader &reader, const QString &path, const QDateTime &from,
                                 const QDateTime &to, const QString &run)
{
    const JournalStatistics statistics(path);
    StatisticsPage::Numbers numbers;
    auto days = statistics.outcomesPerDay(from, to);
    auto durations = statistics.durationsByLanguage(from, to);
    auto sources = statistics.runsBySource(from, to);
    auto clients = statistics.runsByClient(from, to);
    auto recent = reader.list(RunFilter{}, 0, kRecentRuns);
    numbers.sampledRun = run.isEmpty() && recent && !recent->isEmpty() ? recent->first().id : run;
    auto samples = numbers.sampledRun.isEmpty() ? Result<QList<JournalSample>>(QList<JournalSample>())
                                                : reader.samples(numbers.sampledRun);
    for (const Error *error : {days ? nullptr : &days.error(), durations ? nullptr : &durations.error(),
                               sources ? nullptr : &sources.error(), clients ? nullptr : &clients.error(),
                               recent ? nullptr : &recent.error(), samples ? nullptr : &samples.error()}) {
        if (error && numbers.error.isEmpty()) {
            numbers.error = error->message;
        }
    }
    numbers.days = days ? *days : QList<DailyOutcomes>();
    numbers.durations = durations ? *durations : QList<DurationSummary>();
    numbers.sources = sources ? *sources : QList<RunCount>();
    numbers.clients = clients ? *clients : QList<RunCount>();
    numbers.recentRuns = recent ? *recent : QList<JournalRun>();
    numbers.samples = samples ? *samples : QList<JournalSample>();
    return numbers;
}

/// readOnce(), tried again a few times when the journal could not be read (another connection was opening it).
StatisticsPage::Numbers read(const JournalReader &reader, const QString &path, const QDateTime &from,
                             const QDateTime &to, const QString &run)
{
    StatisticsPage::Numbers numbers = readOnce(reader, path, from, to, run);
    for (int attempt = 0; attempt < 3 && !numbers.error.isEmpty(); ++attempt) {
        QThread::msleep(200);
        numbers = readOnce(reader, path, from, to, run);
    }
    return numbers;
}

} // namespace

StatisticsPage::StatisticsPage(JournalFeed &feed, QWidget *parent) : Page(parent), m_journalPath(feed.databasePath())
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
    m_resources = chartView(QStringLiteral("resourcesChart"));
    m_run = new QComboBox;
    m_run->setObjectName(QStringLiteral("statisticsRun"));
    m_run->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_run->setToolTip(tr("The run whose container's CPU and memory the chart below shows"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_period);
    bar->addWidget(m_summary, 1);
    auto *grid = new QGridLayout;
    grid->addWidget(m_outcomes, 0, 0);
    grid->addWidget(m_durations, 0, 1);
    grid->addWidget(m_sources, 1, 0);
    grid->addWidget(m_clients, 1, 1);
    auto *runBar = new QHBoxLayout;
    auto *runLabel = new QLabel(tr("Resource use of &run:"));
    runLabel->setBuddy(m_run);
    runBar->addWidget(runLabel);
    runBar->addWidget(m_run);
    runBar->addStretch(1);
    grid->addLayout(runBar, 2, 0, 1, 2);
    grid->addWidget(m_resources, 3, 0, 1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(grid, 1);
    connect(m_run, &QComboBox::activated, this, [this](int index) { selectRun(m_run->itemData(index).toString()); });

    connect(m_period, &QComboBox::currentIndexChanged, this, &StatisticsPage::reload);
    // Read again a moment after the journal changed, while the page is on show; otherwise when it is shown next.
    m_refresh = std::make_unique<JournalRefresh<Numbers>>(
        this, feed, std::chrono::milliseconds(1000),
        [this] {
            const QDateTime to = QDateTime::currentDateTime().addSecs(1);
            const QDateTime from = QDateTime(to.date().addDays(1 - m_period->currentData().toInt()), QTime(0, 0));
            return [path = m_journalPath, from, to, run = m_selectedRun](const JournalReader &reader) {
                return read(reader, path, from, to, run);
            };
        },
        [this](Numbers numbers) {
            m_numbers = std::move(numbers);
            draw();
            if (!m_numbers.error.isEmpty()) {
                // Another connection may have been opening the journal: read again in a moment.
                QTimer::singleShot(std::chrono::seconds(2), this, &StatisticsPage::reload);
            }
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
    return themedIcon(QStringLiteral(":/icons/page-statistics.svg"), palette());
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

QChart *StatisticsPage::resourcesChart() const
{
    return m_resources->chart();
}

void StatisticsPage::selectRun(const QString &id)
{
    m_selectedRun = id;
    reload();
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
    for (QChartView *view : {m_outcomes, m_durations, m_sources, m_clients, m_resources}) {
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
    // A label for every day fits a week; a month gets one on the first and every fifth day (not the 30th, beside the
    // next first), a quarter on Mondays. The others are blank (distinct, as categories must be).
    const qsizetype count = m_numbers.days.size();
    for (const DailyOutcomes &day : m_numbers.days) {
        const bool labelled =
            count <= 10 || (count <= 31 ? day.day.day() == 1 || (day.day.day() % 5 == 0 && day.day.day() < 30)
                                        : day.day.dayOfWeek() == Qt::Monday);
        days << (labelled ? locale.toString(day.day, QStringLiteral("d MMM")) : QString(days.size() + 1, u' '));
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
    dayAxis->setGridLineVisible(false);
    dayAxis->setLabelsAngle(count > 10 ? -90 : 0);
    // Upright in a narrow category: not cut to "…" (the blank neighbours leave the room).
    dayAxis->setTruncateLabels(false);
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
    durations->setTitle(tr("Duration per language (ms), warm runs and cold starts"));
    auto *boxes = new QBoxPlotSeries;
    boxes->setName(tr("Duration"));
    boxes->setBrush(colors.running.lighter(140));
    boxes->setPen(QPen(colors.running, 1.5));
    qint64 longest = 0;
    QStringList languages;
    for (const DurationSummary &summary : m_numbers.durations) {
        const QString name = summary.coldStart
                                 ? tr("%1, cold start (%2)").arg(languageText(summary.language)).arg(summary.count)
                                 : tr("%1 (%2)").arg(languageText(summary.language)).arg(summary.count);
        auto *box = new QBoxSet(double(summary.minimum), double(summary.lowerQuartile), double(summary.median),
                                double(summary.upperQuartile), double(summary.maximum), name);
        if (summary.coldStart) {
            // The runs that waited for a container to start, in the colour of stopped ones.
            box->setBrush(colors.stopped.lighter(140));
            box->setPen(QPen(colors.stopped, 1.5));
        }
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
        [](const QString &source) { return runSourceText(runSourceFromString(source)); }, colors.running);
    drawCounts(
        m_clients->chart(), m_numbers.clients, tr("MCP runs by client"),
        [](const QString &client) { return client.isEmpty() ? tr("(not named)") : client; }, colors.stopped);

    drawResources(colors);

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

void StatisticsPage::drawResources(const StateColors &colors)
{
    // The run chooser: the newest runs, the shown one selected.
    const QSignalBlocker blocker(m_run);
    m_run->clear();
    const QLocale locale;
    for (const JournalRun &run : m_numbers.recentRuns) {
        m_run->addItem(tr("%1 · %2 · %3 · %4")
                           .arg(locale.toString(run.startedAt.toLocalTime(), QLocale::ShortFormat),
                                languageText(run.language), runSourceText(run), runOutcomeText(run)),
                       run.id);
    }
    m_run->setCurrentIndex(m_run->findData(m_numbers.sampledRun));

    // CPU in cores (left axis) and memory in MiB (right axis) over the seconds since the run started.
    QChart *chart = m_resources->chart();
    clear(chart);
    const QList<JournalSample> &samples = m_numbers.samples;
    chart->setTitle(samples.isEmpty() ? tr("Resource use: no samples (the engine's first one comes a second or two "
                                           "into a run: shorter runs have none)")
                                      : tr("Resource use of the container while the run ran"));
    auto *cpu = new QLineSeries;
    cpu->setName(tr("CPU (cores)"));
    cpu->setPen(QPen(colors.running, 2));
    auto *memory = new QLineSeries;
    memory->setName(tr("Memory (MiB)"));
    memory->setPen(QPen(colors.stopped, 2));
    double busiest = 1;
    double largest = 1;
    double last = 1;
    for (const JournalSample &sample : samples) {
        const double seconds = double(sample.atMs) / 1000;
        const double mebibytes = double(sample.memoryBytes) / (1024 * 1024);
        cpu->append(seconds, sample.cpuCores);
        memory->append(seconds, mebibytes);
        busiest = std::max(busiest, sample.cpuCores);
        largest = std::max(largest, mebibytes);
        last = std::max(last, seconds);
    }
    chart->addSeries(cpu);
    chart->addSeries(memory);
    auto *time = new QValueAxis;
    time->setTitleText(tr("Seconds since the run started"));
    time->setRange(0, last);
    time->applyNiceNumbers();
    chart->addAxis(time, Qt::AlignBottom);
    auto *cores = new QValueAxis;
    cores->setTitleText(tr("Cores"));
    cores->setRange(0, busiest * 1.1);
    cores->applyNiceNumbers();
    chart->addAxis(cores, Qt::AlignLeft);
    auto *mib = new QValueAxis;
    mib->setTitleText(tr("MiB"));
    mib->setRange(0, largest * 1.1);
    mib->applyNiceNumbers();
    mib->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(mib, Qt::AlignRight);
    cpu->attachAxis(time);
    cpu->attachAxis(cores);
    memory->attachAxis(time);
    memory->attachAxis(mib);
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignRight);
}

} // namespace sandbox::gui
