// The real window at 1024 × 768 and 1920 × 1080, in English and in Simplified Chinese, over a journal written in the
// test (the engines unreachable: no container is started), the first row of each table selected: on every page and
// dialog, no label's, button's, combo box's or placeholder's text is wider than the room it has, no table cell on
// screen or header section elides, no table's columns go beyond its width, and the page fits the window. One test per
// page, size and language, so that one page can be checked alone: --gtest_filter='*historyPage*'.
#include "OfflineApp.h"
#include "ScopedEnvironment.h"
#include "TestImages.h"
#include "gui/DesktopApp.h"
#include "gui/MainWindow.h"
#include "gui/backends/BackendsPage.h"
#include "gui/backends/LibraryCacheModel.h"
#include "gui/backends/LibraryCacheTab.h"
#include "gui/connect/ConnectAssistantDialog.h"
#include "gui/gallery/GalleryPage.h"
#include "gui/settings/FoldersPage.h"
#include "gui/settings/NetworkPage.h"
#include "gui/settings/NetworkSecretDialog.h"
#include "gui/settings/NetworkSecretModel.h"
#include "gui/settings/NetworkSecretsPanel.h"
#include "gui/settings/SettingsDialog.h"
#include "gui/widgets/ArtifactPreviewDialog.h"
#include "journal/JournalRecorder.h"
#include "libraries/LibraryCache.h"
#include "secrets/MemorySecretStore.h"

#include <QAbstractButton>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStyleOptionButton>
#include <QStyleOptionComboBox>
#include <QStyleOptionFrame>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QToolButton>
#include <QTranslator>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

/// The text a button shows: its mnemonic marks removed.
QString shownText(QString text)
{
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    return text.replace(QLatin1Char('\x01'), QLatin1Char('&'));
}

/// Where a widget is: its named ancestors and its own name or class.
QString pathOf(const QWidget *widget)
{
    QStringList parts;
    for (const QObject *at = widget; at; at = at->parent()) {
        if (!at->objectName().isEmpty() && !at->objectName().startsWith(QLatin1String("qt_"))) {
            parts.prepend(at->objectName());
        }
    }
    if (widget->objectName().isEmpty()) {
        parts.append(QString::fromLatin1(widget->metaObject()->className()));
    }
    return parts.join(QLatin1Char('/'));
}

/// QHeaderView::sectionSizeFromContents (protected): the size a section needs for its text, icon and sort arrow.
struct HeaderAccess : QHeaderView
{
    static QSize needed(const QHeaderView *header, int logical)
    {
        return (header->*&HeaderAccess::sectionSizeFromContents)(logical);
    }
};

/// How much wider (or, wrapped, higher) than its room a label's text is; 0 when it fits.
int labelOverflow(const QLabel *label, QString *text)
{
    // A label with a buddy shows its mnemonic underlined, without the '&'.
    *text = label->buddy() ? shownText(label->text()) : label->text();
    if (text->isEmpty() || !label->pixmap().isNull()) {
        return 0;
    }
    QRect room = label->contentsRect().adjusted(label->margin(), label->margin(), -label->margin(), -label->margin());
    const bool rich =
        label->textFormat() == Qt::RichText || (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(*text));
    if (label->wordWrap()) {
        // A wrapped label fits when the lines it wraps into are as high as it is.
        const int height = label->heightForWidth(label->width());
        return std::max(0, height - label->height());
    }
    int width = 0;
    if (rich) {
        QTextDocument document;
        document.setDefaultFont(label->font());
        document.setDocumentMargin(0);
        document.setHtml(*text);
        width = int(std::ceil(document.idealWidth()));
        *text = document.toPlainText();
    } else {
        for (const QString &line : text->split(QLatin1Char('\n'))) {
            width = std::max(width, label->fontMetrics().horizontalAdvance(line));
        }
    }
    return std::max(0, width - room.width());
}

