#include "gui/backends/ImageTableModel.h"

#include "gui/RunText.h"
#include "lang/LanguageRegistry.h"

#include <QLocale>

namespace sandbox::gui {

void ImageTableModel::setImages(const QList<LanguageImage> &images)
{
    if (images.size() == m_images.size()) {
        m_images = images;
        if (!m_images.isEmpty()) {
            emit dataChanged(index(0, 0), index(int(m_images.size()) - 1, ColumnCount - 1));
        }
        return;
    }
    beginResetModel();
    m_images = images;
    endResetModel();
}

const LanguageImage *ImageTableModel::find(const QString &language) const
{
    for (const LanguageImage &image : m_images) {
        if (image.language == language) {
            return &image;
        }
    }
    return nullptr;
}

void ImageTableModel::setPushed(const QString &language, const QString &reference, const QDateTime &when)
{
    m_pushes.insert(language, Push{.reference = reference, .when = when});
    for (int row = 0; row < m_images.size(); ++row) {
        if (m_images.at(row).language == language) {
            emit dataChanged(index(row, RegistryColumn), index(row, RegistryColumn));
        }
    }
}

const ImageTableModel::Push *ImageTableModel::pushOf(const LanguageImage &image) const
{
    const auto found = m_pushes.constFind(image.language);
    // A push of an older definition says nothing about the current image.
    if (found == m_pushes.cend() || image.reference.isEmpty() || !found->reference.endsWith(u'/' + image.reference)) {
        return nullptr;
    }
    return &*found;
}

int ImageTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_images.size());
}

int ImageTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ImageTableModel::sizeText(qint64 bytes)
{
    return dataSizeText(bytes);
}

QString ImageTableModel::ageText(const QDateTime &created)
{
    if (!created.isValid()) {
        return QStringLiteral("–");
    }
    const qint64 seconds = std::max<qint64>(created.secsTo(QDateTime::currentDateTimeUtc()), 0);
    if (seconds < 3600) {
        return tr("%n min", nullptr, int(seconds / 60));
    }
    if (seconds < 2 * 86400) {
        return tr("%n h", nullptr, int(seconds / 3600));
    }
    return tr("%n days", nullptr, int(seconds / 86400));
}

QVariant ImageTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_images.size()) {
        return {};
    }
    const LanguageImage &image = m_images.at(index.row());
    if (role == Qt::UserRole) {
        return image.language;
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == RegistryColumn) {
            const Push *push = pushOf(image);
            return push ? tr("Pushed as %1").arg(push->reference) : QVariant();
        }
        return image.reference.isEmpty() ? image.error.message : image.reference;
    }
    if (role == Qt::TextAlignmentRole && index.column() == SizeColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    const QString none = QStringLiteral("–");
    switch (Column(index.column())) {
    case LanguageColumn: {
        const auto language = LanguageRegistry::instance().find(image.language);
        return language ? language->displayName : image.language;
    }
    case StatusColumn:
        return image.reference.isEmpty() ? tr("Unknown") : image.present ? tr("Present") : tr("Missing");
    case VersionColumn:
        return image.present && !image.version.isEmpty() ? image.version : none;
    case SizeColumn:
        return image.present ? sizeText(image.sizeBytes) : none;
    case AgeColumn:
        return image.present ? ageText(image.created) : none;
    case RegistryColumn: {
        const Push *push = pushOf(image);
        if (!push) {
            return none;
        }
        const QDateTime when = push->when.toLocalTime();
        // Today's time alone: a push is mostly looked at the day it happened.
        return tr("pushed %1")
            .arg(when.date() == QDate::currentDate() ? QLocale().toString(when.time(), QLocale::ShortFormat)
                                                     : QLocale().toString(when, QLocale::ShortFormat));
    }
    case ImageColumn:
        return image.reference.isEmpty() ? image.error.message : image.reference;
    case ColumnCount:
        break;
    }
    return {};
}

QVariant ImageTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (Column(section)) {
    case LanguageColumn:
        return tr("Language");
    case StatusColumn:
        return tr("Status");
    case VersionColumn:
        return tr("Version");
    case SizeColumn:
        return tr("Size");
    case AgeColumn:
        return tr("Age");
    case RegistryColumn:
        return tr("Registry");
    case ImageColumn:
        return tr("Image");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace sandbox::gui
