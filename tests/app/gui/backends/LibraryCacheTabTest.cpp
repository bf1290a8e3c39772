// The library cache on the Backends page (issue 49): the sets a cache folder holds (written here through
// LibraryCache::store, as an install keeps them), newest use first, kept in their rows while other processes use and
// add sets; Remove and Clear Cache ask, then take the files away; a cache that is off says so.
#include "gui/backends/LibraryCacheTab.h"

#include "GuiTestSupport.h"
#include "OfflineApp.h"
#include "ScopedEnvironment.h"
#include "gui/RunText.h"
#include "gui/backends/BackendsPage.h"
#include "gui/backends/LibraryCacheModel.h"
#include "secrets/MemorySecretStore.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

namespace {

/// The key of a made-up set: 64 times `digit`.
QString keyOf(char digit)
{
    return QString(64, QLatin1Char(digit));
}

/// Clicks the button of `role` in the next message box that opens (a modal one runs its own event loop); what it
/// asked goes to `asked`.
void answerNextMessageBox(QMessageBox::ButtonRole role, QString *asked = nullptr)
{
    auto *timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, role, asked] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box) {
            return;
        }
        if (asked) {
            *asked = box->text() + u'\n' + box->informativeText();
        }
        for (QAbstractButton *button : box->buttons()) {
            if (box->buttonRole(button) == role) {
                timer->deleteLater();
                timer->stop();
                button->click();
                return;
            }
        }
    });
    timer->start();
}

/// The Backends page over a cache folder of the test's own (the tests' environment turns the cache off).
class LibraryCacheTabTest : public ::testing::Test
{
protected:
    void SetUp() override { ASSERT_TRUE(m_folder.isValid()); }

    QString cacheFolder() const { return m_folder.filePath(QStringLiteral("libraries")); }

    /// Keeps a set of `libraries` for `language` as an install would, `bytes` long.
    void store(char digit, const QString &language, const QStringList &libraries, int bytes = 1000)
    {
        LibraryCache cache(cacheFolder(), 2LL * 1024 * 1024 * 1024);
        LibraryCache::Entry entry;
        entry.key = keyOf(digit);
        entry.language = language;
        entry.libraries = libraries;
        entry.image = QStringLiteral("llm-sandbox/%1:test").arg(language);
        entry.unpackedBytes = qint64(bytes) * 3;
        const auto stored = cache.store(entry, QByteArray(bytes, digit));
        ASSERT_TRUE(stored.ok()) << stored.error().message.toStdString();
        // Each its own moment: the order is by last use.
        QTest::qWait(5);
    }
    /// Uses set `digit` as a run of another process does (its last use now).
    void use(char digit)
    {
        LibraryCache cache(cacheFolder(), 2LL * 1024 * 1024 * 1024);
        ASSERT_TRUE(cache.find(keyOf(digit)).has_value());
        QTest::qWait(5);
    }
    bool kept(char digit) const
    {
        return QFile::exists(cacheFolder() + u'/' + keyOf(digit) + QStringLiteral(".json")) ||
               QFile::exists(cacheFolder() + u'/' + keyOf(digit) + QStringLiteral(".tar.gz"));
    }

    /// The page on its library cache, once the sets are read.
    LibraryCacheTab *open()
    {
        m_page = std::make_unique<BackendsPage>(m_app.context(), m_keychain);
        m_page->resize(1100, 700);
        m_page->show();
        m_page->showBackend(QString(BackendsPage::kLibraryCache));
        LibraryCacheTab *tab = m_page->libraryCache();
        EXPECT_TRUE(tab->isVisible());
        if (tab->cache().isEnabled()) {
            QSignalSpy loaded(tab, &LibraryCacheTab::entriesLoaded);
            EXPECT_TRUE(loaded.wait(5000));
        }
        return tab;
    }
    QTableView *view() const { return m_page->findChild<QTableView *>(QStringLiteral("libraryCacheView")); }
    QPushButton *button(const char *name) const { return m_page->findChild<QPushButton *>(QLatin1String(name)); }
    /// The keys of the rows, top down.
    QStringList rows() const
    {
        QStringList keys;
        for (const LibraryCache::Entry &entry : m_page->libraryCache()->model()->entries()) {
            keys << entry.key;
        }
        return keys;
    }
    /// Reads the cache again, as the tab's timer does.
    void refresh()
    {
        QSignalSpy loaded(m_page->libraryCache(), &LibraryCacheTab::entriesLoaded);
        m_page->libraryCache()->refresh();
        ASSERT_TRUE(loaded.wait(5000));
    }
    /// Selects the rows of `keys`.
    void select(const QStringList &keys)
    {
        view()->clearSelection();
        for (int row = 0; row < view()->model()->rowCount(); ++row) {
            if (keys.contains(rows().at(row))) {
                view()->selectionModel()->select(view()->model()->index(row, 0),
                                                 QItemSelectionModel::Select | QItemSelectionModel::Rows);
            }
        }
    }

