#include "gui/gallery/GalleryPage.h"

#include "gui/RunText.h"
#include "gui/gallery/GalleryModel.h"
#include "gui/widgets/ArtifactPreviewDialog.h"
#include "gui/widgets/EmptyHint.h"
#include "gui/widgets/SafeImage.h"
#include "gui/widgets/ThemedIcon.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"
#include "journal/JournalReader.h"
#include "lang/LanguageRegistry.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMainWindow>
#include <QMenu>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyledItemDelegate>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::gui {

namespace {

/// The gallery shows the newest artifacts up to this many.
constexpr int kMaxArtifacts = 20000;
const SettingsKey<QString> kLanguage{"language"};
const SettingsKey<QString> kSource{"source"};
const SettingsKey<QString> kType{"type"};

/// Every tile as big as the thumbnail and three lines under it: the name and run, the client and time, and one of
/// them wrapped. The style's own size for a tile (the first one's, with uniform sizes) was 166 x 151, a line's room
/// under a 120-pixel thumbnail, and "figure_1.png · run e28936 / MCP · claude-ai · 8:04 PM" was elided to
/// "figure_1.p…un e28936…".
QSize tileSize(const QFontMetrics &metrics)
{
    return GalleryModel::ThumbnailSize + QSize(40, 3 * metrics.lineSpacing() + 12);
}

class TileDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const override
    {
        return tileSize(option.fontMetrics);
    }
};

QList<PreviewItem> previewItems(const QList<JournalArtifactEntry> &entries)
{
    QList<PreviewItem> items;
    items.reserve(entries.size());
    for (const JournalArtifactEntry &entry : entries) {
        items.append(PreviewItem{entry.artifact.name, entry.artifact.mimeType, {}, entry.artifact.path, entry.runId});
    }
    return items;
}

} // namespace

GalleryPage::GalleryPage(JournalFeed &feed, ThumbnailProvider &thumbnails, QWidget *parent)
    : Page(parent), m_feed(feed), m_thumbnails(thumbnails)
{
    setObjectName(QStringLiteral("galleryPage"));
    m_language = new QComboBox;
    m_language->setObjectName(QStringLiteral("galleryLanguageFilter"));
    m_language->addItem(tr("All languages"), QString());
    for (const QString &name : LanguageRegistry::instance().names()) {
        m_language->addItem(languageText(name), name);
    }
    m_source = new QComboBox;
    m_source->setObjectName(QStringLiteral("gallerySourceFilter"));
    m_source->addItem(tr("All sources"), QString());
    for (const auto &[text, sources] : runSourceChoices()) {
        m_source->addItem(text, sources);
    }
    m_type = new QComboBox;
    m_type->setObjectName(QStringLiteral("galleryTypeFilter"));
    m_type->addItem(tr("All types"), QString());
    m_type->addItem(tr("Images"), QStringLiteral("image/"));
    m_type->addItem(tr("PNG"), QStringLiteral("image/png"));
    m_type->addItem(tr("SVG"), QStringLiteral("image/svg+xml"));
    m_type->addItem(tr("HTML"), QStringLiteral("text/html"));
    m_type->addItem(tr("Text"), QStringLiteral("text/"));
    m_count = new QLabel;
    m_count->setObjectName(QStringLiteral("galleryCount"));
    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("gallerySearch"));
    m_search->setPlaceholderText(tr("Filter by name, client, run id…"));
    m_search->setClearButtonEnabled(true);
    setFindField(m_search);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_search, 1);
    bar->addWidget(m_language);
    bar->addWidget(m_source);
    bar->addWidget(m_type);
    bar->addWidget(m_count);

    m_model = new GalleryModel(m_thumbnails, this);
    m_view = new QListView;
    m_view->setObjectName(QStringLiteral("galleryView"));
    m_view->setModel(m_model);
    m_view->setViewMode(QListView::IconMode);
    m_view->setResizeMode(QListView::Adjust);
    m_view->setMovement(QListView::Static);
    m_view->setUniformItemSizes(true);
    m_view->setIconSize(GalleryModel::ThumbnailSize);
    m_view->setItemDelegate(new TileDelegate(m_view));
    m_view->setGridSize(tileSize(m_view->fontMetrics()) + QSize(8, 8));
    m_view->setSpacing(6);
    m_view->setWordWrap(true);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->setLayoutMode(QListView::Batched);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setDragEnabled(true);
    m_view->setDragDropMode(QAbstractItemView::DragOnly);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);

    m_emptyHint = emptyHint(QStringLiteral("galleryEmptyHint"));
    m_viewStack = new QStackedWidget;
    m_viewStack->addWidget(m_view);
    m_viewStack->addWidget(m_emptyHint);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_viewStack, 1);

    connect(m_view, &QListView::activated, this, [this](const QModelIndex &index) { openArtifact(index.row()); });
    connect(m_view, &QListView::customContextMenuRequested, this, &GalleryPage::showContextMenu);
    auto *copy = new QAction(tr("Copy Image"), this);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, [this] {
        if (const QModelIndex current = m_view->currentIndex(); current.isValid()) {
            copyImage(current.row());
        }
    });
    addAction(copy);
    for (QComboBox *combo : {m_language, m_source, m_type}) {
        connect(combo, &QComboBox::currentIndexChanged, this, &GalleryPage::reload);
    }
    // The journal's filters are read again; the text filters what was read.
    connect(m_search, &QLineEdit::textChanged, this, &GalleryPage::showMatching);

    // Runs of every process: a changed journal is read again a moment later, once for a burst of changes, while the
    // page is on show (otherwise when it is shown next).
    m_refresh = std::make_unique<JournalRefresh<Result<QList<JournalArtifactEntry>>>>(
        this, feed, std::chrono::milliseconds(300),
        [this] {
            return [filter = filter()](const JournalReader &reader) {
                return reader.artifacts(filter, kMaxArtifacts);
            };
        },
        [this](Result<QList<JournalArtifactEntry>> loaded) {
            if (loaded) {
                m_loaded = std::move(*loaded);
                showMatching();
            } else {
                m_count->setText(tr("The journal cannot be read: %1").arg(loaded.error().message));
            }
        },
        [this] { return isVisible(); });
    reload();
}