/// How much wider than its room a button's text (and icon) is; 0 when it fits.
int buttonOverflow(const QAbstractButton *button, QString *text)
{
    *text = shownText(button->text());
    if (text->isEmpty()) {
        return 0;
    }
    const int textWidth = button->fontMetrics().horizontalAdvance(*text);
    const int iconWidth = button->icon().isNull() ? 0 : button->iconSize().width() + 4;
    if (const auto *tool = qobject_cast<const QToolButton *>(button)) {
        if (tool->toolButtonStyle() == Qt::ToolButtonIconOnly && !tool->icon().isNull()) {
            return 0;
        }
        return std::max(0, tool->sizeHint().width() - tool->width());
    }
    QStyleOptionButton option;
    option.initFrom(button);
    option.text = *text;
    option.icon = button->icon();
    option.iconSize = button->iconSize();
    QStyle::SubElement contents = QStyle::SE_PushButtonContents;
    if (qobject_cast<const QCheckBox *>(button)) {
        contents = QStyle::SE_CheckBoxContents;
    } else if (qobject_cast<const QRadioButton *>(button)) {
        contents = QStyle::SE_RadioButtonContents;
    } else if (const auto *push = qobject_cast<const QPushButton *>(button); push && push->menu()) {
        option.features |= QStyleOptionButton::HasMenu;
    }
    const QRect room = button->style()->subElementRect(contents, &option, button);
    int needed = textWidth + iconWidth;
    if (option.features & QStyleOptionButton::HasMenu) {
        needed += button->style()->pixelMetric(QStyle::PM_MenuButtonIndicator, &option, button);
    }
    return std::max(0, needed - room.width());
}

/// How much wider than its edit field a combo box's current text (and icon) is; 0 when it fits.
int comboOverflow(const QComboBox *combo, QString *text)
{
    *text = combo->currentText();
    if (text->isEmpty() || combo->isEditable()) {
        return 0;
    }
    QStyleOptionComboBox option;
    option.initFrom(combo);
    option.currentText = *text;
    option.currentIcon = combo->itemIcon(combo->currentIndex());
    option.iconSize = combo->iconSize();
    option.frame = combo->hasFrame();
    const QRect room =
        combo->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, combo);
    const int icon = option.currentIcon.isNull() ? 0 : option.iconSize.width() + 4;
    return std::max(0, combo->fontMetrics().horizontalAdvance(*text) + icon - room.width());
}

/// How much wider than the field a line edit's placeholder is, while it shows; 0 when it fits.
int placeholderOverflow(const QLineEdit *edit, QString *text)
{
    *text = edit->placeholderText();
    if (!edit->text().isEmpty() || text->isEmpty()) {
        return 0;
    }
    QStyleOptionFrame option;
    option.initFrom(edit);
    option.lineWidth = edit->hasFrame() ? edit->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, &option, edit) : 0;
    QRect room = edit->style()->subElementRect(QStyle::SE_LineEditContents, &option, edit);
    const QMargins margins = edit->textMargins();
    room = room.marginsRemoved(margins);
    // The clear button and actions take their room from the right (QLineEdit's side widgets).
    for (const QAction *action : edit->actions()) {
        if (action->isVisible()) {
            room.setRight(room.right() - edit->height());
        }
    }
    // QLineEdit keeps 2 px of horizontal margin inside the contents rectangle.
    return std::max(0, edit->fontMetrics().horizontalAdvance(*text) - (room.width() - 4));
}

/// The cells of `view` on screen whose text is cut (elided) by their column's width.
void reportCutCells(const QAbstractItemView *view, const std::function<void(const QString &, int)> &report)
{
    const QAbstractItemModel *model = view->model();
    if (!model || qobject_cast<const QListView *>(view)) {
        return; // a list's items wrap or elide by design (the navigation, the gallery's names)
    }
    const QRect visible = view->viewport()->rect();
    for (int row = 0; row < model->rowCount(); ++row) {
        for (int column = 0; column < model->columnCount(); ++column) {
            const QModelIndex index = model->index(row, column);
            const QRect cell = view->visualRect(index);
            if (!cell.isValid() || !visible.intersects(cell)) {
                continue;
            }
            const QString text = index.data().toString();
            if (text.isEmpty()) {
                continue;
            }
            QStyleOptionViewItem option;
            option.initFrom(view);
            option.font = view->font();
            option.fontMetrics = view->fontMetrics();
            option.rect = cell;
            const int icon = view->iconSize().isValid() ? view->iconSize().width()
                                                        : view->style()->pixelMetric(QStyle::PM_SmallIconSize);
            option.decorationSize = QSize(icon, icon);
            const int needed = view->itemDelegateForIndex(index)->sizeHint(option, index).width();
            report(QStringLiteral("row %1, column %2: %3").arg(row).arg(column).arg(text.left(60)),
                   needed - cell.width());
        }
    }
}

