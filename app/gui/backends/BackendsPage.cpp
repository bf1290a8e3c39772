#include "gui/backends/BackendsPage.h"

#include "backend/BackendFactory.h"
#include "gui/RunText.h"
#include "gui/backends/BackendPanel.h"
#include "gui/backends/LibraryCacheTab.h"
#include "gui/widgets/ThemedIcon.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QListWidget>
#include <QStackedWidget>
#include <QStyle>

namespace sandbox::gui {

namespace {

const SettingsKey<QString> kShownBackend{"backend"};

} // namespace

BackendsPage::BackendsPage(AppContext &app, SecretStore &secrets, QWidget *parent) : Page(parent)
{
    setObjectName(QStringLiteral("backendsPage"));
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("backendList"));
    m_list->setIconSize(QSize(20, 20));
    m_list->setSpacing(2);
    m_panels = new QStackedWidget;
    m_panels->setObjectName(QStringLiteral("backendPanels"));
    for (const QString &name : BackendFactory::names()) {
        auto *item = new QListWidgetItem(style()->standardIcon(QStyle::SP_DriveNetIcon), backendText(name));
        item->setData(Qt::UserRole, name);
        m_list->addItem(item);
        auto *panel = new BackendPanel(app, secrets, name);
        connect(panel, &BackendPanel::connectionApplied, this, &BackendsPage::connectionApplied);
        connect(panel, &BackendPanel::showRunRequested, this,
                [this](const QString &runId) { emit navigate(FollowRun{runId}); });
        m_panels->addWidget(panel);
    }
    // Apart from the backends, below a line that cannot be chosen (the arrow keys pass it): what serves them all.
    auto *separator = new QListWidgetItem;
    separator->setFlags(Qt::NoItemFlags);
    separator->setSizeHint(QSize(0, 9));
    m_list->addItem(separator);
    auto *line = new QFrame;
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);
    m_list->setItemWidget(separator, line);
    m_panels->addWidget(new QWidget); // the separator's
    auto *cacheItem = new QListWidgetItem(style()->standardIcon(QStyle::SP_DirIcon), tr("Library cache"));
    cacheItem->setData(Qt::UserRole, QString(kLibraryCache));
    cacheItem->setToolTip(tr("The library sets installed once and kept for later runs of every backend"));
    m_list->addItem(cacheItem);
    m_libraryCache = new LibraryCacheTab(app);
    m_panels->addWidget(m_libraryCache);

    m_list->setFixedWidth(m_list->sizeHintForColumn(0) + 48);
    connect(m_list, &QListWidget::currentRowChanged, m_panels, &QStackedWidget::setCurrentIndex);
    m_list->setCurrentRow(0);

    auto *layout = new QHBoxLayout(this);
    layout->addWidget(m_list);
    layout->addWidget(m_panels, 1);
}

QString BackendsPage::title() const
{
    return tr("Backends");
}

QIcon BackendsPage::icon() const
{
    return themedIcon(QStringLiteral(":/icons/page-backends.svg"), palette());
}

void BackendsPage::saveState(QSettings &settings) const
{
    if (const QListWidgetItem *item = m_list->currentItem()) {
        kShownBackend.write(settings, item->data(Qt::UserRole).toString());
    }
}

void BackendsPage::restoreState(const QSettings &settings)
{
    showBackend(kShownBackend.read(settings));
}

BackendPanel *BackendsPage::panel(const QString &name) const
{
    for (int index = 0; index < m_panels->count(); ++index) {
        auto *panel = qobject_cast<BackendPanel *>(m_panels->widget(index));
        if (panel && panel->name() == name) {
            return panel;
        }
    }
    return nullptr;
}

bool BackendsPage::open(const Intent &intent)
{
    const auto *backend = std::get_if<ShowBackend>(&intent);
    if (backend && panel(backend->backend)) {
        showBackend(backend->backend);
        return true;
    }
    return false;
}

void BackendsPage::showBackend(const QString &name)
{
    for (int row = 0; row < m_list->count(); ++row) {
        // Never the line between the backends and the cache (nothing saved yet names "").
        if (m_list->item(row)->flags() != Qt::NoItemFlags && m_list->item(row)->data(Qt::UserRole).toString() == name) {
            m_list->setCurrentRow(row);
        }
    }
}

} // namespace sandbox::gui
