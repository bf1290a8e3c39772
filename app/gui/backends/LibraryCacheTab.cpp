#include "gui/backends/LibraryCacheTab.h"

#include "AppContext.h"
#include "ErrorText.h"
#include "gui/RunText.h"
#include "gui/backends/BackendPanel.h"
#include "gui/backends/LibraryCacheModel.h"
#include "gui/widgets/EmptyHint.h"

#include <QAction>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::gui {

namespace {

/// How often the sets are read while the tab is shown: other processes add, use and evict them.
constexpr auto kCacheRefresh = std::chrono::seconds(5);

/// How many of `entries` `keys` names (all of them when `all`).
int countOf(const QList<LibraryCache::Entry> &entries, const QStringList &keys, bool all)
{
    return all ? int(entries.size())
               : int(std::count_if(entries.cbegin(), entries.cend(),
                                   [&](const LibraryCache::Entry &entry) { return keys.contains(entry.key); }));
}

} // namespace

LibraryCacheTab::LibraryCacheTab(AppContext &app, QWidget *parent)
    : QWidget(parent), m_cache(app.settings().libraryCacheFolder, app.settings().libraryCacheBytes)
{
    setObjectName(QStringLiteral("libraryCacheTab"));
    auto *intro = new QLabel(tr("Library sets installed once and kept for later runs on every backend: a run that "
                                "asks for the same libraries, in this app or an assistant's server, unpacks its set "
                                "instead of installing again."));
    intro->setObjectName(QStringLiteral("libraryCacheIntro"));
    intro->setWordWrap(true);

    m_model = new LibraryCacheModel(this);
    m_view = BackendPanel::makeTable(m_model, QStringLiteral("libraryCacheView"));
    // Several sets go in one Remove.
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    QHeaderView *header = m_view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The libraries take the free width (elided when short of it: the tooltip has them all).
    header->setSectionResizeMode(LibraryCacheModel::LibrariesColumn, QHeaderView::Stretch);
    header->setStretchLastSection(false);
    m_view->setTextElideMode(Qt::ElideRight);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &LibraryCacheTab::updateButtons);
    auto *removeKey = new QAction(tr("Remove"), m_view);
    removeKey->setShortcut(QKeySequence::Delete);
    removeKey->setShortcutContext(Qt::WidgetShortcut);
    connect(removeKey, &QAction::triggered, this, &LibraryCacheTab::removeSelected);
    m_view->addAction(removeKey);

    m_hint = emptyHint(QStringLiteral("libraryCacheHint"));
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_hint);

    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("libraryCacheSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse); // the folder, to copy
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("libraryCacheStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();

    m_remove = new QPushButton(tr("Remove"));
    m_remove->setObjectName(QStringLiteral("removeLibraries"));
    m_remove->setToolTip(tr("Remove the selected library sets from the cache (Delete); the next run with them "
                            "installs them again."));
    connect(m_remove, &QPushButton::clicked, this, &LibraryCacheTab::removeSelected);
    m_clear = new QPushButton(tr("Clear Cache"));
    m_clear->setObjectName(QStringLiteral("clearLibraryCache"));
    m_clear->setToolTip(tr("Remove every library set from the cache (llm-sandbox libraries prune)."));
    connect(m_clear, &QPushButton::clicked, this, &LibraryCacheTab::clear);
    m_refresh = new QPushButton(tr("Refresh"));
    m_refresh->setObjectName(QStringLiteral("refreshLibraryCache"));
    connect(m_refresh, &QPushButton::clicked, this, &LibraryCacheTab::refresh);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_remove);
    buttons->addStretch();
    buttons->addWidget(m_clear);
    buttons->addWidget(m_refresh);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_status);
    layout->addLayout(buttons);

    connect(&m_reading, &QFutureWatcherBase::finished, this, [this] {
        showEntries(m_reading.result());
        emit entriesLoaded();
    });
    connect(&m_removing, &QFutureWatcherBase::finished, this, [this] {
        const Removed removed = m_removing.result();
        m_status->setText(
            removed.bytes
                ? tr("Removed %n library set(s), %1 freed.", nullptr, removed.sets).arg(dataSizeText(*removed.bytes))
                : errorText(removed.bytes.error()));
        m_status->show();
        updateButtons();
        refresh();
        emit removeFinished();
    });
    m_timer = new QTimer(this);
    m_timer->setInterval(kCacheRefresh);
    connect(m_timer, &QTimer::timeout, this, &LibraryCacheTab::refresh);

    if (!m_cache.isEnabled()) {
        m_hint->setText(tr("The library cache is off: this app was started with LLM_SANDBOX_LIBRARY_CACHE=off, so "
                           "every run with libraries installs them.\n\nTo keep installed library sets for later runs, "
                           "start the app without that variable, or with it set to a folder."));
        m_stack->setCurrentWidget(m_hint);
        for (QWidget *unused : std::initializer_list<QWidget *>{m_summary, m_remove, m_clear, m_refresh}) {
            unused->hide();
        }
    }
    updateButtons();
}

LibraryCacheTab::~LibraryCacheTab()
{
    for (QFutureWatcherBase *watcher : std::initializer_list<QFutureWatcherBase *>{&m_reading, &m_removing}) {
        watcher->disconnect(this);
        watcher->waitForFinished();
    }
}

