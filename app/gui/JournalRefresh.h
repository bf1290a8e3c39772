#pragma once

#include "journal/JournalFeed.h"

#include <QCoreApplication>
#include <QObject>
#include <QTimer>
#include <chrono>
#include <functional>

namespace sandbox::gui {

/// A page's whole-view read of the journal (a gallery's artifacts, a period's statistics) through the window's
/// JournalFeed: on the feed's thread, one at a time (a read asked for while one runs follows it), and again a moment
/// after the feed reported a change — while `wanted()` holds; otherwise once the page asks (reloadIfStale(), when it
/// is shown).
template <typename T>
class JournalRefresh final
{
public:
    /// `prepare` runs on the GUI thread and returns the read, which runs on the feed's thread with its reader;
    /// `show` gets the read's result on the GUI thread.
    JournalRefresh(
        QObject *page, JournalFeed &feed, std::chrono::milliseconds settle,
        std::function<std::function<T(const JournalReader &)>()> prepare, std::function<void(T)> show,
        std::function<bool()> wanted = [] { return true; })
        : m_page(page), m_feed(feed), m_prepare(std::move(prepare)), m_show(std::move(show)),
          m_wanted(std::move(wanted))
    {
        m_settle.setSingleShot(true);
        m_settle.setInterval(settle);
        QObject::connect(&m_settle, &QTimer::timeout, page, [this] { reload(); });
        QObject::connect(&feed, &JournalFeed::runsChanged, page, [this] {
            if (m_wanted()) {
                if (!m_settle.isActive()) {
                    m_settle.start(); // once for a burst of changes, not put off by every one
                }
            } else {
                m_stale = true;
            }
        });
    }
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
        m_feed.read<T>(m_page, m_prepare(), [this](T result) {
            m_pending = false;
            m_show(std::move(result));
            if (m_again) {
                m_again = false;
                reload();
            }
        });
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
            m_feed.waitForIdle();
            QCoreApplication::processEvents();
        }
    }

private:
    QObject *m_page;
    JournalFeed &m_feed;
    std::function<std::function<T(const JournalReader &)>()> m_prepare;
    std::function<void(T)> m_show;
    std::function<bool()> m_wanted;
    QTimer m_settle;
    bool m_pending = false; ///< a read was asked for and its result is not shown yet
    bool m_again = false;   ///< asked for again while it ran
    bool m_stale = true;    ///< the journal changed while the page did not want it read
};

} // namespace sandbox::gui
