#pragma once

#include "libraries/LibraryCache.h"

#include <QFutureWatcher>
#include <QWidget>

class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;
class QTimer;

namespace sandbox {
class AppContext;
} // namespace sandbox

namespace sandbox::gui {

class LibraryCacheModel;

/// The library cache on the Backends page: the library sets installed once and kept for later runs of any backend and
/// any process (LibraryCache, what `llm-sandbox libraries list` shows), most recently used first, with how much of
/// the cap they take, and Remove (the selected sets) and Clear Cache, each after a question. Read off the GUI thread
/// when shown and every few seconds while it is (an assistant's `--mcp` server adds and uses sets too), the selection
/// staying with its sets. When the cache is off it says so, and how to turn it on.
class LibraryCacheTab final : public QWidget
{
    Q_OBJECT

public:
    explicit LibraryCacheTab(AppContext &app, QWidget *parent = nullptr);
    ~LibraryCacheTab() override;

    const LibraryCache &cache() const { return m_cache; }
    LibraryCacheModel *model() const { return m_model; }
    /// Reads the cache again; entriesLoaded() when done.
    void refresh();
    /// Removes the sets of `keys` (all of them when `all`), without asking; removeFinished() when done.
    void remove(const QStringList &keys, bool all = false);
    /// The keys of the selected sets, in the table's order.
    QStringList selectedKeys() const;
    /// The line under the table: how many sets, how much of the cap, where.
    QString summary() const;
    /// What the last Remove or Clear did.
    QString status() const;
    bool busy() const;

signals:
    void entriesLoaded();
    void removeFinished();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    struct Removed
    {
        Result<qint64> bytes = qint64(0);
        int sets = 0;
    };

    void showEntries(const QList<LibraryCache::Entry> &entries);
    void updateButtons();
    /// Remove, after the user says so.
    void removeSelected();
    /// Clear Cache, after the user says so.
    void clear();

    const LibraryCache m_cache;
    LibraryCacheModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_hint = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_clear = nullptr;
    QPushButton *m_refresh = nullptr;
    QFutureWatcher<QList<LibraryCache::Entry>> m_reading;
    QFutureWatcher<Removed> m_removing;
    QTimer *m_timer = nullptr;
};

} // namespace sandbox::gui