    QTemporaryDir m_folder;
    test::ScopedEnvironment m_environment{
        {"LLM_SANDBOX_LIBRARY_CACHE", m_folder.filePath(QStringLiteral("libraries")).toUtf8()}};
    guitest::OfflineApp m_app;
    MemorySecretStore m_keychain;
    std::unique_ptr<BackendsPage> m_page;
};

} // namespace

TEST_F(LibraryCacheTabTest, listsTheSetsNewestUseFirstAndKeepsTheSelectionAsOthersUseAndAddSets)
{
    store('a', QStringLiteral("python"), {QStringLiteral("numpy"), QStringLiteral("pandas")}, 2048);
    store('b', QStringLiteral("javascript"), {QStringLiteral("lodash")});
    store('c', QStringLiteral("r"), {QStringLiteral("jsonlite")});
    LibraryCacheTab *tab = open();
    QAbstractItemModelTester tester(tab->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(rows(), (QStringList{keyOf('c'), keyOf('b'), keyOf('a')}));
    EXPECT_EQ(m_page->findChild<QListWidget *>(QStringLiteral("backendList"))->currentItem()->text(),
              QStringLiteral("Library cache"));

    // What each column says of a set.
    const auto cell = [&](int row, int column) {
        return tab->model()->index(row, column).data().toString();
    };
    EXPECT_EQ(cell(0, LibraryCacheModel::LanguageColumn), QStringLiteral("R"));
    EXPECT_EQ(cell(1, LibraryCacheModel::LanguageColumn), QStringLiteral("JavaScript"));
    EXPECT_EQ(tab->model()->index(1, LibraryCacheModel::LanguageColumn).data(Qt::ToolTipRole).toString(),
              languageText(QStringLiteral("javascript")));
    EXPECT_EQ(cell(2, LibraryCacheModel::LibrariesColumn), QStringLiteral("numpy, pandas"));
    EXPECT_EQ(cell(2, LibraryCacheModel::PackedColumn), dataSizeText(2048));
    EXPECT_EQ(cell(2, LibraryCacheModel::UnpackedColumn), dataSizeText(3 * 2048));
    // Kept today: its time (its day once midnight passed), the date and seconds in the tooltip.
    const QDateTime created = tab->model()->entries().at(2).created;
    EXPECT_EQ(cell(2, LibraryCacheModel::LastUsedColumn),
              created.toLocalTime().date() == QDate::currentDate()
                  ? QLocale().toString(created.toLocalTime().time(), QLocale::ShortFormat)
                  : dayText(created.toLocalTime().date()));
    EXPECT_EQ(cell(2, LibraryCacheModel::CreatedColumn), cell(2, LibraryCacheModel::LastUsedColumn));
    EXPECT_EQ(tab->model()->index(2, LibraryCacheModel::CreatedColumn).data(Qt::ToolTipRole).toString(),
              dateTimeText(created));
    EXPECT_TRUE(tab->model()
                    ->index(2, LibraryCacheModel::LibrariesColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("llm-sandbox/python")));
    EXPECT_EQ(tab->summary(), QStringLiteral("3 set(s), %1 of %2 in %3")
                                  .arg(dataSizeText(2048 + 1000 + 1000), dataSizeText(2LL * 1024 * 1024 * 1024),
                                       QDir::toNativeSeparators(cacheFolder())));
    EXPECT_FALSE(button("removeLibraries")->isEnabled()) << "nothing selected";
    EXPECT_TRUE(button("clearLibraryCache")->isEnabled());

    // Another process uses the oldest set: it goes to the top, and the selection stays with its set.
    select({keyOf('b')});
    EXPECT_TRUE(button("removeLibraries")->isEnabled());
    use('a');
    refresh();
    EXPECT_EQ(rows(), (QStringList{keyOf('a'), keyOf('c'), keyOf('b')}));
    EXPECT_EQ(tab->selectedKeys(), QStringList{keyOf('b')});

    // ... and keeps a new one, which comes in at the top; two sets selected stay so.
    select({keyOf('b'), keyOf('c')});
    store('d', QStringLiteral("python"), {QStringLiteral("requests")});
    refresh();
    EXPECT_EQ(rows(), (QStringList{keyOf('d'), keyOf('a'), keyOf('c'), keyOf('b')}));
    EXPECT_EQ(tab->selectedKeys(), (QStringList{keyOf('c'), keyOf('b')}));
    EXPECT_TRUE(tab->summary().startsWith(QStringLiteral("4 set(s), "))) << qPrintable(tab->summary());

    // ... and removes one of the two (`libraries prune`): the other stays selected, and no other row is.
    ASSERT_TRUE(LibraryCache(cacheFolder(), 2LL * 1024 * 1024 * 1024).prune({keyOf('c')}).ok());
    refresh();
    EXPECT_EQ(rows(), (QStringList{keyOf('d'), keyOf('a'), keyOf('b')}));
    EXPECT_EQ(tab->selectedKeys(), QStringList{keyOf('b')});
}

TEST_F(LibraryCacheTabTest, theTabReadsTheCacheAgainWhileItIsShown)
{
    LibraryCacheTab *tab = open();
    EXPECT_EQ(tab->model()->rowCount(), 0);
    auto *hint = m_page->findChild<QLabel *>(QStringLiteral("libraryCacheHint"));
    EXPECT_TRUE(hint->isVisible());
    EXPECT_TRUE(hint->text().startsWith(QStringLiteral("No library sets are kept yet."))) << qPrintable(hint->text());
    EXPECT_FALSE(button("clearLibraryCache")->isEnabled());

    // An assistant's server keeps a set: the tab shows it within a few seconds, by itself.
    store('a', QStringLiteral("python"), {QStringLiteral("numpy")});
    ASSERT_TRUE(waitUntil([&] { return tab->model()->rowCount() == 1; }, 8s));
    EXPECT_TRUE(view()->isVisible());
    EXPECT_FALSE(hint->isVisible());
}

TEST_F(LibraryCacheTabTest, removeAsksThenRemovesTheSelectedSetsFiles)
{
    store('a', QStringLiteral("python"), {QStringLiteral("numpy"), QStringLiteral("pandas")});
    store('b', QStringLiteral("javascript"), {QStringLiteral("lodash")});
    store('c', QStringLiteral("r"), {QStringLiteral("jsonlite")});
    LibraryCacheTab *tab = open();
    select({keyOf('a')});

    // Asked first: Cancel keeps it.
    QString asked;
    answerNextMessageBox(QMessageBox::RejectRole, &asked);
    button("removeLibraries")->click();
    EXPECT_TRUE(asked.startsWith(QStringLiteral("Remove the %1 libraries numpy, pandas from the library cache?")
                                     .arg(languageText(QStringLiteral("python")))))
        << qPrintable(asked);
    EXPECT_TRUE(asked.contains(dataSizeText(1000))) << qPrintable(asked);
    EXPECT_FALSE(tab->busy());
    EXPECT_TRUE(kept('a'));
    EXPECT_EQ(tab->model()->rowCount(), 3);

    // Remove takes its files away, and only its.
    QSignalSpy removed(tab, &LibraryCacheTab::removeFinished);
    answerNextMessageBox(QMessageBox::AcceptRole);
    button("removeLibraries")->click();
    ASSERT_TRUE(removed.wait(5000));
    EXPECT_FALSE(kept('a'));
    EXPECT_TRUE(kept('b'));
    EXPECT_TRUE(kept('c'));
    EXPECT_TRUE(tab->status().startsWith(QStringLiteral("Removed 1 library set(s), %1 freed.").arg(dataSizeText(1000))))
        << qPrintable(tab->status());
    ASSERT_TRUE(waitUntil([&] { return tab->model()->rowCount() == 2; }, 5s));
    EXPECT_FALSE(button("removeLibraries")->isEnabled()) << "the removed set's selection went with it";

    // Two at once, with the Delete key.
    select({keyOf('b'), keyOf('c')});
    m_page->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(m_page.get()));
    view()->setFocus();
    answerNextMessageBox(QMessageBox::AcceptRole, &asked);
    QTest::keyClick(view(), Qt::Key_Delete);
    ASSERT_TRUE(removed.wait(5000));
    EXPECT_TRUE(asked.startsWith(QStringLiteral("Remove 2 library set(s) from the library cache?")))
        << qPrintable(asked);
    EXPECT_FALSE(kept('b'));
    EXPECT_FALSE(kept('c'));
    ASSERT_TRUE(waitUntil([&] { return tab->model()->rowCount() == 0; }, 5s));
}

