#pragma once

#include "inventory/SandboxInventory.h"

#include <QAbstractTableModel>

namespace sandbox::gui {

/// The sandboxes every llm-sandbox process runs on one engine (what `llm-sandbox ps` lists): container, language,
/// owner process, session, CPU, memory against its limit, processes, age.
class SandboxTableModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        ContainerColumn,
        LanguageColumn,
        OwnerColumn,
        SessionColumn,
        CpuColumn,
        MemoryColumn,
        ProcessesColumn,
        AgeColumn,
        ColumnCount
    };
    /// The container's whole id (Qt::UserRole) and its owner's pid (OwnerPidRole, -1 when unknown).
    static constexpr int OwnerPidRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;

    /// Replaces the rows, keeping those whose container stays (a view keeps its selection).
    void setSandboxes(const QList<SandboxEntry> &sandboxes);
    const QList<SandboxEntry> &sandboxes() const { return m_sandboxes; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<SandboxEntry> m_sandboxes;
};

} // namespace sandbox::gui
