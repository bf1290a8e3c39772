#include "gui/widgets/ArtifactPreviewDialog.h"

#include "artifacts/ChartData.h"
#include "artifacts/SeparatedValues.h"
#include "gui/RunText.h"
#include "gui/widgets/ArtifactDrag.h"
#include "gui/widgets/CopyFeedback.h"
#include "gui/widgets/SafeImage.h"
#include "gui/widgets/SeparatedValuesModel.h"
#include "journal/RunJournal.h"
#include "util/PrivateFiles.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QDrag>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QMimeDatabase>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedWidget>
#include <QStringDecoder>
#include <QTabBar>
#include <QTableView>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::gui {

namespace {

/// Text longer than this is shown cut (it can always be saved whole).
constexpr qsizetype kMaxTextBytes = 2 * 1024 * 1024;
constexpr double kMinScale = 0.05;
constexpr double kMaxScale = 16.0;
/// One step of zoom in or out (a button, a key, a notch of the wheel).
constexpr double kZoomStep = 1.25;

/// A table shows at most this many rows and columns (the file can always be saved whole).
constexpr qsizetype kMaxTableRows = 5000;
constexpr qsizetype kMaxTableColumns = 200;
/// Column widths are measured on this many rows; no column is wider than kMaxColumnWidth pixels.
constexpr int kRowsMeasured = 100;
constexpr int kMaxColumnWidth = 480;
/// A longer line of text shows cut: laying out one line of megabytes stalls the window for seconds.
constexpr qsizetype kMaxLineCharacters = 10000;

/// `text` with every line longer than kMaxLineCharacters cut, saying so.
QString withLinesCut(const QString &text)
{
    QString out;
    out.reserve(text.size());
    qsizetype start = 0;
    while (start <= text.size()) {
        qsizetype end = text.indexOf(u'\n', start);
        if (end < 0) {
            end = text.size();
        }
        const qsizetype length = end - start;
        out += QStringView(text).mid(start, std::min(length, kMaxLineCharacters));
        if (length > kMaxLineCharacters) {
            out +=
                ArtifactPreviewDialog::tr(" … (%n character(s) of this line not shown: save the file to see all of it)",
                                          nullptr, int(length - kMaxLineCharacters));
        }
        if (end < text.size()) {
            out += u'\n';
        }
        start = end + 1;
    }
    return out;
}

/// A web page: shown as its source, never rendered (its scripts and links would reach out of the sandbox).
bool isWebPage(const PreviewItem &item)
{
    const QString type = item.mimeType.toLower();
    return type == QLatin1String("text/html") || type == QLatin1String("application/xhtml+xml") ||
           item.name.endsWith(QLatin1String(".html"), Qt::CaseInsensitive) ||
           item.name.endsWith(QLatin1String(".htm"), Qt::CaseInsensitive);
}

QByteArray bytesOf(const PreviewItem &item)
{
    if (!item.data.isEmpty() || item.path.isEmpty()) {
        return item.data;
    }
    QFile file(item.path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

ArtifactPreviewDialog::ArtifactPreviewDialog(QList<PreviewItem> items, int current, QWidget *parent)
    : QDialog(parent), m_items(std::move(items))
{
    setObjectName(QStringLiteral("artifactPreview"));
    resize(960, 720);
    auto *layout = new QVBoxLayout(this);

    m_chartAsked = QList<bool>(m_items.size(), false);
    m_modes = new QTabBar;
    m_modes->setObjectName(QStringLiteral("previewModes"));
    m_modes->setDocumentMode(true);
    m_modes->setExpanding(false);
    m_modes->addTab(tr("Picture"));
    m_modes->addTab(tr("Data"));
    m_modes->setTabToolTip(1, tr("The numbers behind the chart, as the model reads them (Ctrl+D)"));
    m_modes->setVisible(false);
    m_views = new QStackedWidget;
    m_scroll = new QScrollArea;
    m_scroll->setObjectName(QStringLiteral("previewImageView"));
    m_scroll->setAlignment(Qt::AlignCenter);
    m_scroll->setBackgroundRole(QPalette::Dark);
    m_picture = new QLabel;
    m_picture->setObjectName(QStringLiteral("previewImage"));
    m_scroll->setWidget(m_picture);
    m_picture->setCursor(Qt::OpenHandCursor);
    m_picture->setToolTip(tr("Drag to another program to give it a copy"));
    m_picture->installEventFilter(this);
    m_scroll->viewport()->installEventFilter(this); // Ctrl+wheel zooms; Fit follows its size
    m_text = new QPlainTextEdit;
    m_text->setObjectName(QStringLiteral("previewText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("previewMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->installEventFilter(this);
    m_tableModel = new SeparatedValuesModel(this);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("previewTable"));
    m_table->setModel(m_tableModel);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    // Column widths from the first rows, not from every cell, and never wider than a screenful.
    m_table->horizontalHeader()->setResizeContentsPrecision(kRowsMeasured);
    m_table->horizontalHeader()->setMaximumSectionSize(kMaxColumnWidth);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_views->addWidget(m_scroll);
    m_views->addWidget(m_text);
    m_views->addWidget(m_table);
    m_views->addWidget(m_message);
    m_notice = new QLabel;
    m_notice->setObjectName(QStringLiteral("previewNotice"));
    m_notice->setWordWrap(true);
    m_notice->setVisible(false);
    layout->addWidget(m_notice);
    layout->addWidget(m_modes);
    layout->addWidget(m_views, 1);

    m_caption = new QLabel;
    m_caption->setObjectName(QStringLiteral("previewCaption"));
    m_caption->setAlignment(Qt::AlignCenter);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_caption);

    auto *bar = new QHBoxLayout;
    m_previous = new QPushButton(tr("◀ Previous"));
    m_next = new QPushButton(tr("Next ▶"));
    auto *fit = m_fitButton = new QPushButton(tr("Fit"));
    fit->setObjectName(QStringLiteral("fitImage"));
    fit->setToolTip(tr("Fit the image to the window, larger or smaller (Ctrl+0)"));
    auto *actual = m_actualButton = new QPushButton(tr("100%"));
    actual->setObjectName(QStringLiteral("actualSize"));
    actual->setToolTip(tr("Show the image at its own size (Ctrl+1)"));
    m_zoomOut = new QPushButton(QStringLiteral("−"));
    m_zoomOut->setObjectName(QStringLiteral("zoomOut"));
    m_zoomOut->setToolTip(tr("Zoom out (Ctrl+minus, or Ctrl and the mouse wheel)"));
    m_zoomIn = new QPushButton(QStringLiteral("+"));
    m_zoomIn->setObjectName(QStringLiteral("zoomIn"));
    m_zoomIn->setToolTip(tr("Zoom in (Ctrl+plus, or Ctrl and the mouse wheel)"));
    m_zoomPercent = new QLabel;
    m_zoomPercent->setObjectName(QStringLiteral("zoomPercent"));
    // As wide as the widest scale it shows, so the buttons beside it do not move while zooming.
    m_zoomPercent->setMinimumWidth(m_zoomPercent->fontMetrics().horizontalAdvance(tr("%1%").arg(1600)));
    m_zoomPercent->setAlignment(Qt::AlignCenter);
    m_copy = new QPushButton(tr("Copy Image"));
    m_copy->setObjectName(QStringLiteral("copyImage"));
    auto *save = new QPushButton(tr("Save As…"));
    save->setObjectName(QStringLiteral("saveArtifact"));
    save->setToolTip(tr("Files from a sandbox are saved (readable only by you), never opened with other programs."));
    m_showRun = new QPushButton(tr("Show Run"));
    m_showRun->setObjectName(QStringLiteral("showRun"));
    m_copyCsv = new QPushButton(tr("Copy as CSV"));
    m_copyCsv->setObjectName(QStringLiteral("copyCsv"));
    m_saveCsv = new QPushButton(tr("Save as CSV…"));
    m_saveCsv->setObjectName(QStringLiteral("saveCsv"));
    m_saveCsv->setToolTip(tr("Saves the chart's data as a CSV file readable only by you"));
    for (QPushButton *button :
         {m_previous, m_next, fit, actual, m_zoomOut, m_zoomIn, m_copy, save, m_showRun, m_copyCsv, m_saveCsv}) {
        button->setAutoDefault(false);
    }
    bar->addWidget(m_previous);
    bar->addWidget(m_next);
    bar->addSpacing(12);
    bar->addWidget(fit);
    bar->addWidget(actual);
    bar->addWidget(m_zoomOut);
    bar->addWidget(m_zoomPercent);
    bar->addWidget(m_zoomIn);
    bar->addStretch(1);
    bar->addWidget(m_showRun);
    bar->addWidget(m_copyCsv);
    bar->addWidget(m_saveCsv);
    bar->addWidget(m_copy);
    bar->addWidget(save);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    bar->addWidget(buttons);
    layout->addLayout(bar);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_previous, &QPushButton::clicked, this, [this] { setCurrent(m_current - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { setCurrent(m_current + 1); });
    connect(fit, &QPushButton::clicked, this, [this] { setScale(m_scale, true); });
    connect(actual, &QPushButton::clicked, this, [this] { setScale(1.0, false); });
    connect(m_zoomIn, &QPushButton::clicked, this, [this] { zoomBy(kZoomStep); });
    connect(m_zoomOut, &QPushButton::clicked, this, [this] { zoomBy(1 / kZoomStep); });
    connect(m_copy, &QPushButton::clicked, this, &ArtifactPreviewDialog::copyImage);
    connect(m_copyCsv, &QPushButton::clicked, this, &ArtifactPreviewDialog::copyCsv);
    connect(m_saveCsv, &QPushButton::clicked, this, &ArtifactPreviewDialog::saveCsv);
    connect(m_modes, &QTabBar::currentChanged, this, [this] { applyMode(); });
    connect(save, &QPushButton::clicked, this, &ArtifactPreviewDialog::saveAs);
    connect(m_showRun, &QPushButton::clicked, this, [this] {
        emit showRunRequested(m_items.value(m_current).runId);
        accept();
    });
    const auto shortcut = [this](QKeySequence keys, auto slot) {
        auto *action = new QAction(this);
        action->setShortcut(keys);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
    };
    shortcut(QKeySequence(Qt::Key_Right), [this] { setCurrent(m_current + 1); });
    shortcut(QKeySequence(Qt::Key_PageDown), [this] { setCurrent(m_current + 1); });
    shortcut(QKeySequence(Qt::Key_Left), [this] { setCurrent(m_current - 1); });
    shortcut(QKeySequence(Qt::Key_PageUp), [this] { setCurrent(m_current - 1); });
    shortcut(QKeySequence::ZoomIn, [this] { zoomBy(kZoomStep); });
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_Equal), [this] { zoomBy(kZoomStep); });
    shortcut(QKeySequence::ZoomOut, [this] { zoomBy(1 / kZoomStep); });
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_0), [this] { setScale(m_scale, true); });
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_1), [this] { setScale(1.0, false); });
    shortcut(QKeySequence::Copy, [this] { showingData() ? copyCsv() : copyImage(); });
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_D), [this] { showData(!showingData()); });
    shortcut(QKeySequence::Save, [this] { saveAs(); });

    connect(&m_decoding, &QFutureWatcher<Decoded>::finished, this, [this] {
        std::tie(m_image, m_why) = m_decoding.result();
        showDecoded();
    });
    setCurrent(current);
}

