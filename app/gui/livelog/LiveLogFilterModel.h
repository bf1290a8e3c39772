#pragma once

#include "journal/JournalRun.h"

#include <QSortFilterProxyModel>
#include <optional>

namespace sandbox::gui {

/// The live log narrowed to a source and to runs whose summary contains a text.
class LiveLogFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit LiveLogFilterModel(QObject *parent = nullptr);

    void setText(const QString &text);
    /// None: every source.
    /// Only runs from one of `sources` (none: all).
    void setSources(const QList<RunSource> &sources);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;
    QList<RunSource> m_sources;
};

} // namespace sandbox::gui
