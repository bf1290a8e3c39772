#pragma once

#include "images/ImageInventory.h"

#include <QAbstractTableModel>

namespace sandbox::gui {

/// The run image of each language on one engine: present or not, its version (label), size and age.
class ImageTableModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        LanguageColumn,
        StatusColumn,
        VersionColumn,
        SizeColumn,
        AgeColumn,
        ImageColumn,
        ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setImages(const QList<LanguageImage> &images);
    const QList<LanguageImage> &images() const { return m_images; }
    /// The entry of `language`, or null.
    const LanguageImage *find(const QString &language) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "812 MB", as `images list` counts (decimal megabytes).
    static QString sizeText(qint64 bytes);
    /// "5 min", "3 h", "12 days".
    static QString ageText(const QDateTime &created);

private:
    QList<LanguageImage> m_images;
};

} // namespace sandbox::gui
