// Settings → Folders (issue 47): the folders the app's sandboxes read at /data/NAME, kept in the user settings and
// becoming the app's SandboxSettings (LLM_SANDBOX_SHARE still wins).
#include "gui/settings/FoldersPage.h"

#include "AppContext.h"
#include "ScopedEnvironment.h"
#include "gui/settings/SettingsDialog.h"
#include "gui/settings/SharedFolderModel.h"
#include "secrets/MemorySecretStore.h"
#include "settings/UserSettings.h"

#include <QCheckBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

class FoldersPageTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_config.isValid() && m_data.isValid());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_config.path());
        for (const char *name : {"Sales Data", "out", "other/out"}) {
            ASSERT_TRUE(QDir(m_data.path()).mkpath(QString::fromLatin1(name)));
        }
    }
    void TearDown() override
    {
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation));
    }
    QString folder(const char *name) const
    {
        return QDir(m_data.path()).canonicalPath() + QLatin1Char('/') + QString::fromLatin1(name);
    }

    QTemporaryDir m_config;
    QTemporaryDir m_data;
    test::ScopedEnvironment m_environment{{"LLM_SANDBOX_SHARE", QByteArray()}, {"LLM_SANDBOX_JOURNAL", "off"}};
};

} // namespace

TEST_F(FoldersPageTest, addsRenamesTogglesAndRemovesFoldersSayingWhyOneIsRefused)
{
    FoldersPage page;
    page.resize(700, 400);
    page.show();
    auto *problem = page.findChild<QLabel *>(QStringLiteral("foldersProblem"));
    auto *view = page.findChild<QTableView *>(QStringLiteral("foldersView"));
    auto *writable = page.findChild<QCheckBox *>(QStringLiteral("foldersWritable"));
    auto *remove = page.findChild<QPushButton *>(QStringLiteral("foldersRemove"));
    ASSERT_TRUE(problem && view && writable && remove);
    EXPECT_TRUE(page.findChild<QLabel *>(QStringLiteral("foldersIntro"))
                    ->text()
                    .contains(QLatin1String("Nothing is shared unless you add it here")));
    EXPECT_FALSE(remove->isEnabled());

    ASSERT_TRUE(page.addFolder(folder("Sales Data")));
    ASSERT_EQ(page.folders().size(), 1);
    EXPECT_EQ(page.folders().first().name, QStringLiteral("Sales-Data")) << "named after it";
    EXPECT_FALSE(page.folders().first().writable) << "read-only unless said";
    EXPECT_EQ(view->model()->index(0, SharedFolderModel::Name).data().toString(), QStringLiteral("/data/Sales-Data"));
    EXPECT_EQ(view->model()->index(0, SharedFolderModel::Access).data().toString(), QStringLiteral("Read only"));
    auto *editor = view->viewport()->findChild<QLineEdit *>();
    ASSERT_NE(editor, nullptr) << "its name is ready to be changed";
    EXPECT_EQ(editor->text(), QStringLiteral("Sales-Data"));
    view->closePersistentEditor(view->currentIndex());
    QTest::keyClick(editor, Qt::Key_Escape);

    // Two folders named "out": the second gets a free name.
    ASSERT_TRUE(page.addFolder(folder("out")));
    ASSERT_TRUE(page.addFolder(folder("other/out")));
    EXPECT_EQ(page.folders().at(2).name, QStringLiteral("out-2"));

    // Refused, each in one sentence: shared already, the home folder itself, a system folder, a missing one.
    const struct
    {
        QString path;
        const char *says;
    } refused[] = {{folder("out"), "is already shared as /data/out."},
                   {QDir::homePath(), "cannot be shared with sandboxes: share a folder of your data inside it"},
                   {QStringLiteral("/etc"), "cannot be shared with sandboxes"},
                   {folder("missing"), "is not a folder."}};
    for (const auto &one : refused) {
        EXPECT_FALSE(page.addFolder(one.path)) << qPrintable(one.path);
        EXPECT_TRUE(problem->isVisibleTo(&page));
        EXPECT_TRUE(page.problem().contains(QLatin1String(one.says))) << qPrintable(page.problem());
    }
    EXPECT_EQ(page.folders().size(), 3);

    // Renaming in place: a name /data cannot hold, or another folder's, is refused and said.
    QAbstractItemModel *model = view->model();
    const QModelIndex name = model->index(0, SharedFolderModel::Name);
    EXPECT_FALSE(model->setData(name, QStringLiteral(".hidden")));
    EXPECT_TRUE(page.problem().contains(QLatin1String("cannot name a folder in the sandbox")))
        << qPrintable(page.problem());
    EXPECT_FALSE(model->setData(name, QStringLiteral("out")));
    EXPECT_TRUE(page.problem().contains(QStringLiteral("Another folder is already named “out”")))
        << qPrintable(page.problem());
    EXPECT_TRUE(model->setData(name, QStringLiteral("sales")));
    EXPECT_EQ(page.folders().first().name, QStringLiteral("sales"));
    EXPECT_FALSE(problem->isVisibleTo(&page)) << "a good edit clears the problem";

    // "Results may be saved here" follows the selected folder.
    view->setCurrentIndex(model->index(1, SharedFolderModel::Folder));
    EXPECT_TRUE(writable->isEnabled());
    EXPECT_FALSE(writable->isChecked());
    writable->click();
    EXPECT_TRUE(page.folders().at(1).writable);
    EXPECT_EQ(model->index(1, SharedFolderModel::Access).data().toString(),
              QStringLiteral("Results may be saved here"));
    view->setCurrentIndex(model->index(0, SharedFolderModel::Folder));
    EXPECT_FALSE(writable->isChecked());

    QTest::mouseClick(remove, Qt::LeftButton);
    ASSERT_EQ(page.folders().size(), 2);
    EXPECT_EQ(page.folders().first().name, QStringLiteral("out"));
}