/// The texts of a chart that are cut ("…") or left out: an axis's label, the title, a legend entry. Qt Charts draws
/// each as a QGraphicsTextItem of the view's scene; it elides what is too long and hides a category's label that would
/// overlap its neighbour's.
void reportCutChartTexts(const QChartView *view, const std::function<void(const QString &, int)> &report)
{
    QStringList shown;
    // What the view shows of its scene (a chart larger than its view is cut at the view's edges).
    const QRectF chartRect =
        view->chart()->sceneBoundingRect().intersected(view->mapToScene(view->viewport()->rect()).boundingRect());
    for (QGraphicsItem *item : view->scene()->items()) {
        const auto *text =
            item->toGraphicsObject() ? qobject_cast<QGraphicsTextItem *>(item->toGraphicsObject()) : nullptr;
        if (!text || !text->isVisible() || text->toPlainText().trimmed().isEmpty()) {
            continue;
        }
        const QString plain = text->toPlainText();
        shown << plain;
        if (plain.contains(QChar(0x2026)) || plain.contains(QLatin1String("..."))) {
            report(plain + QStringLiteral(" (elided)"), 2);
        }
        // Drawn beyond the chart or the view (a rotated label below the bottom edge) is cut.
        const QRectF drawn = text->sceneBoundingRect();
        const int beyond =
            int(std::ceil(std::max({chartRect.left() - drawn.left(), drawn.right() - chartRect.right(),
                                    chartRect.top() - drawn.top(), drawn.bottom() - chartRect.bottom(), 0.0})));
        report(plain + QStringLiteral(" (beyond the chart)"), beyond);
    }
    for (QAbstractAxis *axis : view->chart()->axes()) {
        if (auto *names = qobject_cast<QBarCategoryAxis *>(axis)) {
            for (const QString &name : names->categories()) {
                if (!name.trimmed().isEmpty() && !shown.contains(name)) {
                    report(name + QStringLiteral(" (a category's label left out)"), 2);
                }
            }
        }
    }
}

/// Every visible label, button and header section under `root` whose text does not fit, one line each.
QStringList clippedTexts(const QWidget *root)
{
    QStringList found;
    const auto report = [&](const QWidget *widget, const QString &text, int overflow) {
        // A pixel of rounding is no clipping.
        if (overflow > 1) {
            found.append(
                QStringLiteral("%1: \"%2\" needs %3 px more").arg(pathOf(widget), text.left(80)).arg(overflow));
        }
    };
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(const_cast<QWidget *>(root));
    for (const QWidget *widget : std::as_const(widgets)) {
        // A chart is drawn on its viewport, which covers the view.
        if (const auto *chart = qobject_cast<const QChartView *>(widget); chart && chart->isVisible()) {
            reportCutChartTexts(chart, [&](const QString &what, int overflow) { report(widget, what, overflow); });
            continue;
        }
        if (!widget->isVisible() || widget->visibleRegion().isEmpty()) {
            continue;
        }
        QString text;
        if (const auto *label = qobject_cast<const QLabel *>(widget)) {
            report(widget, text, labelOverflow(label, &text));
        } else if (const auto *button = qobject_cast<const QAbstractButton *>(widget)) {
            report(widget, text, buttonOverflow(button, &text));
        } else if (const auto *combo = qobject_cast<const QComboBox *>(widget)) {
            report(widget, text, comboOverflow(combo, &text));
        } else if (const auto *edit = qobject_cast<const QLineEdit *>(widget)) {
            report(widget, text, placeholderOverflow(edit, &text));
        } else if (const auto *view = qobject_cast<const QAbstractItemView *>(widget)) {
            reportCutCells(view, [&](const QString &cell, int overflow) { report(widget, cell, overflow); });
        } else if (const auto *header = qobject_cast<const QHeaderView *>(widget);
                   header && header->orientation() == Qt::Horizontal && header->model()) {
            for (int logical = 0; logical < header->count(); ++logical) {
                if (header->isSectionHidden(logical) || header->sectionSize(logical) == 0) {
                    continue;
                }
                const QString title = header->model()->headerData(logical, Qt::Horizontal).toString();
                report(widget, QStringLiteral("%1 (column %2)").arg(title).arg(logical),
                       HeaderAccess::needed(header, logical).width() - header->sectionSize(logical));
            }
            // Columns pushed out of the view (behind a scroll bar) at the window's size.
            report(widget, QStringLiteral("(columns beyond the table's width)"),
                   header->length() - header->offset() - header->viewport()->width());
        }
    }
    return found;
}