void ArtifactPreviewDialog::setCurrent(int index)
{
    if (index < 0 || index >= m_items.size()) {
        return;
    }
    m_current = index;
    const PreviewItem &item = m_items.at(index);
    setWindowTitle(item.name);
    m_previous->setEnabled(index > 0);
    m_next->setEnabled(index + 1 < m_items.size());
    m_previous->setVisible(m_items.size() > 1);
    m_next->setVisible(m_items.size() > 1);
    m_showRun->setVisible(!item.runId.isEmpty());
    m_image = QImage();
    m_why.clear();
    m_data = bytesOf(item);
    m_copy->setEnabled(false);
    // Zooming is for images: off until one is decoded.
    for (QPushButton *zoom : {m_fitButton, m_actualButton, m_zoomIn, m_zoomOut}) {
        zoom->setEnabled(false);
    }
    m_zoomPercent->clear();
    m_notice->setVisible(false);
    m_caption->setText(tr("%1 — %2").arg(item.mimeType, dataSizeText(m_data.size())));
    switch (SafeImage::kindOf(m_data, item.mimeType)) {
    case SafeImage::Kind::Raster:
    case SafeImage::Kind::Svg: {
        m_message->setText(tr("Loading…"));
        m_views->setCurrentWidget(m_message);
        const QByteArray data = m_data;
        const QString mimeType = item.mimeType;
        m_decoding.setFuture(QtConcurrent::run([data, mimeType] {
            Decoded decoded;
            decoded.first = SafeImage::decode(data, mimeType, {}, &decoded.second);
            return decoded;
        }));
        break;
    }
    case SafeImage::Kind::Text: {
        QStringDecoder decoder(QStringDecoder::Utf8);
        QString text = decoder.decode(m_data.left(kMaxTextBytes));
        if (m_data.size() > kMaxTextBytes) {
            text += tr("\n… (cut: save the file to see all of it)");
        }
        const QString mimeType = item.mimeType.toLower();
        if (mimeType == QLatin1String("text/csv") || mimeType == QLatin1String("text/tab-separated-values")) {
            showTable(text, mimeType == QLatin1String("text/csv") ? QLatin1Char(',') : QLatin1Char('\t'));
            break;
        }
        m_text->setPlainText(withLinesCut(text));
        m_views->setCurrentWidget(m_text);
        if (isWebPage(item)) {
            // Rendered, its scripts would run and its links and images load outside the sandbox.
            m_notice->setText(tr("This web page is shown as its source, not rendered: a page a sandbox wrote is never "
                                 "opened in your browser or shown here as a page, where its scripts and links would "
                                 "run outside the sandbox. Use Save As… to keep it."));
            m_notice->setVisible(true);
        }
        break;
    }
    case SafeImage::Kind::Other:
        m_message->setText(tr("%1 is not shown inside the app. Files from a sandbox are never opened with other "
                              "programs; use Save As… to keep it.")
                               .arg(item.name.toHtmlEscaped()));
        m_views->setCurrentWidget(m_message);
        break;
    }
    applyMode();
    requestChart();
}