GalleryPage::~GalleryPage() = default;

QString GalleryPage::title() const
{
    return tr("Gallery");
}

QIcon GalleryPage::icon() const
{
    return themedIcon(QStringLiteral(":/icons/page-gallery.svg"), palette());
}

void GalleryPage::saveState(QSettings &settings) const
{
    kLanguage.write(settings, m_language->currentData().toString());
    kSource.write(settings, m_source->currentData().toString());
    kType.write(settings, m_type->currentData().toString());
}

void GalleryPage::restoreState(const QSettings &settings)
{
    for (auto [combo, key] : {std::pair{m_language, &kLanguage}, {m_source, &kSource}, {m_type, &kType}}) {
        combo->setCurrentIndex(std::max(0, combo->findData(key->read(settings))));
    }
}

void GalleryPage::shown()
{
    m_refresh->reloadIfStale();
}

ArtifactFilter GalleryPage::filter() const
{
    ArtifactFilter filter;
    filter.runs.language = m_language->currentData().toString();
    filter.runs.sources = runSourcesFromString(m_source->currentData().toString());
    filter.mimeType = m_type->currentData().toString();
    return filter;
}

void GalleryPage::reload()
{
    m_refresh->reload();
}

void GalleryPage::waitForLoaded()
{
    m_refresh->waitForLoaded();
}

void GalleryPage::showMatching()
{
    const QString text = m_search->text().trimmed();
    if (text.isEmpty()) {
        m_model->setEntries(m_loaded);
    } else {
        QList<JournalArtifactEntry> matching;
        for (const JournalArtifactEntry &entry : std::as_const(m_loaded)) {
            for (const QString &field :
                 {entry.artifact.name, entry.clientName, entry.runId, languageText(entry.language)}) {
                if (field.contains(text, Qt::CaseInsensitive)) {
                    matching.append(entry);
                    break;
                }
            }
        }
        m_model->setEntries(std::move(matching));
    }
    updateCount();
}