void LibraryCacheTab::refresh()
{
    if (!m_cache.isEnabled() || m_reading.isRunning()) {
        return;
    }
    m_reading.setFuture(QtConcurrent::run([cache = m_cache] { return cache.entries(); }));
}

void LibraryCacheTab::showEntries(const QList<LibraryCache::Entry> &entries)
{
    m_model->setEntries(entries);
    // The header sizes its columns to their contents when it is laid out again, not when rows come or change: a mode
    // set (the same) has it do that, and give the libraries what is left.
    m_view->horizontalHeader()->setSectionResizeMode(LibraryCacheModel::LibrariesColumn, QHeaderView::Stretch);
    m_summary->setText(tr("%n set(s), %1 of %2 in %3", nullptr, int(entries.size()))
                           .arg(dataSizeText(m_model->totalBytes()), dataSizeText(m_cache.capBytes()),
                                QDir::toNativeSeparators(m_cache.folder())));
    if (entries.isEmpty()) {
        m_hint->setText(tr("No library sets are kept yet.\n\nA run with libraries keeps the set it installed here, "
                           "and the next run with the same libraries unpacks it instead of installing again."));
        m_stack->setCurrentWidget(m_hint);
    } else {
        m_stack->setCurrentWidget(m_view);
    }
    updateButtons();
}

QStringList LibraryCacheTab::selectedKeys() const
{
    QStringList keys;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_view->selectionModel()->isRowSelected(row)) {
            keys << m_model->entries().at(row).key;
        }
    }
    return keys;
}

void LibraryCacheTab::remove(const QStringList &keys, bool all)
{
    // No key would be every set to prune().
    if (!m_cache.isEnabled() || m_removing.isRunning() || (!all && keys.isEmpty())) {
        return;
    }
    m_removing.setFuture(QtConcurrent::run([cache = m_cache, keys, all]() mutable {
        const int before = countOf(cache.entries(), keys, all);
        Removed removed;
        removed.bytes = cache.prune(all ? QStringList() : keys);
        removed.sets = before - countOf(cache.entries(), keys, all);
        return removed;
    }));
    updateButtons();
}

void LibraryCacheTab::removeSelected()
{
    const QStringList keys = selectedKeys();
    if (keys.isEmpty() || busy()) {
        return;
    }
    qint64 bytes = 0;
    const LibraryCache::Entry *first = nullptr;
    for (const LibraryCache::Entry &entry : m_model->entries()) {
        if (keys.contains(entry.key)) {
            bytes += entry.archiveBytes;
            first = first ? first : &entry;
        }
    }
    QMessageBox question(QMessageBox::Question, tr("Remove Library Sets"),
                         keys.size() == 1
                             ? tr("Remove the %1 libraries %2 from the library cache?")
                                   .arg(languageText(first->language), first->libraries.join(QStringLiteral(", ")))
                             : tr("Remove %n library set(s) from the library cache?", nullptr, int(keys.size())),
                         QMessageBox::NoButton, this);
    question.setObjectName(QStringLiteral("removeLibrariesQuestion"));
    question.setInformativeText(
        tr("This frees %1; the next run with these libraries installs them again.").arg(dataSizeText(bytes)));
    QPushButton *removeButton = question.addButton(tr("Remove"), QMessageBox::AcceptRole);
    question.addButton(QMessageBox::Cancel);
    question.setDefaultButton(QMessageBox::Cancel);
    question.exec();
    // The sets asked about, whatever a refresh did to the selection meanwhile.
    if (question.clickedButton() == removeButton) {
        remove(keys);
    }
}

void LibraryCacheTab::clear()
{
    if (m_model->rowCount() == 0 || busy()) {
        return;
    }
    QMessageBox question(QMessageBox::Question, tr("Clear Library Cache"),
                         tr("Remove all %n library set(s) from the cache?", nullptr, m_model->rowCount()),
                         QMessageBox::NoButton, this);
    question.setObjectName(QStringLiteral("clearLibraryCacheQuestion"));
    question.setInformativeText(tr("This frees %1; the next run with any of these libraries installs them again.")
                                    .arg(dataSizeText(m_model->totalBytes())));
    QPushButton *clearButton = question.addButton(tr("Clear Cache"), QMessageBox::AcceptRole);
    question.addButton(QMessageBox::Cancel);
    question.setDefaultButton(QMessageBox::Cancel);
    question.exec();
    if (question.clickedButton() == clearButton) {
        remove({}, true);
    }
}

QString LibraryCacheTab::summary() const
{
    return m_summary->text();
}

QString LibraryCacheTab::status() const
{
    return m_status->text();
}

bool LibraryCacheTab::busy() const
{
    return m_removing.isRunning();
}

void LibraryCacheTab::updateButtons()
{
    m_remove->setEnabled(!busy() && m_view->selectionModel()->hasSelection());
    m_clear->setEnabled(!busy() && m_model->rowCount() > 0);
}

void LibraryCacheTab::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_cache.isEnabled()) {
        return;
    }
    refresh();
    m_timer->start();
}

void LibraryCacheTab::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_timer->stop();
}

} // namespace sandbox::gui
