#pragma once
// PLACEHOLDER (branch gui-history): the contract of /work/journal-api.md, until branch `journal` lands.

#include "journal/JournalRun.h"
#include "util/Result.h"

namespace sandbox {

class JournalReader final
{
public:
    explicit JournalReader(const QString &databasePath);
    Result<QList<JournalRun>> list(const RunFilter &filter, int offset, int limit) const;
    Result<int> count(const RunFilter &filter) const;
    Result<JournalRun> run(const QString &id) const;
    Result<QList<JournalRun>> changedSince(qint64 seq, int limit = 500) const;
    Result<qint64> latestSeq() const;
};

} // namespace sandbox
