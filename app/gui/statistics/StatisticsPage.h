#pragma once

#include "gui/JournalRefresh.h"
#include "gui/Page.h"
#include "journal/JournalRun.h"
#include "journal/JournalStatistics.h"

#include <memory>

class QChart;
class QChartView;
class QComboBox;
class QLabel;

class QStackedWidget;

namespace sandbox::gui {
struct SeriesColors;
}

namespace sandbox::gui {

/// Charts of the journal's runs (Qt Charts): runs per day by outcome, duration per language (a box plot, warm runs
/// and cold starts apart), runs by source and by MCP client (stdio and HTTP), the hosts runs reached (when some did),
/// over a chosen period, each part's
/// numbers in a tooltip; and the CPU and memory of a chosen run's container over time, as the engine sampled them
/// (live while it runs). A period without runs shows a hint instead of empty charts. The numbers come from
/// JournalStatistics and JournalReader, read off the GUI thread, again when the journal changes; the charts follow
/// the app's palette.
class StatisticsPage final : public Page
{
    Q_OBJECT

public:
    /// What one read of the journal gives the charts.
    struct Numbers
    {
        QList<DailyOutcomes> days;
        QList<DurationSummary> durations;
        QList<RunCount> sources;
        QList<RunCount> clients;
        QList<RunCount> hosts;        ///< the hosts runs asked their egress proxy for, most runs first (top 10)
        QList<JournalRun> recentRuns; ///< newest first: the runs the resource chart can show (they have samples)
        QString sampledRun;           ///< the run `samples` are of
        QList<JournalSample> samples;
        QString error;
    };

    explicit StatisticsPage(JournalFeed &feed, QWidget *parent = nullptr);
    ~StatisticsPage() override;

    QString title() const override;
    QIcon icon() const override;
    void saveState(QSettings &settings) const override;
    void restoreState(const QSettings &settings) override;
    void shown() override;

    /// Reads the journal again (the page also does when it changes while it is shown).
    void reload();
    /// Waits until the current read is done and drawn (tests).
    void waitForLoaded();
    const Numbers &numbers() const { return m_numbers; }
    QChart *outcomesChart() const;
    QChart *durationsChart() const;
    QChart *sourcesChart() const;
    QChart *clientsChart() const;
    /// Runs per host contacted; shown only while the period has runs with network.
    QChart *hostsChart() const;
    bool hostsChartShown() const;
    QChart *resourcesChart() const;
    /// Shows the resource use of run `id` (the newest run when empty).
    void selectRun(const QString &id);

protected:
    void changeEvent(QEvent *event) override;

private:
    void draw();
    void drawDurations(const SeriesColors &colors);
    void drawResources(const SeriesColors &colors);
    void styleCharts();

    const QString m_journalPath;
    QComboBox *m_period = nullptr;
    QLabel *m_summary = nullptr;
    QStackedWidget *m_content = nullptr; ///< the charts, or m_hint while the period has no runs
    QLabel *m_hint = nullptr;
    QChartView *m_outcomes = nullptr;
    QChartView *m_durations = nullptr;
    QChartView *m_sources = nullptr;
    QChartView *m_clients = nullptr;
    QChartView *m_hosts = nullptr;
    QComboBox *m_run = nullptr;
    QChartView *m_resources = nullptr;
    QString m_selectedRun; ///< chosen in m_run; empty: the newest
    Numbers m_numbers;
    std::unique_ptr<JournalRefresh<Numbers>> m_refresh;
};

} // namespace sandbox::gui
