#pragma once

#include "network/NetworkSecret.h"

#include <QAbstractTableModel>
#include <QList>

namespace sandbox::gui {

/// The user's secrets bound to hosts on Settings → Network, one row each as the secrets file keeps them: the name (the
/// variable a run sees a placeholder in), the hosts, the header the value goes into and when the value was stored.
/// Never a value: the model has none.
class NetworkSecretModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Name,
        Hosts,
        Header,
        Stored,
        ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setSecrets(const QList<NetworkSecret> &secrets);
    const QList<NetworkSecret> &secrets() const { return m_secrets; }
    /// The row of the secret named `name`; -1 when there is none.
    int rowOf(const QString &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<NetworkSecret> m_secrets;
};

} // namespace sandbox::gui
