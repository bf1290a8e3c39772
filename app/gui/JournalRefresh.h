#pragma once

#include "journal/JournalWatcher.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>
#include <functional>

namespace sandbox::gui {

/// A page's reads of the journal, off the GUI thread: one at a time (a read asked for while one runs follows it),
/// and again a moment after the journal changed, whichever process changed it — while `wanted()` holds; otherwise
/// once the page asks (reloadIfStale(), when it is shown).
template <typename T>
class JournalRefresh final
{
public:
    /// `prepare` runs on the GUI thread and returns the read, which runs on a pool thread (and opens what it needs
    /// there: one journal connection per thread); `show` gets the read's result on the GUI thread.
    JournalRefresh(
        QObject *page, const QString &journalPath, std::chrono::milliseconds settle,
        std::function<std::function<T()>()> prepare, std::function<void(T)> show,
        std::function<bool()> wanted = [] { return true; })
        : m_prepare(std::move(prepare)), m_show(std::move(show)), m_wanted(std::move(wanted))
    {
        QObject::connect(&m_reading, &QFutureWatcher<T>::finished, page, [this] {
            m_pending = false;
            m_show(m_reading.result());
            if (m_again) {
                m_again = false;
                reload();
            }
        });
        m_settle.setSingleShot(true);
        m_settle.setInterval(settle);
        QObject::connect(&m_settle, &QTimer::timeout, page, [this] { reload(); });
        auto *watcher = new JournalWatcher(journalPath, page);
        QObject::connect(watcher, &JournalWatcher::runsChanged, page, [this] {
            if (m_wanted()) {
                m_settle.start();
            } else {
                m_stale = true;
            }
        });
        watcher->start(settle);
    }
    ~JournalRefresh() { m_reading.waitForFinished(); }
    JournalRefresh(const JournalRefresh &) = delete;
    JournalRefresh &operator=(const JournalRefresh &) = delete;

    void reload()
    {
        m_stale = false;
        if (m_pending) {
            m_again = true;
            return;
        }
        m_pending = true;
        m_reading.setFuture(QtConcurrent::run(m_prepare()));
    }
    void reloadIfStale()
    {
        if (m_stale) {
            reload();
        }
    }
    /// Until the reads asked for are done and shown (tests).
    void waitForLoaded()
    {
        while (m_pending || m_again || m_settle.isActive()) {
            if (m_settle.isActive()) {
                m_settle.stop();
                reload();
            }
            m_reading.waitForFinished();
            QCoreApplication::sendPostedEvents(&m_reading);
            QCoreApplication::processEvents();
        }
    }

private:
    std::function<std::function<T()>()> m_prepare;
    std::function<void(T)> m_show;
    std::function<bool()> m_wanted;
    QFutureWatcher<T> m_reading;
    QTimer m_settle;
    bool m_pending = false; ///< a read was started and its result is not shown yet
    bool m_again = false;   ///< asked for again while it ran
    bool m_stale = true;    ///< the journal changed while the page did not want it read
};

} // namespace sandbox::gui
