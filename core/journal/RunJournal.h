#pragma once
// placeholder: declarations from /work/journal-api.md until branch `journal` lands.

#include "util/Result.h"

#include <QString>

#include <chrono>
#include <memory>
#include <optional>

namespace sandbox {

class RunJournal final
{
public:
    static std::optional<QString> configuredPath();
    static Result<std::unique_ptr<RunJournal>> open(const QString &path);
    QString path() const;
    QString artifactsDir() const;
};

} // namespace sandbox