void ArtifactPreviewDialog::setChartLoader(ChartLoader loader)
{
    m_chartLoader = std::move(loader);
    requestChart();
}

void ArtifactPreviewDialog::requestChart()
{
    if (!m_chartLoader || m_current < 0 || m_chartAsked.value(m_current) || !m_items.at(m_current).chart.isEmpty() ||
        !(m_items.at(m_current).mimeType.startsWith(QLatin1String("image/")) ||
          m_items.at(m_current).mimeType == QLatin1String("application/json"))) {
        return;
    }
    m_chartAsked[m_current] = true;
    const int index = m_current;
    m_chartLoader(m_items.at(index), [this, index](QJsonObject chart) {
        m_items[index].chart = std::move(chart);
        if (index == m_current) {
            applyMode();
        }
    });
}

bool ArtifactPreviewDialog::showingData() const
{
    return m_current >= 0 && !m_items.at(m_current).chart.isEmpty() && m_modes->currentIndex() == 1;
}

void ArtifactPreviewDialog::showData(bool data)
{
    m_modes->setCurrentIndex(data ? 1 : 0);
    applyMode();
}

void ArtifactPreviewDialog::applyMode()
{
    const PreviewItem &item = m_items.at(m_current);
    const bool hasData = !item.chart.isEmpty();
    const bool data = showingData();
    m_modes->setVisible(hasData);
    // The other mode's buttons hidden first: with both sets shown for a moment the bar would be wider than the window,
    // and the window would grow to fit it.
    const QList<QWidget *> dataButtons{m_copyCsv, m_saveCsv};
    const QList<QWidget *> pictureButtons{m_copy, m_fitButton, m_actualButton, m_zoomIn, m_zoomOut, m_zoomPercent};
    for (QWidget *button : data ? pictureButtons : dataButtons) {
        button->setVisible(false);
    }
    for (QWidget *button : data ? dataButtons : pictureButtons) {
        button->setVisible(true);
    }
    // A chart a program described as JSON (plotly, Vega-Lite) has its text where a picture has the picture.
    const bool text = SafeImage::kindOf(m_data, item.mimeType) == SafeImage::Kind::Text;
    m_modes->setTabText(0, text ? tr("File") : tr("Picture"));
    if (data) {
        showTable(QString::fromUtf8(ChartData::toCsv(item.chart)), QLatin1Char(','));
    } else if (hasData && !m_image.isNull()) {
        m_views->setCurrentWidget(m_scroll);
    } else if (hasData && text) {
        m_views->setCurrentWidget(m_text);
    }
}