TEST_F(LibraryCacheTabTest, clearCacheAsksThenRemovesEverySet)
{
    store('a', QStringLiteral("python"), {QStringLiteral("numpy")});
    store('b', QStringLiteral("javascript"), {QStringLiteral("lodash")});
    LibraryCacheTab *tab = open();

    QString asked;
    answerNextMessageBox(QMessageBox::RejectRole, &asked);
    button("clearLibraryCache")->click();
    EXPECT_TRUE(asked.startsWith(QStringLiteral("Remove all 2 library set(s) from the cache?"))) << qPrintable(asked);
    EXPECT_TRUE(kept('a'));
    EXPECT_TRUE(kept('b'));

    QSignalSpy removed(tab, &LibraryCacheTab::removeFinished);
    answerNextMessageBox(QMessageBox::AcceptRole);
    button("clearLibraryCache")->click();
    ASSERT_TRUE(removed.wait(5000));
    EXPECT_FALSE(kept('a'));
    EXPECT_FALSE(kept('b'));
    EXPECT_TRUE(QDir(cacheFolder()).entryList(QDir::Files).isEmpty())
        << qPrintable(QDir(cacheFolder()).entryList(QDir::Files).join(u' '));
    EXPECT_TRUE(tab->status().startsWith(QStringLiteral("Removed 2 library set(s)"))) << qPrintable(tab->status());
    ASSERT_TRUE(waitUntil([&] { return tab->model()->rowCount() == 0; }, 5s));
    EXPECT_TRUE(m_page->findChild<QLabel *>(QStringLiteral("libraryCacheHint"))->isVisible());
    EXPECT_FALSE(button("clearLibraryCache")->isEnabled());
    EXPECT_TRUE(tab->summary().startsWith(QStringLiteral("0 set(s), "))) << qPrintable(tab->summary());
}

