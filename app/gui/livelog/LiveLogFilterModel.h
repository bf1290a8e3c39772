#pragma once

#include <QSortFilterProxyModel>

namespace sandbox::gui {

/// The live log narrowed to a source (gui, cli, mcp, ...) and to runs whose summary contains a text.
class LiveLogFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit LiveLogFilterModel(QObject *parent = nullptr);

    void setText(const QString &text);
    /// Empty: every source.
    void setSource(const QString &source);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;
    QString m_source;
};

} // namespace sandbox::gui
