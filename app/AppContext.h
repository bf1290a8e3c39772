#pragma once
// placeholder: declarations from /work/gui-api.md until the lead's AppContext lands.

#include "engine/ExecutionEngine.h"
#include "settings/SandboxSettings.h"
#include "settings/UserSettings.h"
#include "util/Result.h"

#include <QStringList>

#include <memory>

namespace sandbox {

class JournalRecorder;

class AppContext final
{
public:
    struct Options
    {
        QString source;
        QString backendName;
        bool removeOrphans = false;
        QStringList prewarm;
    };
    static Result<std::unique_ptr<AppContext>> create(const Options &options);
    ~AppContext();

    const SandboxSettings &settings() const;
    UserSettings &userSettings();
    QString defaultBackend() const;
    Result<ExecutionEngine *> engine(const QString &backendName = {});
    QString journalPath() const;
    JournalRecorder *recorder();
};

} // namespace sandbox
