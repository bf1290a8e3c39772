#include "gui/statistics/StatisticsPage.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/widgets/ThemedIcon.h"
#include "journal/JournalReader.h"

#include <QBarCategoryAxis>
#include <QBarLegendMarker>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QCursor>
#include <QEvent>
#include <QGraphicsLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QSignalBlocker>
#include <QStackedBarSeries>
#include <QStackedWidget>
#include <QStyle>
#include <QThread>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>

namespace sandbox::gui {

/// The colours of what is not a run's outcome (sources, clients, warm and cold runs, CPU and memory): none of the
/// outcome colours, so that a colour on this page means one thing.
struct SeriesColors
{
    QColor runs;   ///< counts of runs, warm runs
    QColor cold;   ///< cold starts
    QColor cpu;    ///< CPU use
    QColor memory; ///< memory use

    static SeriesColors of(const QPalette &palette)
    {
        if (StateColors::isDark(palette)) {
            return {QColor(0x4d, 0xb6, 0xac), QColor(0xbc, 0xaa, 0xa4), QColor(0x9f, 0xa8, 0xda),
                    QColor(0xd4, 0xc1, 0x5a)};
        }
        return {QColor(0x00, 0x89, 0x7b), QColor(0x8d, 0x6e, 0x63), QColor(0x3f, 0x51, 0xb5), QColor(0x9e, 0x8a, 0x10)};
    }
};

namespace {

const SettingsKey<int> kPeriodDays{"periodDays", 30};

QChartView *chartView(const QString &objectName)
{
    auto *view = new QChartView(new QChart);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    // Three rows of charts, the run picker and the period bar fit a 1024 x 768 window.
    view->setMinimumSize(320, 190);
    view->chart()->legend()->setAlignment(Qt::AlignBottom);
    // Little room around the plot (Qt's default is some 20 px on every side of each chart): with a desktop's 11 pt
    // font in a 1024 x 768 window, the labels need it, a source's or a client's name on every bar.
    view->chart()->setMargins(QMargins(4, 2, 4, 2));
    view->chart()->layout()->setContentsMargins(0, 0, 0, 0);
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

/// Shows `text` as the tooltip of `view` while the pointer is over a part of its chart (`hovered`).
void showTip(QChartView *view, bool hovered, const QString &text)
{
    if (hovered) {
        QToolTip::showText(QCursor::pos(), text, view);
    } else {
        QToolTip::hideText();
    }
}

/// An axis from 0 to at least `most` with about five ticks at whole numbers only, 1, 2 or 5 times a power of ten
/// apart (counts, MiB): no label shows twice.
QValueAxis *wholeNumberAxis(double most)
{
    auto *axis = new QValueAxis;
    const int rough = std::max(1, (int(std::ceil(most)) + 4) / 5);
    int step = 1;
    for (int magnitude = 1; step < rough; magnitude *= 10) {
        for (const int factor : {1, 2, 5}) {
            step = factor * magnitude;
            if (step >= rough) {
                break;
            }
        }
    }
    axis->setRange(0, std::max(1, (int(std::ceil(most)) + step - 1) / step * step));
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setLabelFormat(QStringLiteral("%d"));
    return axis;
}

/// An axis of milliseconds from 0 to at least `longest` with at most four ticks, 1, 2 or 5 times a power of ten apart,
/// each written with its unit ("500 ms", "50 s"): six digits of milliseconds left no room for the plot beside them.
QValueAxis *durationAxis(qint64 longest)
{
    qint64 step = 1;
    for (qint64 magnitude = 1; step * 3 < longest; magnitude *= 10) {
        for (const qint64 factor : {1, 2, 5}) {
            step = factor * magnitude;
            if (step * 3 >= longest) {
                break;
            }
        }
    }
    auto *axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const qint64 top = (longest + step - 1) / step * step;
    axis->setRange(0, double(top));
    for (qint64 at = 0; at <= top; at += step) {
        // Whole seconds from a step of a second on; milliseconds below.
        axis->append(step >= 1000 ? QCoreApplication::translate("RunText", "%1 s").arg(at / 1000)
                                  : QCoreApplication::translate("RunText", "%1 ms").arg(at),
                     double(at));
    }
    return axis;
}

/// A horizontal bar per count, most at the top, its number in a tooltip.
void drawCounts(QChartView *view, const QList<RunCount> &counts, const QString &title,
                const std::function<QString(const RunCount &)> &label, const QColor &color, const QColor &labelColor)
{
    QChart *chart = view->chart();
    clear(chart);
    chart->setTitle(title);
    auto *set = new QBarSet(title);
    set->setColor(color);
    set->setBorderColor(Qt::transparent);
    QStringList categories;
    int most = 0;
    for (auto it = counts.rbegin(); it != counts.rend(); ++it) {
        categories << label(*it);
        *set << it->count;
        most = std::max(most, it->count);
    }
    auto *series = new QHorizontalBarSeries;
    series->append(set);
    chart->addSeries(series);
    auto *names = new QBarCategoryAxis;
    names->append(categories);
    names->setTruncateLabels(false);
    chart->addAxis(names, Qt::AlignLeft);
    series->attachAxis(names);
    // Each bar's number at its end, not an axis of counts below: the room goes to the names (six clients need six
    // lines' height), and the numbers read without following a grid line.
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    set->setLabelColor(labelColor);
    QValueAxis *values = wholeNumberAxis(most * 1.15); // room for the longest bar's number
    values->setLabelsVisible(false);
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
    chart->legend()->hide();
    QObject::connect(
        series, &QHorizontalBarSeries::hovered, view, [view, categories](bool on, int index, QBarSet *bar) {
            showTip(view, on,
                    StatisticsPage::tr("%1: %n run(s)", nullptr, int(bar->at(index))).arg(categories.value(index)));
        });
}

/// How many hosts the hosts chart shows: those most runs reached.
constexpr int kTopHosts = 10;

/// How many runs the resource chart offers: the newest that have samples, however many runs came after them.
constexpr int kSampledRuns = 50;

/// Everything the charts show, read on the journal feed's thread with its reader and statistics of their own; the
/// samples are those of run `run`, or of the newest run that has some (or is running) when it is empty.
StatisticsPage::Numbers readOnce(const JournalReader &reader, const QString &path, const QDateTime &from,
                                 const QDateTime &to, const QString &run)
{
    const JournalStatistics statistics(path);
    StatisticsPage::Numbers numbers;
    auto days = statistics.outcomesPerDay(from, to);
    auto durations = statistics.durationsByLanguage(from, to);
    auto sources = statistics.runsBySource(from, to);
    auto clients = statistics.runsByClient(from, to);
    auto hosts = statistics.runsByHost(from, to, kTopHosts);
    // Only the runs that have something to show: most runs end before their first sample.
    auto recent = reader.list(RunFilter{.sampled = true}, 0, kSampledRuns);
    if (recent) {
        numbers.recentRuns = *recent;
    }
    numbers.sampledRun = run.isEmpty() && !numbers.recentRuns.isEmpty() ? numbers.recentRuns.first().id : run;
    auto samples = numbers.sampledRun.isEmpty() ? Result<QList<JournalSample>>(QList<JournalSample>())
                                                : reader.samples(numbers.sampledRun);
    for (const Error *error :
         {days ? nullptr : &days.error(), durations ? nullptr : &durations.error(),
          sources ? nullptr : &sources.error(), clients ? nullptr : &clients.error(), hosts ? nullptr : &hosts.error(),
          recent ? nullptr : &recent.error(), samples ? nullptr : &samples.error()}) {
        if (error && numbers.error.isEmpty()) {
            numbers.error = error->message;
        }
    }
    numbers.days = days ? *days : QList<DailyOutcomes>();
    numbers.durations = durations ? *durations : QList<DurationSummary>();
    numbers.sources = sources ? *sources : QList<RunCount>();
    numbers.clients = clients ? *clients : QList<RunCount>();
    numbers.hosts = hosts ? *hosts : QList<RunCount>();
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
    m_hosts = chartView(QStringLiteral("hostsChart"));
    m_hosts->setVisible(false);
    m_resources = chartView(QStringLiteral("resourcesChart"));
    m_run = new QComboBox;
    m_run->setObjectName(QStringLiteral("statisticsRun"));
    m_run->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_run->setToolTip(tr("The run whose container's CPU and memory the chart below shows"));
    m_resources->setToolTip(tr("The engine samples a run's container every second or two while it runs: only runs "
                               "that lasted longer than that have samples, and only they are offered here."));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_period);
    bar->addWidget(m_summary, 1);
    auto *grid = new QGridLayout;
    grid->addWidget(m_outcomes, 0, 0);
    grid->addWidget(m_durations, 0, 1, 1, 2);
    grid->addWidget(m_sources, 1, 0);
    grid->addWidget(m_clients, 1, 1);
    grid->addWidget(m_hosts, 1, 2); // beside them when runs had network
    auto *runBar = new QHBoxLayout;
    auto *runLabel = new QLabel(tr("Resource use of &run:"));
    runLabel->setBuddy(m_run);
    runBar->addWidget(runLabel);
    runBar->addWidget(m_run);
    runBar->addStretch(1);
    grid->addLayout(runBar, 2, 0, 1, 3);
    grid->addWidget(m_resources, 3, 0, 1, 3);
    auto *charts = new QWidget;
    charts->setLayout(grid);
    grid->setContentsMargins(0, 0, 0, 0);
    m_hint = new QLabel;
    m_hint->setObjectName(QStringLiteral("statisticsHint"));
    m_hint->setAlignment(Qt::AlignCenter);
    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    // Blank charts say nothing: until the period has runs, the page says where they come from.
    m_content = new QStackedWidget;
    m_content->addWidget(charts);
    m_content->addWidget(m_hint);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_content, 1);
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

QChart *StatisticsPage::hostsChart() const
{
    return m_hosts->chart();
}

bool StatisticsPage::hostsChartShown() const
{
    return m_hosts->isVisibleTo(this);
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
    for (QChartView *view : {m_outcomes, m_durations, m_sources, m_clients, m_hosts, m_resources}) {
        view->chart()->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        view->chart()->setBackgroundRoundness(0); // square corners, flush with the view: no margin inside it
        view->chart()->setBackgroundBrush(palette().base());
        view->chart()->setTitleBrush(palette().text());
        view->chart()->legend()->setLabelColor(palette().color(QPalette::Text));
        view->setBackgroundBrush(palette().window());
    }
}

void StatisticsPage::draw()
{
    const StateColors colors = StateColors::of(palette());
    const SeriesColors series = SeriesColors::of(palette());
    const QLocale locale;
    int total = 0;
    int succeeded = 0;

    // Runs per day, stacked by outcome, in the outcomes' words and colours of every page.
    QChart *outcomes = m_outcomes->chart();
    clear(outcomes);
    outcomes->setTitle(tr("Runs per day"));
    auto *stacked = new QStackedBarSeries;
    QStringList days;
    QStringList dayNames;
    int busiest = 0;
    // A label for every day fits a week; a month gets one on the first and every fifth day (not the 30th, beside the
    // next first), a quarter on Mondays. The others are blank (distinct, as categories must be).
    const qsizetype count = m_numbers.days.size();
    for (const DailyOutcomes &day : m_numbers.days) {
        const bool labelled =
            count <= 10 || (count <= 31 ? day.day.day() == 1 || (day.day.day() % 5 == 0 && day.day.day() < 30)
                                        : day.day.dayOfWeek() == Qt::Monday);
        dayNames << dayText(day.day);
        days << (labelled ? dayNames.last() : QString(days.size() + 1, u' '));
        busiest = std::max(busiest, day.total());
        total += day.total();
        succeeded += day.counts[int(RunOutcome::Succeeded)];
    }
    for (int outcome = 0; outcome < kRunOutcomeCount; ++outcome) {
        auto *set = new QBarSet(runOutcomeName(RunOutcome(outcome)));
        set->setColor(colors.forOutcome(RunOutcome(outcome)));
        set->setBorderColor(Qt::transparent);
        for (const DailyOutcomes &day : m_numbers.days) {
            *set << day.counts[outcome];
        }
        stacked->append(set);
    }
    outcomes->addSeries(stacked);
    connect(stacked, &QStackedBarSeries::hovered, m_outcomes, [this, dayNames](bool on, int index, QBarSet *set) {
        showTip(m_outcomes, on,
                tr("%1 · %2: %n run(s)", nullptr, int(set->at(index))).arg(dayNames.value(index), set->label()));
    });
    auto *dayAxis = new QBarCategoryAxis;
    dayAxis->append(days);
    dayAxis->setGridLineVisible(false);
    dayAxis->setLabelsAngle(count > 10 ? -90 : 0);
    // Upright in a narrow category: not cut to "…" (the blank neighbours leave the room).
    dayAxis->setTruncateLabels(false);
    outcomes->addAxis(dayAxis, Qt::AlignBottom);
    stacked->attachAxis(dayAxis);
    QValueAxis *runsAxis = wholeNumberAxis(busiest);
    outcomes->addAxis(runsAxis, Qt::AlignLeft);
    stacked->attachAxis(runsAxis);
    outcomes->legend()->setVisible(true);
    outcomes->legend()->setAlignment(Qt::AlignRight);
    // Only the outcomes the period had: seven entries do not fit beside a small chart, and an empty one says nothing.
    for (QLegendMarker *marker : outcomes->legend()->markers(stacked)) {
        if (auto *bar = qobject_cast<QBarLegendMarker *>(marker)) {
            marker->setVisible(bar->barset()->sum() > 0);
        }
    }

    drawDurations(series);

    drawCounts(
        m_sources, m_numbers.sources, tr("Runs by source"),
        [](const RunCount &count) { return runSourceText(runSourceFromString(count.key)); }, series.runs,
        palette().color(QPalette::Text));
    drawCounts(
        m_clients, m_numbers.clients, tr("MCP runs by client (stdio and HTTP)"),
        [](const RunCount &count) {
            // Every bar is an MCP client's: "claude-ai · stdio", "claude-ai · HTTP" (the app's server).
            return QStringLiteral("%1 · %2").arg(count.key.isEmpty() ? tr("(not named)") : count.key,
                                                 runSourceFromString(count.source) == RunSource::Http
                                                     ? QStringLiteral("HTTP")
                                                     : QStringLiteral("stdio"));
        },
        series.runs, palette().color(QPalette::Text));
    drawCounts(
        m_hosts, m_numbers.hosts, tr("Runs by host reached"), [](const RunCount &count) { return count.key; },
        series.runs, palette().color(QPalette::Text));
    m_hosts->setVisible(!m_numbers.hosts.isEmpty());

    drawResources(series);

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
    m_hint->setText(m_journalPath.isEmpty()
                        ? tr("The journal is off, so there is nothing to count. Unset LLM_SANDBOX_JOURNAL to record "
                             "runs.")
                        : tr("No runs in this period yet. Run code in the Console, or connect an assistant: the "
                             "charts fill in as runs start and end."));
    m_content->setCurrentWidget(total == 0 && m_numbers.error.isEmpty() ? static_cast<QWidget *>(m_hint)
                                                                        : m_content->widget(0));
}

void StatisticsPage::drawDurations(const SeriesColors &colors)
{
    // Per language a box of warm runs and one of cold starts side by side (quartiles, median, whiskers at the
    // extremes): one label per language, the legend tells the two apart, the tooltip has the numbers.
    QChart *chart = m_durations->chart();
    clear(chart);
    chart->setTitle(tr("Duration per language"));
    QStringList languages;
    for (const DurationSummary &summary : m_numbers.durations) {
        if (!languages.contains(summary.language)) {
            languages << summary.language;
        }
    }
    const bool anyCold = std::any_of(m_numbers.durations.begin(), m_numbers.durations.end(),
                                     [](const DurationSummary &summary) { return summary.coldStart; });
    qint64 longest = 0;
    for (const bool cold : {false, true}) {
        if (cold && !anyCold) {
            continue;
        }
        auto *boxes = new QBoxPlotSeries;
        boxes->setName(cold ? tr("Cold start") : tr("Warm container"));
        const QColor color = cold ? colors.cold : colors.runs;
        boxes->setBrush(color.lighter(150));
        boxes->setPen(QPen(color, 1.5));
        QList<DurationSummary> shown;
        for (const QString &language : std::as_const(languages)) {
            auto found = std::find_if(m_numbers.durations.begin(), m_numbers.durations.end(),
                                      [&](const DurationSummary &summary) {
                                          return summary.language == language && summary.coldStart == cold;
                                      });
            if (found == m_numbers.durations.end()) {
                // Its place beside the other box stays empty: a set of zeros (a set made with a label alone holds
                // whatever its memory held: a box up to the top was seen), drawn with neither pen nor brush, which
                // are set after append() (append gives the set the series' own).
                auto *none = new QBoxSet(0, 0, 0, 0, 0, shortLanguageText(language));
                boxes->append(none);
                none->setPen(Qt::NoPen);
                none->setBrush(Qt::NoBrush);
                shown.append(DurationSummary{.language = language, .coldStart = cold});
                continue;
            }
            boxes->append(new QBoxSet(double(found->minimum), double(found->lowerQuartile), double(found->median),
                                      double(found->upperQuartile), double(found->maximum),
                                      shortLanguageText(language)));
            shown.append(*found);
            longest = std::max(longest, found->maximum);
        }
        chart->addSeries(boxes);
        connect(boxes, &QBoxPlotSeries::hovered, m_durations, [this, boxes, shown](bool on, QBoxSet *box) {
            const DurationSummary summary = shown.value(boxes->boxSets().indexOf(box));
            if (summary.count == 0) {
                return;
            }
            showTip(m_durations, on,
                    (summary.coldStart
                         ? tr("%1, cold starts (a container was started): %n run(s)", nullptr, summary.count)
                         : tr("%1, warm container: %n run(s)", nullptr, summary.count))
                            .arg(languageText(summary.language)) +
                        QLatin1Char('\n') +
                        tr("median %1, half of them between %2 and %3, all between %4 and %5")
                            .arg(durationText(summary.median), durationText(summary.lowerQuartile),
                                 durationText(summary.upperQuartile), durationText(summary.minimum),
                                 durationText(summary.maximum)));
        });
    }
    auto *languageAxis = new QBarCategoryAxis;
    for (const QString &language : std::as_const(languages)) {
        languageAxis->append(shortLanguageText(language));
    }
    languageAxis->setTruncateLabels(false);
    languageAxis->setLabelsAngle(languages.size() > 4 ? -45 : 0);
    chart->addAxis(languageAxis, Qt::AlignBottom);
    QValueAxis *msAxis = durationAxis(std::max<qint64>(longest, 10));
    chart->addAxis(msAxis, Qt::AlignLeft);
    for (QAbstractSeries *boxes : chart->series()) {
        boxes->attachAxis(languageAxis);
        boxes->attachAxis(msAxis);
    }
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);
}

void StatisticsPage::drawResources(const SeriesColors &colors)
{
    // The run chooser: the newest runs that have samples (or are running), the shown one selected.
    const QSignalBlocker blocker(m_run);
    m_run->clear();
    for (const JournalRun &run : m_numbers.recentRuns) {
        m_run->addItem(
            tr("%1 · %2 · %3 · %4")
                .arg(dateTimeText(run.startedAt), languageText(run.language), runSourceText(run), runStatusText(run)),
            run.id);
    }
    m_run->setCurrentIndex(m_run->findData(m_numbers.sampledRun));
    m_run->setEnabled(m_run->count() > 0);

    // CPU in cores (left axis) and memory in MiB (right axis) over the seconds since the run started.
    QChart *chart = m_resources->chart();
    clear(chart);
    const QList<JournalSample> &samples = m_numbers.samples;
    chart->setTitle(!samples.isEmpty()               ? tr("CPU and memory of the run's container")
                    : m_numbers.sampledRun.isEmpty() ? tr("No run has resource samples yet")
                                                     : tr("This run has no samples (yet)"));
    auto *cpu = new QLineSeries;
    cpu->setName(tr("CPU (cores)"));
    cpu->setPen(QPen(colors.cpu, 2));
    auto *memory = new QLineSeries;
    memory->setName(tr("Memory (MiB)"));
    memory->setPen(QPen(colors.memory, 2));
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
    // Whole MiB at whole steps: a small run's 0.8 MiB does not read "0, 0, 0, 1, 1".
    QValueAxis *mib = wholeNumberAxis(largest * 1.1);
    mib->setTitleText(tr("MiB"));
    mib->setGridLineVisible(false); // the cores' grid is the chart's: a second one would cross it
    chart->addAxis(mib, Qt::AlignRight);
    cpu->attachAxis(time);
    cpu->attachAxis(cores);
    memory->attachAxis(time);
    memory->attachAxis(mib);
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignRight);
}

} // namespace sandbox::gui
