#pragma once

#include "inventory/SandboxInventory.h"
#include "journal/JournalRun.h"

#include <QAbstractTableModel>
#include <QHash>

namespace sandbox::gui {

/// The sandboxes every llm-sandbox process runs on one engine (what `llm-sandbox ps` lists): container, what it does
/// (running a run, which the journal tells; warm in a pool; a session's), language, owner process by name, session,
/// CPU, memory against its limit, processes, age.
class SandboxTableModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        ContainerColumn,
        StateColumn,
        LanguageColumn,
        OwnerColumn,
        SessionColumn,
        CpuColumn,
        MemoryColumn,
        ProcessesColumn,
        AgeColumn,
        ColumnCount
    };
    /// The container's whole id (Qt::UserRole), its owner's pid (OwnerPidRole, -1 when unknown) and the id of the run
    /// it runs now (RunIdRole, empty when none).
    static constexpr int OwnerPidRole = Qt::UserRole + 1;
    static constexpr int RunIdRole = Qt::UserRole + 2;

    using QAbstractTableModel::QAbstractTableModel;

    /// Replaces the rows, keeping those whose container stays (a view keeps its selection).
    /// `runs`: the runs in progress by the container they execute in (JournalReader::runningByContainer).
    void setSandboxes(const QList<SandboxEntry> &sandboxes, const QHash<QString, JournalRun> &runs = {});
    /// The run container `id` executes now, if the journal knows one.
    const JournalRun *runIn(const QString &id) const;
    const QList<SandboxEntry> &sandboxes() const { return m_sandboxes; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<SandboxEntry> m_sandboxes;
    QHash<QString, JournalRun> m_runs;
};

} // namespace sandbox::gui
