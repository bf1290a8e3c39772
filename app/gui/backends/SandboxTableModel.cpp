#include "gui/backends/SandboxTableModel.h"

#include "gui/RunText.h"
#include "lang/LanguageRegistry.h"

#include <QLocale>
#include <algorithm>

namespace sandbox::gui {

const JournalRun *SandboxTableModel::runIn(const QString &id) const
{
    const auto found = m_runs.constFind(id);
    return found == m_runs.cend() ? nullptr : &*found;
}

void SandboxTableModel::setSandboxes(const QList<SandboxEntry> &sandboxes, const QHash<QString, JournalRun> &runs)
{
    m_runs = runs;
    // Rows that went first (back to front), then the values of those that stayed, then the new ones.
    for (int row = int(m_sandboxes.size()) - 1; row >= 0; --row) {
        const QString &id = m_sandboxes.at(row).container.id;
        const bool stays = std::any_of(sandboxes.cbegin(), sandboxes.cend(),
                                       [&](const SandboxEntry &entry) { return entry.container.id == id; });
        if (!stays) {
            beginRemoveRows({}, row, row);
            m_sandboxes.removeAt(row);
            endRemoveRows();
        }
    }
    for (const SandboxEntry &entry : sandboxes) {
        const auto found = std::find_if(m_sandboxes.begin(), m_sandboxes.end(), [&](const SandboxEntry &known) {
            return known.container.id == entry.container.id;
        });
        if (found != m_sandboxes.end()) {
            *found = entry;
            const int row = int(found - m_sandboxes.begin());
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
            continue;
        }
        const int row = int(m_sandboxes.size());
        beginInsertRows({}, row, row);
        m_sandboxes.append(entry);
        endInsertRows();
    }
}

int SandboxTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sandboxes.size());
}

int SandboxTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SandboxTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_sandboxes.size()) {
        return {};
    }
    const SandboxEntry &sandbox = m_sandboxes.at(index.row());
    if (role == Qt::UserRole) {
        return sandbox.container.id;
    }
    if (role == OwnerPidRole) {
        return sandbox.ownerPid;
    }
    const JournalRun *run = runIn(sandbox.container.id);
    if (role == RunIdRole) {
        return run ? run->id : QString();
    }
    if (role == Qt::ToolTipRole) {
        switch (Column(index.column())) {
        case ContainerColumn:
            return QString(sandbox.container.id + u'\n' + sandbox.container.image);
        case StateColumn:
            if (run) {
                return tr("Run %1 (%2), started %3. Double-click or Show Run to open it.")
                    .arg(run->id, runSourceText(*run),
                         QLocale().toString(run->startedAt.toLocalTime(), QLocale::ShortFormat));
            }
            return sandbox.session.isEmpty()
                       ? tr("Started and waiting in the pool: the next run of its language takes it at once.")
                       : tr("Kept for its session between the session's runs.");
        case OwnerColumn:
            return sandbox.owner;
        case CpuColumn:
        case MemoryColumn:
        case ProcessesColumn:
            return sandbox.stats ? QVariant() : QVariant(sandbox.stats.error().message);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= CpuColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    const QString none = QStringLiteral("–");
    switch (Column(index.column())) {
    case ContainerColumn:
        // Docker's and Podman's ids as `docker ps` shortens them; pod names whole.
        return sandbox.container.id.size() == 64 ? sandbox.container.id.left(12) : sandbox.container.id;
    case StateColumn:
        if (run) {
            return tr("Running a run · %1").arg(runSourceText(*run));
        }
        return sandbox.session.isEmpty() ? tr("Warm, idle") : tr("Session, idle");
    case LanguageColumn: {
        const auto language = LanguageRegistry::instance().find(sandbox.language);
        return language ? language->displayName : sandbox.container.image;
    }
    case OwnerColumn:
        if (sandbox.ownerPid < 0) {
            return sandbox.owner;
        }
        if (sandbox.orphaned) {
            return tr("pid %1 (ended)").arg(sandbox.ownerPid);
        }
        return sandbox.ownerName.isEmpty() ? tr("pid %1").arg(sandbox.ownerPid)
                                           : tr("%1 (pid %2)").arg(sandbox.ownerName).arg(sandbox.ownerPid);
    case SessionColumn:
        return sandbox.session.isEmpty() ? none : sandbox.session;
    case CpuColumn:
        return sandbox.stats ? QStringLiteral("%1%").arg(sandbox.stats->cpuCores * 100, 0, 'f', 1) : none;
    case MemoryColumn:
        if (!sandbox.stats) {
            return none;
        }
        return sandbox.stats->memoryLimitBytes > 0 ? tr("%1 / %2").arg(dataSizeText(sandbox.stats->memoryBytes),
                                                                       dataSizeText(sandbox.stats->memoryLimitBytes))
                                                   : dataSizeText(sandbox.stats->memoryBytes);
    case ProcessesColumn:
        return sandbox.stats && sandbox.stats->pids >= 0 ? QString::number(sandbox.stats->pids) : none;
    case AgeColumn: {
        if (!sandbox.container.created.isValid()) {
            return none;
        }
        const qint64 seconds = std::max<qint64>(sandbox.container.created.secsTo(QDateTime::currentDateTimeUtc()), 0);
        return seconds < 120    ? tr("%1 s").arg(seconds)
               : seconds < 7200 ? tr("%1 min").arg(seconds / 60)
                                : tr("%1 h").arg(seconds / 3600);
    }
    case ColumnCount:
        break;
    }
    return {};
}

QVariant SandboxTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (Column(section)) {
    case ContainerColumn:
        return tr("Container");
    case StateColumn:
        return tr("State");
    case LanguageColumn:
        return tr("Language");
    case OwnerColumn:
        return tr("Owner");
    case SessionColumn:
        return tr("Session");
    case CpuColumn:
        return tr("CPU");
    case MemoryColumn:
        return tr("Memory / limit");
    case ProcessesColumn:
        return tr("Processes");
    case AgeColumn:
        return tr("Age");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace sandbox::gui