TEST_F(LibraryCacheTabTest, aCacheThatIsOffSaysSoAndHowToTurnItOn)
{
    const test::ScopedEnvironment off{{"LLM_SANDBOX_LIBRARY_CACHE", QByteArray("off")}};
    LibraryCacheTab *tab = open();
    EXPECT_FALSE(tab->cache().isEnabled());
    auto *hint = m_page->findChild<QLabel *>(QStringLiteral("libraryCacheHint"));
    ASSERT_TRUE(hint->isVisible());
    EXPECT_TRUE(hint->text().startsWith(QStringLiteral("The library cache is off"))) << qPrintable(hint->text());
    EXPECT_TRUE(hint->text().contains(QStringLiteral("LLM_SANDBOX_LIBRARY_CACHE=off"))) << qPrintable(hint->text());
    EXPECT_TRUE(hint->text().contains(QStringLiteral("set to a folder"))) << qPrintable(hint->text());
    EXPECT_FALSE(view()->isVisible());
    for (const char *name : {"removeLibraries", "clearLibraryCache", "refreshLibraryCache"}) {
        EXPECT_FALSE(button(name)->isVisible()) << name;
    }
    EXPECT_FALSE(m_page->findChild<QLabel *>(QStringLiteral("libraryCacheSummary"))->isVisible());
}

TEST_F(LibraryCacheTabTest, theArrowKeysPassTheLineBetweenTheBackendsAndTheCache)
{
    open();
    auto *list = m_page->findChild<QListWidget *>(QStringLiteral("backendList"));
    m_page->showBackend(QStringLiteral("kubernetes"));
    list->setFocus();
    QTest::keyClick(list, Qt::Key_Down);
    EXPECT_EQ(list->currentItem()->data(Qt::UserRole).toString(), QString(BackendsPage::kLibraryCache));
    EXPECT_EQ(m_page->findChild<QStackedWidget *>(QStringLiteral("backendPanels"))->currentWidget(),
              m_page->libraryCache());
    QTest::keyClick(list, Qt::Key_Up);
    EXPECT_EQ(list->currentItem()->data(Qt::UserRole).toString(), QStringLiteral("kubernetes"));

    // A first start, with no backend saved, shows the first backend, never the line.
    m_page->showBackend(QStringLiteral("docker"));
    m_page->restoreState(QSettings(m_folder.filePath(QStringLiteral("empty.conf")), QSettings::IniFormat));
    EXPECT_EQ(list->currentItem()->data(Qt::UserRole).toString(), QStringLiteral("docker"));
    // ... and the cache when it was shown last.
    {
        QSettings saved(m_folder.filePath(QStringLiteral("saved.conf")), QSettings::IniFormat);
        m_page->showBackend(QString(BackendsPage::kLibraryCache));
        m_page->saveState(saved);
    }
    m_page->showBackend(QStringLiteral("podman"));
    m_page->restoreState(QSettings(m_folder.filePath(QStringLiteral("saved.conf")), QSettings::IniFormat));
    EXPECT_EQ(m_page->findChild<QStackedWidget *>(QStringLiteral("backendPanels"))->currentWidget(),
              m_page->libraryCache());
}