QByteArray png(QColor color)
{
    return guitest::png(color, {480, 320});
}

/// A journal with what a user has after a first hour: runs of every source and outcome, with charts.
void writeJournal(const QString &path)
{
    JournalRecorder recorder(path, JournalRecorder::Context{QStringLiteral("docker"), {}, {}, {}});
    // Every source, six MCP clients (one unnamed) and seven languages, as the statistics page counts them; durations
    // from milliseconds to minutes.
    const struct
    {
        const char *id, *language, *origin, *client;
        int exitCode;
        StopReason stop;
        bool chart;
        qint64 durationMs;
    } runs[] = {
        {"ruby-cpu-limit", "ruby", "gui", "", 137, StopReason::CpuLimit, false, 125'000},
        {"go-cursor", "go", "mcp", "cursor", 0, StopReason::Exited, false, 28'450},
        {"java-vscode", "java", "mcp", "vscode", 0, StopReason::Exited, false, 125'000},
        {"cpp-unnamed", "cpp", "mcp", "", 0, StopReason::Exited, false, 840},
        {"python-http-unnamed", "python", "http", "", 0, StopReason::Exited, false, 2'350},
        {"python-replay", "python", "replay", "", 0, StopReason::Exited, false, 1'234},
        {"python-chart", "python", "mcp", "claude-ai", 0, StopReason::Exited, true, 1'234},
        {"r-error", "r", "gui", "", 1, StopReason::Exited, false, 1'234},
        {"javascript-timeout", "javascript", "cli", "", 137, StopReason::TimedOut, false, 1'234},
        {"python-stopped", "python", "http", "claude-ai", 137, StopReason::Cancelled, true, 1'234},
        {"ruby-ok", "ruby", "gui", "", 0, StopReason::Exited, false, 1'234},
    };
    for (const auto &run : runs) {
        RunRequest request;
        request.language = QString::fromLatin1(run.language);
        request.source = *runSourceFromString(QString::fromLatin1(run.origin));
        request.code = QStringLiteral("print('hello')\n");
        if (*run.client) {
            request.clientName = QString::fromLatin1(run.client);
            request.clientVersion = QStringLiteral("0.1.0");
        }
        recorder.runStarted(QString::fromLatin1(run.id), request);
        recorder.runOutput(QString::fromLatin1(run.id), OutputStream::Stdout, "hello\n");
        if (run.chart) {
            Artifact chart;
            chart.name = QStringLiteral("figure_1.png");
            chart.mimeType = QStringLiteral("image/png");
            chart.data = png(Qt::darkCyan);
            recorder.runArtifact(QString::fromLatin1(run.id), chart);
        }
        RunResult result;
        result.runId = QString::fromLatin1(run.id);
        result.exitCode = run.exitCode;
        result.reason = run.stop;
        result.durationMs = run.durationMs;
        recorder.runFinished(QString::fromLatin1(run.id), result, std::nullopt);
    }
    recorder.flush();
}

/// A library cache as a user has it after a few runs with libraries: sets of three languages, one used again.
void fillLibraryCache(const QString &folder)
{
    LibraryCache cache(folder, 2LL * 1024 * 1024 * 1024);
    const struct
    {
        char digit;
        const char *language;
        QStringList libraries;
        int packedKb;
        qint64 unpackedMb;
    } sets[] = {
        {'a', "python", {QStringLiteral("numpy"), QStringLiteral("pandas"), QStringLiteral("matplotlib")}, 2900, 312},
        {'b', "javascript", {QStringLiteral("lodash"), QStringLiteral("date-fns")}, 900, 41},
        {'c', "r", {QStringLiteral("jsonlite"), QStringLiteral("ggplot2")}, 1800, 96},
        {'d', "python", {QStringLiteral("requests"), QStringLiteral("beautifulsoup4")}, 600, 12},
    };
    for (const auto &set : sets) {
        LibraryCache::Entry entry;
        entry.key = QString(64, QLatin1Char(set.digit));
        entry.language = QString::fromLatin1(set.language);
        entry.libraries = set.libraries;
        entry.image = QStringLiteral("llm-sandbox/%1:1").arg(entry.language);
        entry.unpackedBytes = set.unpackedMb * 1024 * 1024;
        EXPECT_TRUE(cache.store(entry, QByteArray(set.packedKb * 1024, set.digit)).ok());
    }
    EXPECT_TRUE(cache.find(QString(64, QLatin1Char('b'))).has_value());
}

struct Layout
{
    /// a page's objectName, or a dialog: "settingsDialog" (its Folders tab: "settingsFoldersDialog", its Network tab:
    /// "settingsNetworkDialog"), "secretDialog" (Network's Add Secret), "connectDialog", "previewDialog"; the Backends
    /// page's library cache: "libraryCacheTab"
    const char *page;
    QSize size;
    const char *language;
    int pointSize = 0; ///< the application font's size; 0: the platform's (9 pt here)
};

void PrintTo(const Layout &layout, std::ostream *out)
{
    *out << layout.page << " at " << layout.size.width() << " x " << layout.size.height() << " in " << layout.language;
    if (layout.pointSize > 0) {
        *out << " at " << layout.pointSize << " pt";
    }
}

std::string nameOf(const ::testing::TestParamInfo<Layout> &info)
{
    return QStringLiteral("%1_%2x%3_%4%5")
        .arg(QLatin1String(info.param.page))
        .arg(info.param.size.width())
        .arg(info.param.size.height())
        .arg(QLatin1String(info.param.language),
             info.param.pointSize > 0 ? QStringLiteral("_%1pt").arg(info.param.pointSize) : QString())
        .toStdString();
}

class ClippedTextTest : public ::testing::TestWithParam<Layout>
{
protected:
    void SetUp() override
    {
        if (QLatin1String(GetParam().language) != QLatin1String("en")) {
            const QLocale locale(QString::fromLatin1(GetParam().language));
            ASSERT_TRUE(m_translation.load(locale, QStringLiteral("llm-sandbox"), QStringLiteral("_"),
                                           QStringLiteral(":/i18n")));
            QCoreApplication::installTranslator(&m_translation);
            if (m_qtTranslation.load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                                     QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
                QCoreApplication::installTranslator(&m_qtTranslation);
            }
            QLocale::setDefault(locale);
        }
        if (GetParam().pointSize > 0) {
            QFont font = m_font;
            font.setPointSize(GetParam().pointSize);
            QApplication::setFont(font);
        }
        writeJournal(m_app.journalPath());
    }
    void TearDown() override
    {
        QCoreApplication::removeTranslator(&m_translation);
        QCoreApplication::removeTranslator(&m_qtTranslation);
        QLocale::setDefault(m_locale);
        QApplication::setFont(m_font);
    }

    /// The window at the layout's size, on its page.
    std::unique_ptr<MainWindow> window(const char *page)
    {
        auto made = std::make_unique<MainWindow>(m_desktop);
        made->resize(GetParam().size);
        made->show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(made.get()));
        auto *pages = made->findChild<QStackedWidget *>(QStringLiteral("pages"));
        for (int index = 0; index < pages->count(); ++index) {
            if (pages->widget(index)->objectName() == QLatin1String(page)) {
                made->showPage(index);
            }
        }
        EXPECT_EQ(pages->currentWidget()->objectName(), QLatin1String(page));
        settle();
        // A run selected, as a user would, so that its details are shown too.
        for (QAbstractItemView *view : pages->currentWidget()->findChildren<QAbstractItemView *>()) {
            if (view->isVisible() && view->model() && view->model()->rowCount() > 0 &&
                !view->currentIndex().isValid() && !qobject_cast<QListView *>(view)) {
                view->setCurrentIndex(view->model()->index(0, 0));
            }
        }
        // The page fits the window at this size (a page that needs more makes the window larger than the screen).
        const int room = GetParam().size.height() - (made->height() - pages->height());
        EXPECT_LE(pages->currentWidget()->minimumSizeHint().height(), room)
            << page << " needs more height than the window has for it";
        settle();
        return made;
    }
    /// Lets the journal's reads, the thumbnails and the layouts finish.
    static void settle()
    {
        QTest::qWait(600);
        QCoreApplication::processEvents();
    }

    // The library cache the Backends page shows (the tests' environment turns it off).
    QTemporaryDir m_libraryCache;
    test::ScopedEnvironment m_libraryCacheFolder{{"LLM_SANDBOX_LIBRARY_CACHE", m_libraryCache.path().toUtf8()}};
    guitest::OfflineApp m_app;
    DesktopApp m_desktop{m_app.context()};
    const QLocale m_locale;
    const QFont m_font = QApplication::font();
    QTranslator m_translation, m_qtTranslation;
};

} // namespace

TEST_P(ClippedTextTest, noTextIsClipped)
{
    const QLatin1String page(GetParam().page);
    std::unique_ptr<MainWindow> main = window(page == QLatin1String("previewDialog")     ? "galleryPage"
                                              : page == QLatin1String("libraryCacheTab") ? "backendsPage"
                                              : page.endsWith(QLatin1String("Dialog"))   ? "liveLogPage"
                                                                                         : GetParam().page);
    QStringList clipped;
    if (page == QLatin1String("libraryCacheTab")) {
        // Its sets, the first selected.
        fillLibraryCache(m_libraryCache.path());
        auto *backends = main->findChild<BackendsPage *>();
        QSignalSpy loaded(backends->libraryCache(), &LibraryCacheTab::entriesLoaded);
        backends->showBackend(QString(BackendsPage::kLibraryCache));
        ASSERT_TRUE(loaded.wait(5000));
        ASSERT_EQ(backends->libraryCache()->model()->rowCount(), 4);
        auto *view = backends->findChild<QTableView *>(QStringLiteral("libraryCacheView"));
        view->selectRow(0);
        settle();
        clipped = clippedTexts(main.get());
    } else if (page == QLatin1String("settingsDialog") || page == QLatin1String("settingsFoldersDialog") ||
               page == QLatin1String("settingsNetworkDialog")) {
        QTemporaryDir data;
        // Two secrets bound to hosts, as a user who keeps tokens for GitHub and an API has them.
        const test::ScopedEnvironment secretsFile{
            {"LLM_SANDBOX_SECRETS_FILE", data.filePath(QStringLiteral("secrets.json")).toUtf8()}};
        if (page == QLatin1String("settingsNetworkDialog")) {
            auto github = NetworkSecret::make(QStringLiteral("GITHUB_TOKEN"),
                                              {QStringLiteral("api.github.com"), QStringLiteral("uploads.github.com")},
                                              QStringLiteral("Authorization: Bearer {}"));
            auto key = NetworkSecret::make(QStringLiteral("WEATHER_API_KEY"), {QStringLiteral("api.weather.example")},
                                           QStringLiteral("X-Api-Key: {}"));
            ASSERT_TRUE(github && key);
            ASSERT_TRUE(NetworkSecretsFile::save({*github, *key}));
        }
        MemorySecretStore keychain;
        SettingsDialog dialog(m_app.context().userSettings(), keychain, main.get());
        if (page == QLatin1String("settingsFoldersDialog")) {
            // Its Folders tab with two folders, one whose results may be saved there.
            dialog.showFolders();
            auto *folders = dialog.findChild<FoldersPage *>();
            ASSERT_TRUE(QDir(data.path()).mkpath(QStringLiteral("Sales Data 2026")));
            ASSERT_TRUE(QDir(data.path()).mkpath(QStringLiteral("results")));
            ASSERT_TRUE(folders->addFolder(data.filePath(QStringLiteral("Sales Data 2026"))));
            ASSERT_TRUE(folders->addFolder(data.filePath(QStringLiteral("results"))));
            folders->findChild<QCheckBox *>(QStringLiteral("foldersWritable"))->setChecked(true);
            folders->setFocus(); // the name's editor closes
        } else if (page == QLatin1String("settingsNetworkDialog")) {
            // Its Network tab with two hosts allowed and the secrets above.
            dialog.showNetwork();
            auto *network = dialog.findChild<NetworkPage *>();
            ASSERT_TRUE(network->addHost(QStringLiteral("api.github.com")));
            ASSERT_TRUE(network->addHost(QStringLiteral("api.weather.example")));
            ASSERT_EQ(network->secrets().model().rowCount(), 2);
        }
        dialog.show();
        settle();
        clipped = clippedTexts(&dialog);
        // The whole dialog on a screen of this size.
        EXPECT_LE(dialog.frameGeometry().height(), GetParam().size.height());
        if (page == QLatin1String("settingsNetworkDialog")) {
            // ... and its Add Secret dialog, saying what is wrong with a name.
            NetworkSecretDialog *adding = dialog.findChild<NetworkPage *>()->secrets().addSecret();
            ASSERT_NE(adding, nullptr);
            adding->findChild<QLineEdit *>(QStringLiteral("secretName"))->setText(QStringLiteral("github-token"));
            adding->findChild<QLineEdit *>(QStringLiteral("secretHosts"))->setText(QStringLiteral("api.github.com"));
            ASSERT_FALSE(adding->problem().isEmpty());
            settle();
            clipped += clippedTexts(adding);
            adding->reject();
        }
    } else if (page == QLatin1String("connectDialog")) {
        MemorySecretStore keychain;
        ConnectAssistantDialog dialog(keychain, QStringLiteral("docker"), main.get());
        dialog.show();
        settle();
        clipped = clippedTexts(&dialog);
    } else if (page == QLatin1String("previewDialog")) {
        ArtifactPreviewDialog *dialog = main->findChild<GalleryPage *>()->openArtifact(0);
        ASSERT_NE(dialog, nullptr);
        dialog->waitForDecoded();
        settle();
        clipped = clippedTexts(dialog);
        dialog->close();
    } else {
        // The page, its window's navigation and status bar.
        clipped = clippedTexts(main.get());
    }
    EXPECT_TRUE(clipped.isEmpty()) << "clipped at " << GetParam().size.width() << " x " << GetParam().size.height()
                                   << " in " << GetParam().language << ":\n"
                                   << qPrintable(clipped.join(QLatin1Char('\n')));
}

namespace {

std::vector<Layout> everyLayout()
{
    std::vector<Layout> layouts;
    for (const char *page : {"liveLogPage", "consolePage", "historyPage", "galleryPage", "statisticsPage",
                             "backendsPage", "libraryCacheTab", "serverPage", "settingsDialog", "settingsFoldersDialog",
                             "settingsNetworkDialog", "connectDialog", "previewDialog"}) {
        for (const QSize size : {QSize(1024, 768), QSize(1920, 1080)}) {
            for (const char *language : {"en", "zh_CN"}) {
                layouts.push_back({page, size, language});
            }
        }
    }
    // The run tables at the width where their run pane first goes beside the table (1400 px, as a laptop has).
    for (const char *page : {"liveLogPage", "historyPage"}) {
        for (const char *language : {"en", "zh_CN"}) {
            layouts.push_back({page, QSize(1400, 900), language});
        }
    }
    // The charts at 11 pt, the font many desktops (GNOME's) give applications, in a small window. (The run tables
    // there elide their source and code columns, whole in the tooltips, as they are made to when short of room.)
    for (const char *language : {"en", "zh_CN"}) {
        layouts.push_back({"statisticsPage", QSize(1024, 768), language, 11});
    }
    return layouts;
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Pages, ClippedTextTest, ::testing::ValuesIn(everyLayout()), nameOf);
