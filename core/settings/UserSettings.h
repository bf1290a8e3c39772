#pragma once
// placeholder: declarations from /work/gui-api.md until the lead's UserSettings lands.

#include <QObject>
#include <QString>

#include <chrono>

namespace sandbox {

class UserSettings final : public QObject
{
    Q_OBJECT
public:
    explicit UserSettings(QObject *parent = nullptr);
    QString backend() const;
    void setBackend(const QString &);
    std::chrono::seconds defaultTimeout() const;
    void setDefaultTimeout(std::chrono::seconds);
    int journalMaxAgeDays() const;
    void setJournalMaxAgeDays(int);
    int journalMaxSizeMiB() const;
    void setJournalMaxSizeMiB(int);
signals:
    void changed();
};

} // namespace sandbox