void GalleryPage::updateCount()
{
    m_count->setText(tr("%n artifact(s)", nullptr, m_model->rowCount()));
    // Nothing to show: say what would be here and how to get it, or that the filters hide it.
    const bool filtered = m_language->currentIndex() > 0 || m_source->currentIndex() > 0 ||
                          m_type->currentIndex() > 0 || !m_search->text().trimmed().isEmpty();
    if (filtered) {
        m_emptyHint->setText(tr("No chart or file matches these filters. Clear them to see every one."));
    } else {
        m_emptyHint->setText(tr("No charts or files yet.\n\nCharts and files that runs write appear here. Run code "
                                "that draws a chart on the Console page, or have an assistant run some (File ▸ "
                                "Connect an Assistant…)."));
    }
    m_viewStack->setCurrentWidget(m_model->rowCount() == 0 ? static_cast<QWidget *>(m_emptyHint) : m_view);
}

ArtifactPreviewDialog *GalleryPage::openArtifact(int row)
{
    if (row < 0 || row >= m_model->rowCount()) {
        return nullptr;
    }
    auto *dialog = new ArtifactPreviewDialog(previewItems(m_model->entries()), row, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ArtifactPreviewDialog::showRunRequested, this,
            [this](const QString &runId) { emit navigate(ShowRun{runId}); });
    // A chart's data is read with its run, off this thread, when the preview shows it (lists carry only its title).
    dialog->setChartLoader([this, dialog](const PreviewItem &item, std::function<void(QJsonObject)> deliver) {
        m_feed.read<QJsonObject>(
            dialog,
            [runId = item.runId, name = item.name](const JournalReader &reader) {
                const Result<JournalRun> run = reader.run(runId);
                if (run) {
                    for (const JournalArtifact &artifact : run->artifacts) {
                        if (artifact.name == name) {
                            return artifact.chart;
                        }
                    }
                }
                return QJsonObject();
            },
            std::move(deliver));
    });
    dialog->show();
    return dialog;
}

void GalleryPage::copyImage(int row)
{
    const JournalArtifactEntry &entry = m_model->entry(row);
    // Decoded off the GUI thread; the clipboard is set when it is done.
    auto *decoding = new QFutureWatcher<QImage>(this);
    connect(decoding, &QFutureWatcher<QImage>::finished, this, [decoding] {
        if (const QImage image = decoding->result(); !image.isNull()) {
            QApplication::clipboard()->setImage(image);
        }
        decoding->deleteLater();
    });
    decoding->setFuture(QtConcurrent::run([path = entry.artifact.path, mimeType = entry.artifact.mimeType] {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? SafeImage::decode(file.readAll(), mimeType, {}) : QImage();
    }));
}

void GalleryPage::saveAs(int row)
{
    const JournalArtifactEntry &entry = m_model->entry(row);
    const QString path = ArtifactPreviewDialog::saveArtifact(
        this, PreviewItem{entry.artifact.name, entry.artifact.mimeType, {}, entry.artifact.path, entry.runId});
    // Said where the window says what just happened; the overwrite question was the file dialog's.
    if (auto *main = qobject_cast<QMainWindow *>(window()); main && !path.isEmpty()) {
        main->statusBar()->showMessage(tr("Saved to %1").arg(QDir::toNativeSeparators(path)), 8000);
    }
}

void GalleryPage::showContextMenu(const QPoint &position)
{
    const QModelIndex index = m_view->indexAt(position);
    if (!index.isValid()) {
        return;
    }
    const int row = index.row();
    QMenu menu(this);
    menu.addAction(tr("&Open"), this, [this, row] { openArtifact(row); });
    menu.addAction(tr("&Copy Image"), this, [this, row] { copyImage(row); });
    menu.addAction(tr("&Save As…"), this, [this, row] { saveAs(row); });
    menu.addSeparator();
    menu.addAction(tr("Show &Run"), this, [this, row] { emit navigate(ShowRun{m_model->entry(row).runId}); });
    menu.exec(m_view->viewport()->mapToGlobal(position));
}

} // namespace sandbox::gui
