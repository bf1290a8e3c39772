#pragma once

#include "util/Result.h"

#include <QStringList>

namespace sandbox {

class JournalConnection;

/// The journal's schema as an ordered list of migrations; PRAGMA user_version holds how many have been applied.
class JournalSchema final
{
public:
    /// The statements of migration `version` (1-based).
    static QStringList migration(int version);
    /// The version this build writes: the number of migrations.
    static int latestVersion();
    /// Applies the migrations `connection`'s database lacks, each in its own write transaction (so two processes
    /// opening a new journal at once apply each exactly once). An error when the file is from a newer version.
    static Result<void> migrate(JournalConnection &connection, int targetVersion = latestVersion());
    static Result<int> version(JournalConnection &connection);

    JournalSchema() = delete;
};

} // namespace sandbox
