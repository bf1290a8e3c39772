#pragma once

#include "images/ImageInventory.h"

#include <QAbstractTableModel>
#include <QHash>

namespace sandbox::gui {

/// The run image of each language on one engine: present or not, its version (label), size and age; on the Kubernetes
/// panel also when this window pushed it to the registry.
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
        RegistryColumn,
        ImageColumn,
        ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setImages(const QList<LanguageImage> &images);
    const QList<LanguageImage> &images() const { return m_images; }
    /// The entry of `language`, or null.
    const LanguageImage *find(const QString &language) const;
    /// Notes that `language`'s image was pushed as `reference` (REGISTRY/llm-sandbox/NAME:TAG) at `when`; the
    /// Registry column shows it until the image's reference changes. Only what this window pushed is known: asking
    /// the registry would need its login for every look.
    void setPushed(const QString &language, const QString &reference, const QDateTime &when);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "812 MB", as `images list` counts (decimal megabytes).
    static QString sizeText(qint64 bytes);
    /// "5 min", "3 h", "12 days".
    static QString ageText(const QDateTime &created);

private:
    struct Push
    {
        QString reference;
        QDateTime when;
    };
    /// The push of `image`'s current reference, or null.
    const Push *pushOf(const LanguageImage &image) const;

    QList<LanguageImage> m_images;
    QHash<QString, Push> m_pushes; ///< by language
};

} // namespace sandbox::gui
