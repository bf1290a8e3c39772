#pragma once

#include <QDialog>
#include <QFutureWatcher>
#include <QImage>
#include <QJsonObject>
#include <QList>
#include <QPoint>
#include <functional>
#include <optional>
#include <utility>

class QLabel;
class QMimeData;
class QPlainTextEdit;
class QScrollArea;
class QStackedWidget;
class QTabBar;
class QTableView;
class QPushButton;

namespace sandbox::gui {

class SeparatedValuesModel;

/// One artifact as the preview shows it: its bytes in memory (a live run's) or in a file (the journal's).
struct PreviewItem
{
    QString name;
    QString mimeType;
    QByteArray data; ///< when empty, read from `path`
    QString path;
    QString runId;     ///< the run that made it, for "Show Run"; empty: no such button
    QJsonObject chart; ///< the data of a chart (ChartData), when known: the preview then has a Data tab
};

/// Artifacts shown inside the app, one at a time, with next and previous. A file a sandbox wrote is never handed to
/// the desktop's default program, which would run or render it outside the sandbox: images (PNG, JPEG, GIF, WebP,
/// SVG — by their bytes, whatever their name says) are decoded off the GUI thread with SafeImage's limits and shown
/// with fit and zoom; a CSV (or tab-separated) file as a table; other text (JSON, HTML as its source, saying why) as
/// plain text; anything else can only be saved.
class ArtifactPreviewDialog final : public QDialog
{
    Q_OBJECT

public:
    /// Asks where to save `item` (its bytes, or its file's) and saves it there, as a file only the user can read. The
    /// dialog offers the artifact's own type first. Returns the path saved to; empty when nothing was saved (a
    /// failure is warned of here).
    static QString saveArtifact(QWidget *parent, const PreviewItem &item);
    /// The file name Save As suggests for an artifact a sandbox named `name`: one plain, visible file name (no
    /// folders, no leading dot, no control characters), so a tired Enter never writes a ~/.bashrc.
    static QString suggestedFileName(const QString &name);

    ArtifactPreviewDialog(QList<PreviewItem> items, int current, QWidget *parent = nullptr);

    /// Reads the data of the chart of `item` (empty: it has none) and hands it to `deliver`, now or later.
    using ChartLoader = std::function<void(const PreviewItem &item, std::function<void(QJsonObject)> deliver)>;
    /// Where the data of charts whose items do not carry it (PreviewItem::chart) come from (the Gallery's: the
    /// journal), asked for each image when it is shown.
    void setChartLoader(ChartLoader loader);
    /// Shows the chart's picture (false) or its data as a table (true), where the artifact on show has data.
    void showData(bool data);
    /// Whether the chart's data is on show.
    bool showingData() const;

    int current() const { return m_current; }
    void setCurrent(int index);
    /// The decoded image on show (null until it is decoded, or when the artifact is no image).
    QImage image() const { return m_image; }
    /// The scale the image is shown at (1 = its own pixels).
    double scale() const { return m_scale; }
    /// Waits until the current artifact is decoded (tests).
    void waitForDecoded();
    /// What dragging the artifact on show to another program carries: a private copy of it (ArtifactDrag).
    QMimeData *dragData() const;

signals:
    void showRunRequested(const QString &runId);

protected:
    void resizeEvent(QResizeEvent *event) override;
    /// Drags start on the picture and on the message that stands for a file not shown.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showDecoded();
    void setScale(double scale, bool fit);
    void zoomBy(double factor);
    void copyImage();
    void saveAs();
    void applyScale();
    /// Shows `text` (CSV when `separator` is ',', tab-separated when '\t') as a table.
    void showTable(const QString &text, QChar separator);
    /// The Picture and Data tabs for an image with chart data, and what the chosen one shows.
    void applyMode();
    /// Asks the chart loader for the data of the artifact on show, when it is an image without it.
    void requestChart();
    void copyCsv();
    void saveCsv();

    QList<PreviewItem> m_items;
    ChartLoader m_chartLoader;
    QList<bool> m_chartAsked; ///< per item: its data was asked of the loader
    int m_current = -1;
    QByteArray m_data;
    QImage m_image;
    double m_scale = 1.0;
    bool m_fit = true;
    using Decoded = std::pair<QImage, QString>; ///< the image, or why there is none
    QFutureWatcher<Decoded> m_decoding;
    QString m_why;
    std::optional<QPoint> m_pressedAt; ///< where a drag may start: the left button went down there

    QTabBar *m_modes = nullptr; ///< Picture, Data: for a chart with data
    QStackedWidget *m_views = nullptr;
    QScrollArea *m_scroll = nullptr;
    QLabel *m_picture = nullptr;
    QPlainTextEdit *m_text = nullptr;
    QTableView *m_table = nullptr;
    SeparatedValuesModel *m_tableModel = nullptr;
    QPushButton *m_fitButton = nullptr;    ///< only for an image
    QPushButton *m_actualButton = nullptr; ///< only for an image
    QPushButton *m_zoomIn = nullptr;       ///< only for an image
    QPushButton *m_zoomOut = nullptr;      ///< only for an image
    QLabel *m_zoomPercent = nullptr;       ///< the scale on show, for an image
    /// Why a file is shown as text and not as what it is (a web page's source).
    QLabel *m_notice = nullptr;
    QLabel *m_message = nullptr;
    QLabel *m_caption = nullptr;
    QPushButton *m_previous = nullptr;
    QPushButton *m_next = nullptr;
    QPushButton *m_copy = nullptr;
    QPushButton *m_showRun = nullptr;
    QPushButton *m_copyCsv = nullptr; ///< only for a chart's data
    QPushButton *m_saveCsv = nullptr; ///< only for a chart's data
};

} // namespace sandbox::gui
