#pragma once

#include "gui/history/PixelComparison.h"

#include <QWidget>

class QLabel;
class QSlider;
class QToolButton;

namespace sandbox::gui {

/// One picture of two runs: side by side, the second over the first (with a slider for how much of it shows) or the
/// difference (differing pixels in red), the mode chosen with three buttons; the difference when pixels differ.
class ImageComparisonView final : public QWidget
{
    Q_OBJECT

public:
    enum class Mode
    {
        SideBySide,
        Overlay,
        Difference
    };

    /// `firstTitle` and `secondTitle` name the runs ("Original", "Replay"; "Run A", "Run B").
    ImageComparisonView(PixelComparison comparison, const QString &firstTitle, const QString &secondTitle,
                        QWidget *parent = nullptr);

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);
    const PixelComparison &comparison() const { return m_comparison; }
    /// What the canvas shows now, at the pictures' own size (tests, and the canvas paints it scaled).
    QImage shownImage() const;

private:
    class Canvas;

    PixelComparison m_comparison;
    QString m_firstTitle, m_secondTitle;
    Mode m_mode = Mode::Difference;
    QLabel *m_caption = nullptr;
    QToolButton *m_sideBySide = nullptr;
    QToolButton *m_overlay = nullptr;
    QToolButton *m_difference = nullptr;
    QSlider *m_opacity = nullptr;
    Canvas *m_canvas = nullptr;
};

} // namespace sandbox::gui
