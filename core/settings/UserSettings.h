#pragma once

#include <QObject>
#include <QSettings>
#include <QString>
#include <chrono>

namespace sandbox {

/// The settings a person chooses (in the desktop app's settings dialog), kept in
/// ~/.config/llm-sandbox/llm-sandbox.conf. Every face reads them at start-up, so the app and the
/// MCP server an assistant launches agree; environment variables still win over them.
class UserSettings final : public QObject
{
    Q_OBJECT

public:
    explicit UserSettings(QObject *parent = nullptr);

    /// docker, podman or kubernetes; empty: docker.
    QString backend() const;
    void setBackend(const QString &backend);
    /// The OCI runtime of the sandboxes (runsc: gVisor); empty: the engine's default.
    QString runtime() const;
    void setRuntime(const QString &runtime);
    /// The timeout of a run that names none (the console, `run`, MCP's execute_code).
    std::chrono::seconds defaultTimeout() const;
    void setDefaultTimeout(std::chrono::seconds timeout);
    /// Journal retention: runs older than this many days are removed.
    int journalMaxAgeDays() const;
    void setJournalMaxAgeDays(int days);
    /// Journal retention: the oldest runs go once the journal (with its artifacts) is larger than this.
    int journalMaxSizeMiB() const;
    void setJournalMaxSizeMiB(int mebibytes);

    static constexpr std::chrono::seconds kDefaultTimeout{30};
    static constexpr int kDefaultJournalMaxAgeDays = 30;
    static constexpr int kDefaultJournalMaxSizeMiB = 1024;

signals:
    void changed();

private:
    void write(const QString &key, const QVariant &value);

    mutable QSettings m_settings;
};

} // namespace sandbox
