#include "artifacts/ArtifactBudget.h"

#include <QLocale>

namespace sandbox {

namespace {

QString bytes(qint64 count)
{
    return QLocale::c().formattedDataSize(count, 0, QLocale::DataSizeIecFormat);
}

} // namespace

bool ArtifactBudget::admit(const Artifact &artifact)
{
    if (m_limits.maxTotalBytes > 0 && m_admittedBytes + artifact.size() > m_limits.maxTotalBytes) {
        ++m_dropped;
        return false;
    }
    m_admittedBytes += artifact.size();
    return true;
}

QString ArtifactBudget::droppedNote(int dropped) const
{
    QString limits = QStringLiteral("%1 files, %2 per file").arg(m_limits.maxCount).arg(bytes(m_limits.maxBytes));
    if (m_limits.maxTotalBytes > 0) {
        limits += QStringLiteral(", %1 per run").arg(bytes(m_limits.maxTotalBytes));
    }
    return QStringLiteral("llm-sandbox: %1 output file(s) not returned: over the artifact limits (%2)\n")
        .arg(dropped)
        .arg(limits);
}

} // namespace sandbox