void ArtifactPreviewDialog::copyCsv()
{
    if (showingData()) {
        QApplication::clipboard()->setText(QString::fromUtf8(ChartData::toCsv(m_items.at(m_current).chart)));
        showCopied(m_copyCsv);
    }
}

void ArtifactPreviewDialog::saveCsv()
{
    if (!showingData()) {
        return;
    }
    const PreviewItem &item = m_items.at(m_current);
    const PreviewItem csv{QFileInfo(item.name).completeBaseName() + QStringLiteral(" data.csv"),
                          QStringLiteral("text/csv"),
                          ChartData::toCsv(item.chart),
                          {},
                          {},
                          {}};
    if (const QString path = saveArtifact(this, csv); !path.isEmpty()) {
        m_caption->setText(tr("Saved to %1").arg(QDir::toNativeSeparators(path)));
    }
}

void ArtifactPreviewDialog::waitForDecoded()
{
    m_decoding.waitForFinished();
    QCoreApplication::sendPostedEvents(&m_decoding);
}

void ArtifactPreviewDialog::showDecoded()
{
    if (m_image.isNull()) {
        m_message->setText(tr("This image is not shown: %1").arg(m_why.toHtmlEscaped()));
        m_views->setCurrentWidget(m_message);
        return;
    }
    const PreviewItem &item = m_items.at(m_current);
    m_caption->setText(tr("%1 — %2 × %3 px, %4")
                           .arg(item.mimeType)
                           .arg(m_image.width())
                           .arg(m_image.height())
                           .arg(dataSizeText(m_data.size())));
    m_copy->setEnabled(true);
    for (QPushButton *zoom : {m_fitButton, m_actualButton, m_zoomIn, m_zoomOut}) {
        zoom->setEnabled(true);
    }
    m_views->setCurrentWidget(m_scroll);
    applyScale();
    applyMode();
}