TEST_F(FoldersPageTest, theFoldersAreKeptInTheUserSettingsAndBecomeTheAppsSandboxSettings)
{
    UserSettings settings;
    MemorySecretStore keychain;
    {
        SettingsDialog dialog(settings, keychain);
        dialog.showFolders();
        auto *page = dialog.findChild<FoldersPage *>();
        ASSERT_NE(page, nullptr);
        EXPECT_EQ(dialog.findChild<QTabWidget *>(QStringLiteral("settingsTabs"))->currentWidget(), page);
        EXPECT_TRUE(page->folders().isEmpty()) << "nothing is shared by default";
        ASSERT_TRUE(page->addFolder(folder("Sales Data")));
        ASSERT_TRUE(page->addFolder(folder("out")));
        page->findChild<QTableView *>()->setCurrentIndex(page->findChild<QTableView *>()->model()->index(1, 1));
        page->findChild<QCheckBox *>(QStringLiteral("foldersWritable"))->click();
        // A read-only folder named like a mode stays read-only when read back.
        ASSERT_TRUE(page->findChild<QTableView *>()->model()->setData(
            page->findChild<QTableView *>()->model()->index(0, 0), QStringLiteral("rw")));
        dialog.apply();
    }
    const QList<SharedFolder> expected{
        SharedFolder{.path = folder("Sales Data"), .name = QStringLiteral("rw"), .writable = false},
        SharedFolder{.path = folder("out"), .name = QStringLiteral("out"), .writable = true}};
    EXPECT_EQ(UserSettings().sharedFolders(), expected);
    {
        SettingsDialog again(settings, keychain);
        EXPECT_EQ(again.findChild<FoldersPage *>()->folders(), expected) << "shown again";
    }

    // The desktop app's sandboxes read them; other faces share nothing unless told to.
    auto app = AppContext::create({.source = RunSource::Gui, .desktopSettings = true});
    ASSERT_TRUE(app) << qPrintable(app.error().message);
    EXPECT_EQ((*app)->settings().sharedFolders, expected);
    auto cli = AppContext::create({.source = RunSource::Cli});
    ASSERT_TRUE(cli);
    EXPECT_TRUE((*cli)->settings().sharedFolders.isEmpty());

    // A change applies to the next sandboxes; a folder that has gone is kept in the list but shared no more.
    ASSERT_TRUE(QDir(folder("out")).removeRecursively());
    EXPECT_TRUE((*app)->reloadSandboxSettings());
    EXPECT_EQ((*app)->settings().sharedFolders, QList<SharedFolder>{expected.first()});
    EXPECT_EQ(UserSettings().sharedFolders(), expected);
    EXPECT_FALSE((*app)->reloadSandboxSettings()) << "nothing changed since";

    // LLM_SANDBOX_SHARE wins over the settings.
    const test::ScopedEnvironment share{{"LLM_SANDBOX_SHARE", (folder("other/out") + QStringLiteral(":x")).toUtf8()}};
    auto overridden = AppContext::create({.source = RunSource::Gui, .desktopSettings = true});
    ASSERT_TRUE(overridden);
    ASSERT_EQ((*overridden)->settings().sharedFolders.size(), 1);
    EXPECT_EQ((*overridden)->settings().sharedFolders.first().name, QStringLiteral("x"));
    EXPECT_FALSE((*overridden)->reloadSandboxSettings());
    settings.setSharedFolders({});
    EXPECT_TRUE(UserSettings().sharedFolders().isEmpty());
}
