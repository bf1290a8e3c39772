#pragma once

#include "mcp/tools/Tool.h"
#include "settings/SandboxSettings.h"

namespace sandbox::mcp {

/// What a model learns of the folders the user shared with sandboxes: their names at /data/NAME, whether results may
/// be saved there, and what they hold (file names, counts and sizes), never the host's path or the user's name.
class SharedFolderTools final
{
public:
    /// The sentence execute_code's description ends with when folders are shared ("The user shared folders …");
    /// empty when none is, so that clients of a server that shares nothing see today's description byte for byte.
    static QString executeCodeSentence(const QList<SharedFolder> &folders);
    /// list_shared_folders: each folder's name, path in the sandbox, whether it takes results, its file count and
    /// size, and its files (up to a stated number, largest folders cut) with their sizes.
    static Tool listTool(const QList<SharedFolder> &folders);

    /// The most files list_shared_folders names per folder.
    static constexpr int kListedFiles = 200;

    SharedFolderTools() = delete;
};

} // namespace sandbox::mcp
