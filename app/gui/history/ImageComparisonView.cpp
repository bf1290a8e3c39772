#include "gui/history/ImageComparisonView.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {

constexpr int kGap = 12;        ///< between the two pictures side by side
constexpr int kMaxHeight = 420; ///< of the canvas, so several pictures fit the tab

} // namespace

/// Paints the view's shownImage() scaled into its width (never above its own size), centred.
class ImageComparisonView::Canvas final : public QWidget
{
public:
    explicit Canvas(ImageComparisonView *view) : QWidget(view), m_view(view)
    {
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    }

    void refresh()
    {
        m_image = m_view->shownImage();
        updateGeometry();
        update();
    }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override
    {
        if (m_image.isNull() || m_image.width() == 0) {
            return 0;
        }
        const int shownWidth = std::min(width, m_image.width());
        return std::min(kMaxHeight, m_image.height() * shownWidth / m_image.width());
    }
    QSize sizeHint() const override
    {
        return {std::min(m_image.width(), 640), heightForWidth(std::min(m_image.width(), 640))};
    }
    QSize minimumSizeHint() const override { return {80, std::min(80, heightForWidth(80))}; }

protected:
    void paintEvent(QPaintEvent *) override
    {
        if (m_image.isNull()) {
            return;
        }
        QPainter painter(this);
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        // Fitted into the canvas, never enlarged.
        QSize fitted = m_image.size();
        if (fitted.width() > width() || fitted.height() > height()) {
            fitted.scale(size(), Qt::KeepAspectRatio);
        }
        const QRect target(QPoint((width() - fitted.width()) / 2, 0), fitted);
        painter.drawImage(target, m_image);
    }

private:
    ImageComparisonView *m_view;
    QImage m_image;
};

ImageComparisonView::ImageComparisonView(PixelComparison comparison, const QString &firstTitle,
                                         const QString &secondTitle, QWidget *parent)
    : QWidget(parent), m_comparison(std::move(comparison)), m_firstTitle(firstTitle), m_secondTitle(secondTitle)
{
    setObjectName(QStringLiteral("imageComparison"));
    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("imageComparisonCaption"));
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::RichText);
    const QLocale locale;
    const QString name = m_comparison.name.toHtmlEscaped();
    if (m_comparison.differingPixels == 0) {
        m_caption->setText(tr("<b>%1</b>: every pixel is the same").arg(name));
    } else {
        const double share = m_comparison.totalPixels > 0
                                 ? 100.0 * double(m_comparison.differingPixels) / double(m_comparison.totalPixels)
                                 : 0.0;
        m_caption->setText(tr("<b>%1</b>: %2 of %3 pixels differ (%4 %), shown in red")
                               .arg(name, locale.toString(m_comparison.differingPixels),
                                    locale.toString(m_comparison.totalPixels), locale.toString(share, 'f', 1)));
    }

    auto button = [this](const QString &text, const QString &objectName) {
        auto *tool = new QToolButton(this);
        tool->setObjectName(objectName);
        tool->setText(text);
        tool->setCheckable(true);
        tool->setAutoRaise(true);
        return tool;
    };
    m_sideBySide = button(tr("Side by side"), QStringLiteral("imageSideBySide"));
    m_overlay = button(tr("Overlaid"), QStringLiteral("imageOverlay"));
    m_difference = button(tr("Difference"), QStringLiteral("imageDifference"));
    m_sideBySide->setToolTip(tr("%1 on the left, %2 on the right").arg(firstTitle, secondTitle));
    m_difference->setToolTip(tr("Pixels that differ in red, the others faded"));
    auto *group = new QButtonGroup(this);
    group->setExclusive(true);
    group->addButton(m_sideBySide);
    group->addButton(m_overlay);
    group->addButton(m_difference);
    m_opacity = new QSlider(Qt::Horizontal, this);
    m_opacity->setObjectName(QStringLiteral("imageOverlayOpacity"));
    m_opacity->setRange(0, 100);
    m_opacity->setValue(50);
    m_opacity->setMaximumWidth(160);
    m_opacity->setToolTip(tr("How much of %1 shows over %2").arg(secondTitle, firstTitle));

    m_canvas = new Canvas(this);
    m_canvas->setObjectName(QStringLiteral("imageComparisonCanvas"));

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_sideBySide);
    bar->addWidget(m_overlay);
    bar->addWidget(m_difference);
    bar->addWidget(m_opacity);
    bar->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 4);
    layout->addWidget(m_caption);
    layout->addLayout(bar);
    layout->addWidget(m_canvas);

    connect(m_sideBySide, &QToolButton::clicked, this, [this] { setMode(Mode::SideBySide); });
    connect(m_overlay, &QToolButton::clicked, this, [this] { setMode(Mode::Overlay); });
    connect(m_difference, &QToolButton::clicked, this, [this] { setMode(Mode::Difference); });
    connect(m_opacity, &QSlider::valueChanged, this, [this] { m_canvas->refresh(); });
    // Equal pictures have nothing to point at: the two of them then.
    setMode(m_comparison.differingPixels > 0 ? Mode::Difference : Mode::SideBySide);
}

void ImageComparisonView::setMode(Mode mode)
{
    m_mode = mode;
    m_sideBySide->setChecked(mode == Mode::SideBySide);
    m_overlay->setChecked(mode == Mode::Overlay);
    m_difference->setChecked(mode == Mode::Difference);
    m_opacity->setVisible(mode == Mode::Overlay);
    m_canvas->refresh();
}

QImage ImageComparisonView::shownImage() const
{
    const QImage &first = m_comparison.original;
    const QImage &second = m_comparison.other;
    switch (m_mode) {
    case Mode::Difference:
        return m_comparison.difference;
    case Mode::Overlay: {
        QImage image(first.size().expandedTo(second.size()), QImage::Format_ARGB32);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.drawImage(0, 0, first);
        painter.setOpacity(m_opacity->value() / 100.0);
        painter.drawImage(0, 0, second);
        return image;
    }
    case Mode::SideBySide:
        break;
    }
    QImage image(first.width() + kGap + second.width(), std::max(first.height(), second.height()),
                 QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.drawImage(0, 0, first);
    painter.drawImage(first.width() + kGap, 0, second);
    return image;
}

} // namespace sandbox::gui
