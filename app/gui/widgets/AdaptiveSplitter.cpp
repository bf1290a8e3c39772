#include "AdaptiveSplitter.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>

namespace sandbox::gui {

namespace {

const QString kBesideKey = QStringLiteral("beside");
const QString kUnderKey = QStringLiteral("under");

} // namespace

AdaptiveSplitter::AdaptiveSplitter(QWidget *parent) : QSplitter(Qt::Horizontal, parent)
{
    connect(this, &QSplitter::splitterMoved, this, [this] {
        const QList<int> panes = sizes();
        if (panes.size() == 2 && panes[0] + panes[1] > 0) {
            m_userShare[slot(orientation())] = static_cast<double>(panes[0]) / (panes[0] + panes[1]);
        }
    });
}

std::size_t AdaptiveSplitter::slot(Qt::Orientation orientation)
{
    return orientation == Qt::Horizontal ? 0 : 1;
}

bool AdaptiveSplitter::place(Qt::Orientation orientation, int first, int second)
{
    const bool turned = orientation != this->orientation();
    if (turned) {
        setOrientation(orientation);
    }
    double share = m_userShare[slot(orientation)];
    if (share >= 0 && !turned && m_placed) {
        return false; // the user's split, shared out by the stretch factors as the page is resized
    }
    m_placed = true;
    if (share < 0) {
        share = first + second > 0 ? static_cast<double>(std::max(0, first)) / (first + second) : 0.5;
    }
    const int length = (orientation == Qt::Horizontal ? width() : height()) - handleWidth();
    const int firstPane = static_cast<int>(std::lround(share * length));
    setSizes({firstPane, std::max(0, length - firstPane)});
    return turned;
}

bool AdaptiveSplitter::placedByUser() const
{
    return m_userShare[slot(orientation())] >= 0;
}

QByteArray AdaptiveSplitter::saveSplits() const
{
    QJsonObject splits;
    if (m_userShare[0] >= 0) {
        splits.insert(kBesideKey, m_userShare[0]);
    }
    if (m_userShare[1] >= 0) {
        splits.insert(kUnderKey, m_userShare[1]);
    }
    return QJsonDocument(splits).toJson(QJsonDocument::Compact);
}

bool AdaptiveSplitter::restoreSplits(const QByteArray &state)
{
    const QJsonDocument document = QJsonDocument::fromJson(state);
    if (!document.isObject()) {
        return false;
    }
    const QJsonObject splits = document.object();
    const auto share = [&splits](const QString &key) {
        const double value = splits.value(key).toDouble(-1.0);
        return value > 0.0 && value < 1.0 ? value : -1.0;
    };
    m_userShare = {share(kBesideKey), share(kUnderKey)};
    m_placed = false; // placed again with the restored splits
    return true;
}

} // namespace sandbox::gui
