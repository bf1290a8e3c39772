#pragma once

#include "network/NetworkAllowList.h"

#include <QAbstractListModel>
#include <QStringList>

namespace sandbox::gui {

/// The hosts on Settings → Network's "These hosts" list, one entry a row as NetworkHost::text() writes it
/// ("api.example.org", "*.example.org:8443"), edited in place. Every entry is a host NetworkHost::parse reads, named
/// once: an edit or addition that is not is refused, and refused() says why in one sentence.
class NetworkHostModel final : public QAbstractListModel
{
    Q_OBJECT

public:
    using QAbstractListModel::QAbstractListModel;

    /// One row per host of `allowed`, one per port when a host has ports other than 80 and 443 alone.
    void setAllowList(const NetworkAllowList &allowed);
    /// The entries as one list (empty: nothing).
    NetworkAllowList allowList() const;
    const QStringList &entries() const { return m_entries; }
    /// Adds `text` last; false, with refused() emitted, when it names no host or one already listed.
    bool addEntry(const QString &text);
    void removeEntry(int row);

    /// `text` as the list keeps it (trimmed, lower case, the default ports unsaid), or why it names no host.
    static Result<QString> entryOf(const QString &text);
    /// Why `text` cannot be an entry (but the one at `row`), in one sentence of the user's language; empty when it can.
    QString problem(const QString &text, int row = -1) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

signals:
    /// An entry was refused: why, in one sentence.
    void refused(const QString &why);

private:
    QStringList m_entries;
};

} // namespace sandbox::gui
