#pragma once

// The load benchmark's report: the lines it prints for a phase, the answers and the journal.

#include "LoadEnvironment.h"
#include "LoadPhase.h"
#include "ProcessSampler.h"

#include <QByteArray>
#include <QList>

namespace sandbox::mcpload {

void printLatency(const QByteArray &label, const PhaseResult &phase);

void printRatios(const PhaseResult &load, const PhaseResult &alone);

/// Prints how the answers went; returns the number of bad ones.
int printAnswers(const QList<const PhaseResult *> &phases);

/// Prints the journal check; returns 1 when it found a problem.
int printJournal(const QByteArray &label, const JournalCheck &check);

/// The journal's view of a phase's runs: their time in the engine, on a warm container and when one was started for
/// them (the pool had none idle) — where a call's latency went.
void printEngineSide(const QByteArray &label, const PhaseResult &phase, const JournalCheck &check);

void printServerPeaks(const QByteArray &label, const ProcessSample &peak, const PhaseResult &phase);

void printSoakRatio(const char *what, double first, double last);

} // namespace sandbox::mcpload
