#pragma once
// PLACEHOLDER (branch gui-history): the contract of /work/journal-api.md, until branch `journal` lands.

#include "journal/JournalRun.h"

#include <QObject>

#include <chrono>

namespace sandbox {

class JournalWatcher final : public QObject
{
    Q_OBJECT

public:
    explicit JournalWatcher(const QString &databasePath, QObject *parent = nullptr);
    void start(std::chrono::milliseconds interval = std::chrono::milliseconds(200));
    qint64 lastSeq() const;
    void setLastSeq(qint64 seq);

signals:
    void runsChanged(const QList<sandbox::JournalRun> &runs);
};

} // namespace sandbox
