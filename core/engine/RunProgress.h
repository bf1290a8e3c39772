#pragma once

#include <QString>

namespace sandbox {

/// A status line for long work of a run or of opening a session, with what kind of work it is, so a face can
/// choose what to show (the command line shows only image builds) without reading the English text.
struct RunProgress
{
    enum class Kind
    {
        Status,         ///< anything else worth a line
        ContainerStart, ///< a sandbox container is being created and started
        ImageBuild,     ///< an image the run needs is built (or copied) on first use: slow and rare
        LibraryInstall, ///< the libraries the run names are installed (the package manager's output)
    };

    Kind kind = Kind::Status;
    QString message;
};

} // namespace sandbox
