#include "LoadReport.h"

#include <algorithm>
#include <cstdio>

namespace sandbox::mcpload {

void printLatency(const QByteArray &label, const PhaseResult &phase)
{
    std::printf("  %-22s p50 %8.1f ms   p99 %8.1f ms   %7.2f calls/s   (%d calls in %.1f s)\n", label.constData(),
                phase.p50(), phase.p99(), phase.callsPerSecond(), int(phase.latenciesMs.size()), phase.seconds);
}

void printRatios(const PhaseResult &load, const PhaseResult &alone)
{
    std::printf("  as ratios to one alone: p50 %.2f x   p99 %.2f x   throughput %.2f x\n",
                ratio(load.p50(), alone.p50()), ratio(load.p99(), alone.p99()),
                ratio(load.callsPerSecond(), alone.callsPerSecond()));
}

int printAnswers(const QList<const PhaseResult *> &phases)
{
    Tally tally;
    QStringList problems;
    bool timedOut = false;
    for (const PhaseResult *phase : phases) {
        tally.add(phase->tally);
        problems += phase->problems;
        timedOut = timedOut || phase->timedOut;
    }
    std::printf("  answers checked:       %d, %d lost, %d failed, %d with another output%s\n", tally.total(),
                tally.lost, tally.failed, tally.wrongOutput, timedOut ? " (a phase TIMED OUT)" : "");
    for (const QString &problem : problems.mid(0, kProblemsShown)) {
        std::printf("    %s\n", qPrintable(problem));
    }
    return tally.bad();
}

int printJournal(const QByteArray &label, const JournalCheck &check)
{
    if (!check.error.isEmpty()) {
        std::printf("  %-22s could NOT be read: %s\n", label.constData(), qPrintable(check.error));
        return 1;
    }
    std::printf("  %-22s %d of %d answered runs recorded once (%d missing, %d duplicated); "
                "%d finished runs, %d not finished\n",
                label.constData(), check.recorded, check.expected, check.missing, check.duplicated, check.finished,
                check.notFinished);
    return check.ok() ? 0 : 1;
}

void printEngineSide(const QByteArray &label, const PhaseResult &phase, const JournalCheck &check)
{
    std::vector<double> all;
    std::vector<double> warm;
    std::vector<double> cold;
    for (const QByteArray &output : phase.okOutputs) {
        if (const auto run = check.runs.constFind(output); run != check.runs.cend()) {
            all.push_back(double(run->durationMs));
            (run->coldStart ? cold : warm).push_back(double(run->durationMs));
        }
    }
    for (std::vector<double> *durations : {&all, &warm, &cold}) {
        std::sort(durations->begin(), durations->end());
    }
    std::printf("  %-22s p50 %8.1f ms   p99 %8.1f ms   in the engine (the journal's durations)\n", label.constData(),
                percentile(all, 50), percentile(all, 99));
    std::printf("    %d on a warm container: p50 %.1f ms, p99 %.1f ms; %d started one: p50 %.1f ms, p99 %.1f ms\n",
                int(warm.size()), percentile(warm, 50), percentile(warm, 99), int(cold.size()), percentile(cold, 50),
                percentile(cold, 99));
}

void printServerPeaks(const QByteArray &label, const ProcessSample &peak, const PhaseResult &phase)
{
    std::printf("  server peak, %-11s RSS %7.1f MiB (VmHWM; sampled %.1f MiB), %4d open fds, %3d threads; "
                "CPU %.1f s = %.1f ms a call\n",
                label.constData(), mib(peak.hwmKb), mib(peak.rssKb), peak.fds, peak.threads, double(peak.cpuMs) / 1e3,
                ratio(double(peak.cpuMs), double(phase.latenciesMs.size())));
}

void printSoakRatio(const char *what, double first, double last)
{
    std::printf("  %-16s %10.1f -> %10.1f   = %.2f x\n", what, first, last, ratio(last, first));
}

} // namespace sandbox::mcpload