void ArtifactPreviewDialog::resizeEvent(QResizeEvent *event)
{
    QDialog::resizeEvent(event);
    if (m_fit) {
        applyScale();
    }
}

void ArtifactPreviewDialog::setScale(double scale, bool fit)
{
    m_fit = fit;
    m_scale = std::clamp(scale, kMinScale, kMaxScale);
    applyScale();
}

void ArtifactPreviewDialog::zoomBy(double factor)
{
    if (!m_image.isNull()) {
        setScale(m_scale * factor, false);
    }
}

void ArtifactPreviewDialog::applyScale()
{
    if (m_image.isNull()) {
        return;
    }
    if (m_fit) {
        // Both ways: a small chart fills the window as a large one is made to fit it.
        const QSize room = m_scroll->viewport()->size() - QSize(4, 4);
        const QSize fitted = m_image.size().scaled(room, Qt::KeepAspectRatio);
        m_scale = std::clamp(double(fitted.width()) / m_image.width(), kMinScale, kMaxScale);
    }
    m_zoomPercent->setText(tr("%1%").arg(qRound(m_scale * 100)));
    const QSize size = (QSizeF(m_image.size()) * m_scale).toSize().expandedTo(QSize(1, 1));
    m_picture->setPixmap(QPixmap::fromImage(m_image.scaled(size, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
    m_picture->resize(size);
}

QMimeData *ArtifactPreviewDialog::dragData() const
{
    PreviewItem item = m_items.value(m_current);
    item.data = m_data;
    return ArtifactDrag::mimeData(item);
}

bool ArtifactPreviewDialog::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::Resize:
        // The room the image fits is the viewport's, known for sure only once the layout has sized it.
        if (watched == m_scroll->viewport() && m_fit) {
            applyScale();
        }
        break;
    case QEvent::Wheel:
        if (const auto *wheel = static_cast<QWheelEvent *>(event);
            watched == m_scroll->viewport() && (wheel->modifiers() & Qt::ControlModifier)) {
            if (wheel->angleDelta().y() != 0) {
                zoomBy(wheel->angleDelta().y() > 0 ? kZoomStep : 1 / kZoomStep);
            }
            return true; // not a scroll as well
        }
        break;
    case QEvent::MouseButtonPress:
        if (const auto *press = static_cast<QMouseEvent *>(event); press->button() == Qt::LeftButton) {
            m_pressedAt = press->position().toPoint();
        }
        break;
    case QEvent::MouseButtonRelease:
        m_pressedAt.reset();
        break;
    case QEvent::MouseMove: {
        const auto *move = static_cast<QMouseEvent *>(event);
        if (!m_pressedAt || !(move->buttons() & Qt::LeftButton) ||
            (move->position().toPoint() - *m_pressedAt).manhattanLength() < QApplication::startDragDistance()) {
            break;
        }
        m_pressedAt.reset();
        if (QMimeData *data = dragData()) {
            auto *drag = new QDrag(this);
            drag->setMimeData(data);
            if (!m_image.isNull() && watched == m_picture) {
                drag->setPixmap(QPixmap::fromImage(m_image.scaled(128, 128, Qt::KeepAspectRatio)));
            }
            drag->exec(Qt::CopyAction);
        }
        return true;
    }
    default:
        break;
    }
    return QDialog::eventFilter(watched, event);
}

void ArtifactPreviewDialog::showTable(const QString &text, QChar separator)
{
    QList<QStringList> rows = SeparatedValues::parse(text, separator, kMaxTableRows + 2);
    const bool cut = rows.size() > kMaxTableRows + 1;
    rows.resize(std::min<qsizetype>(rows.size(), kMaxTableRows + 1));
    m_tableModel->setRows(std::move(rows), int(kMaxTableColumns));
    m_table->resizeColumnsToContents();
    if (cut) {
        m_caption->setText(
            m_caption->text() + QStringLiteral(" · ") +
            tr("the first %n row(s) shown: save the file to see all of it", nullptr, int(kMaxTableRows)));
    }
    m_views->setCurrentWidget(m_table);
}

void ArtifactPreviewDialog::copyImage()
{
    if (!m_image.isNull()) {
        QApplication::clipboard()->setImage(m_image);
        showCopied(m_copy);
    }
}

void ArtifactPreviewDialog::saveAs()
{
    PreviewItem item = m_items.value(m_current);
    item.data = m_data;
    if (const QString path = saveArtifact(this, item); !path.isEmpty()) {
        m_caption->setText(tr("Saved to %1").arg(QDir::toNativeSeparators(path)));
    }
}

QString ArtifactPreviewDialog::suggestedFileName(const QString &name)
{
    QString plain = QFileInfo(name).fileName();
    plain.removeIf([](QChar c) { return c.category() == QChar::Other_Control || c.category() == QChar::Other_Format; });
    return RunJournal::safeFileName(plain);
}

QString ArtifactPreviewDialog::saveArtifact(QWidget *parent, const PreviewItem &item)
{
    // The artifact's own type first ("PNG image (*.png)"), then any name.
    QStringList filters;
    if (const QMimeType type = QMimeDatabase().mimeTypeForName(item.mimeType);
        type.isValid() && !type.globPatterns().isEmpty()) {
        filters << type.filterString();
    }
    filters << tr("All files (*)");
    QString path = QFileDialog::getSaveFileName(parent, tr("Save %1").arg(item.name),
                                                QDir::home().filePath(suggestedFileName(item.name)),
                                                filters.join(QLatin1String(";;")));
    if (path.isEmpty()) {
        return {};
    }
    QString error;
    QByteArray data = item.data;
    if (QFile source(item.path); data.isEmpty() && !item.path.isEmpty()) {
        if (source.open(QIODevice::ReadOnly)) {
            data = source.readAll();
        } else {
            error = source.errorString();
        }
    }
    if (error.isEmpty()) {
        PrivateFiles::write(path, data, &error);
    }
    if (!error.isEmpty()) {
        // Titled by what happened: the Save dialog's title ("Save chart.png") would read as if it asked again.
        QMessageBox::warning(parent, tr("Not Saved"), tr("Could not save %1: %2").arg(path, error));
        return {};
    }
    return path;
}

} // namespace sandbox::gui
