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
    void setSource(std::optional<RunSource> source);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;
    std::optional<RunSource> m_source;
};

} // namespace sandbox::gui
