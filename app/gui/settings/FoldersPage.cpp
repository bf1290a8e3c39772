#include "gui/settings/FoldersPage.h"

#include "gui/StateColors.h"
#include "gui/settings/SharedFolderModel.h"

#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace sandbox::gui {

FoldersPage::FoldersPage(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("foldersPage"));
    auto *intro = new QLabel(tr("Sandboxes read these folders at /data/NAME. Nothing is shared unless you add it "
                                "here."));
    intro->setObjectName(QStringLiteral("foldersIntro"));
    intro->setWordWrap(true);

    m_model = new SharedFolderModel(this);
    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("foldersView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_view->verticalHeader()->hide();
    m_view->setWordWrap(false);
    // Whole paths and names, never elided: a long one scrolls sideways rather than hide which folder it is.
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);

    m_add = new QPushButton(tr("&Add…"));
    m_add->setObjectName(QStringLiteral("foldersAdd"));
    m_add->setToolTip(tr("Choose a folder to share with the sandboxes"));
    m_remove = new QPushButton(tr("&Remove"));
    m_remove->setObjectName(QStringLiteral("foldersRemove"));
    m_remove->setToolTip(tr("Stop sharing the selected folder (its files stay where they are)"));
    m_writable = new QCheckBox(tr("Results may be &saved here"));
    m_writable->setObjectName(QStringLiteral("foldersWritable"));
    m_writable->setToolTip(tr("An assistant may save a run's files here (save_to_folder): LLM Sandbox writes them "
                              "itself, plain files only, never replacing one of yours. Sandboxes still read the "
                              "folder read only."));

    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("foldersProblem"));
    m_problem->setWordWrap(true);
    m_problem->setVisible(false);
    QPalette colors = m_problem->palette();
    colors.setColor(QPalette::WindowText, StateColors::of(palette()).failed);
    m_problem->setPalette(colors);

    auto *note = new QLabel(tr("Changes apply to runs and sessions that start after you press OK; open sessions keep "
                               "the folders they had. The command line and assistants share these folders only when "
                               "told to (run --share, or “Share my folders” when you connect an assistant)."));
    note->setObjectName(QStringLiteral("foldersNote"));
    note->setWordWrap(true);
    note->setEnabled(false);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addSpacing(12);
    buttons->addWidget(m_writable);
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_problem);
    layout->addWidget(note);

    connect(m_add, &QPushButton::clicked, this, &FoldersPage::chooseFolder);
    connect(m_remove, &QPushButton::clicked, this, &FoldersPage::removeCurrent);
    connect(m_writable, &QCheckBox::toggled, this,
            [this](bool writable) { m_model->setWritable(m_view->currentIndex().row(), writable); });
    connect(m_model, &SharedFolderModel::refused, this, &FoldersPage::showProblem);
    connect(m_model, &SharedFolderModel::dataChanged, this, [this] { showProblem({}); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &FoldersPage::updateButtons);
    connect(m_model, &SharedFolderModel::modelReset, this, &FoldersPage::updateButtons);
    connect(m_model, &SharedFolderModel::rowsRemoved, this, &FoldersPage::updateButtons);
    updateButtons();
}

void FoldersPage::setFolders(const QList<SharedFolder> &folders)
{
    m_model->setFolders(folders);
    showProblem({});
}

QList<SharedFolder> FoldersPage::folders() const
{
    return m_model->folders();
}

QString FoldersPage::problem() const
{
    return m_problem->text();
}

QString FoldersPage::refusal(const QString &path, const QList<SharedFolder> &others, SharedFolder *shared)
{
    const QFileInfo info(path);
    if (!info.isDir()) {
        return tr("%1 is not a folder.").arg(QDir::toNativeSeparators(path));
    }
    if (!info.isReadable() || !info.isExecutable()) {
        return tr("LLM Sandbox cannot read %1.").arg(QDir::toNativeSeparators(path));
    }
    const QString canonical = info.canonicalFilePath();
    // Assistants get the folders in one variable (LLM_SANDBOX_SHARE) whose entries these characters separate.
    if (canonical.contains(QLatin1Char(';')) || canonical.contains(QLatin1Char('\n'))) {
        return tr("%1 cannot be shared: its name holds a “;” or a line break. Rename it, or share a folder inside it.")
            .arg(QDir::toNativeSeparators(canonical));
    }
    for (const SharedFolder &other : others) {
        if (other.path == canonical) {
            return tr("%1 is already shared as %2.").arg(QDir::toNativeSeparators(canonical), other.mountPath());
        }
    }
    QString name = SharedFolder::defaultName(canonical);
    const auto taken = [&others](const QString &candidate) {
        return std::any_of(others.cbegin(), others.cend(),
                           [&candidate](const SharedFolder &other) { return other.name == candidate; });
    };
    for (int suffix = 2; taken(name); ++suffix) {
        const QString tail = QStringLiteral("-%1").arg(suffix);
        name = SharedFolder::defaultName(canonical).left(64 - tail.size()) + tail;
    }
    // The same rules as `run --share` and LLM_SANDBOX_SHARE: not the root, the home folder or a system folder.
    auto parsed = SharedFolder::parse(canonical + QLatin1Char(':') + name + QStringLiteral(":ro"));
    if (!parsed) {
        return tr("%1 cannot be shared with sandboxes: share a folder of your data inside it instead.")
            .arg(QDir::toNativeSeparators(canonical));
    }
    if (shared) {
        *shared = *parsed;
    }
    return {};
}

bool FoldersPage::addFolder(const QString &path)
{
    SharedFolder folder;
    if (const QString refused = refusal(path, m_model->folders(), &folder); !refused.isEmpty()) {
        showProblem(refused);
        return false;
    }
    showProblem({});
    m_model->append(folder);
    const QModelIndex name = m_model->index(m_model->rowCount() - 1, SharedFolderModel::Name);
    m_view->setCurrentIndex(name);
    // Named after the folder; the user may give it a shorter or clearer name at once.
    m_view->edit(name);
    return true;
}

void FoldersPage::chooseFolder()
{
    const QString path = QFileDialog::getExistingDirectory(this, tr("Share a Folder"), QDir::homePath());
    if (!path.isEmpty()) {
        addFolder(path);
    }
}

void FoldersPage::removeCurrent()
{
    m_model->removeFolder(m_view->currentIndex().row());
    showProblem({});
}

void FoldersPage::showProblem(const QString &problem)
{
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
}

void FoldersPage::updateButtons()
{
    const int row = m_view->currentIndex().row();
    const bool chosen = row >= 0 && row < m_model->rowCount();
    m_remove->setEnabled(chosen);
    m_writable->setEnabled(chosen);
    const QSignalBlocker quiet(m_writable);
    m_writable->setChecked(chosen && m_model->folders().at(row).writable);
}

} // namespace sandbox::gui
