#pragma once

#include <QLocalServer>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <memory>

namespace sandbox::gui {

/// One desktop app per user, settings folder and journal, as KeePassXC and qBittorrent keep one: a second
/// `llm-sandbox` started with the same ones brings the running window forward and ends, rather than open a second
/// window over the same journal whose MCP server would clash with the first's on the same port. The first holds a
/// lock file and listens on a local socket only its user may connect to; `llm-sandbox --new-instance` opts out.
class SingleInstance final : public QObject
{
    Q_OBJECT

public:
    enum class Outcome
    {
        First,     ///< no other instance: this one listens for the next
        Activated, ///< another instance answered and shows its window: this one ends
        NoAnswer,  ///< another instance holds the lock but did not answer (still starting, or hung)
    };

    /// Where this user's instance of these settings and journal listens: a socket in the runtime folder.
    static QString serverName();

    /// Becomes the instance for `name`, or asks the one that is to show its window (waiting up to `patience` for
    /// one still starting).
    explicit SingleInstance(const QString &name = serverName(), int patienceMs = 5000, QObject *parent = nullptr);
    ~SingleInstance() override;

    Outcome outcome() const { return m_outcome; }

signals:
    /// Another `llm-sandbox` was started: show the window.
    void activationRequested();

private:
    static bool activate(const QString &name, int timeoutMs);
    void answer(QLocalSocket *socket);

    Outcome m_outcome = Outcome::First;
    std::unique_ptr<QLockFile> m_lock;
    QLocalServer m_server;
};

} // namespace sandbox::gui
