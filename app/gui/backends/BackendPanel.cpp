#include "gui/backends/BackendPanel.h"

#include "AppContext.h"
#include "backend/BackendFactory.h"
#include "gui/backends/ConnectionTab.h"
#include "gui/backends/ImagesTab.h"
#include "gui/backends/SandboxesTab.h"
#include "gui/widgets/SelectionKeeper.h"
#include "settings/UserSettings.h"

#include <QHeaderView>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace sandbox::gui {

BackendPanel::BackendPanel(AppContext &app, SecretStore &secrets, QString name, QWidget *parent)
    : QWidget(parent), m_app(app), m_secrets(secrets), m_name(std::move(name))
{
    setObjectName(m_name + QStringLiteral("Panel"));
    m_connection = new ConnectionTab(*this);
    m_images = new ImagesTab(*this);
    m_sandboxes = new SandboxesTab(*this);
    // From the fields of the connection tab and (Kubernetes) the registry of the images tab.
    m_backend = BackendFactory::create(m_name, connection());
    m_images->updateButtons();
    connect(m_sandboxes, &SandboxesTab::showRunRequested, this, &BackendPanel::showRunRequested);
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("backendTabs"));
    m_tabs->addTab(m_connection, tr("Connection"));
    m_tabs->addTab(m_images, tr("Images"));
    m_tabs->addTab(m_sandboxes, tr("Sandboxes now"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
}

QTableView *BackendPanel::makeTable(QAbstractItemModel *model, const QString &objectName)
{
    auto *view = new QTableView;
    view->setObjectName(objectName);
    // The lists refresh on their own: a selection stays with its image or sandbox, never passes to another row.
    setModelKeepingSelection(view, model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

bool BackendPanel::isKubernetes() const
{
    return m_name == QLatin1String("kubernetes");
}

BackendConnection BackendPanel::connection() const
{
    BackendConnection connection = m_connection->typed(m_app.userSettings().connection());
    if (isKubernetes()) {
        connection.registry = m_images->registry();
    }
    return connection;
}

void BackendPanel::applyConnection(const BackendConnection &connection)
{
    m_app.userSettings().setConnection(connection);
    // The app's engine of this backend is made again from the saved connection for the next run; the current one is
    // retired, so runs in progress and open sessions finish where they began.
    m_app.reconnect(m_name);
    m_backend = BackendFactory::create(m_name, this->connection());
    m_images->updateButtons();
    emit connectionApplied(m_name);
}

} // namespace sandbox::gui
