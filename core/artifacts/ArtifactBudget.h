#pragma once

#include "artifacts/Artifact.h"

#include <QString>

namespace sandbox {

/// How many artifacts a run may return and how large they may be (from SandboxSettings).
struct ArtifactLimits
{
    int maxCount = 0;
    qint64 maxBytes = 0;      ///< per artifact
    qint64 maxTotalBytes = 0; ///< all of a run's artifacts together; 0: no limit
};

/// Keeps one run's artifacts within the limits. The runner already drops files over the
/// count and the per-file size; the total of a run is enforced here, in arrival order.
class ArtifactBudget final
{
public:
    explicit ArtifactBudget(ArtifactLimits limits) : m_limits(limits) {}

    /// True when `artifact` fits; false when it would take the run over its total (it is
    /// then counted as dropped and must not be returned).
    bool admit(const Artifact &artifact);
    /// Artifacts refused by admit().
    int dropped() const { return m_dropped; }

    /// One line for the result saying that `dropped` artifacts are missing and why (the limits).
    QString droppedNote(int dropped) const;

private:
    ArtifactLimits m_limits;
    qint64 m_admittedBytes = 0;
    int m_dropped = 0;
};

} // namespace sandbox
