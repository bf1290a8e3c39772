#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

namespace sandbox {

/// One file llm-sandbox saved into a writable shared folder for a run (ResultWriter), as the journal keeps it.
struct SavedResult
{
    QString folderName; ///< SharedFolder::name: the file is /data/NAME/fileName in the sandbox
    QString folderPath; ///< SharedFolder::path on the host, for the app (never shown to a model)
    QString fileName;   ///< as saved, which may differ from the name asked for ("name (2).csv")
    qint64 bytes = 0;
    QString sha256; ///< of the content, in lowercase hex
    QDateTime savedAt;

    /// "/data/NAME/file": where it is in the sandbox's view, and how a model is told where it landed.
    QString sandboxPath() const { return QStringLiteral("/data/") + folderName + QLatin1Char('/') + fileName; }
    /// Where it is on the host.
    QString hostPath() const { return folderPath + QLatin1Char('/') + fileName; }

    friend bool operator==(const SavedResult &, const SavedResult &) = default;
};

/// Something a run left in a writable shared folder that llm-sandbox did not save, and why.
struct RefusedResult
{
    QString path;   ///< in the sandbox: /data/NAME/...
    QString reason; ///< one sentence

    friend bool operator==(const RefusedResult &, const RefusedResult &) = default;
};

} // namespace sandbox
