#pragma once

#include <QString>

namespace sandbox {

/// The temporary folders that long operations are filling right now (an image build's root filesystem), kept in one
/// process-wide list so that a process which must end at once (a second SIGTERM) can still remove them first.
class TemporaryPaths final
{
public:
    /// Adds `path` until the returned registration is destroyed (the owner then removes the path itself).
    class Registration final
    {
    public:
        explicit Registration(QString path);
        ~Registration();
        Registration(const Registration &) = delete;
        Registration &operator=(const Registration &) = delete;

    private:
        QString m_path;
    };

    /// Removes every registered path from disk, recursively. Thread-safe; meant for the last moments of a process.
    static void removeAll();
    /// The paths registered now (tests).
    static QStringList registered();

    TemporaryPaths() = delete;
};

} // namespace sandbox
