#include "mcp/tools/SharedFolderTools.h"

#include "folders/FolderSnapshot.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace sandbox::mcp {

QString SharedFolderTools::executeCodeSentence(const QList<SharedFolder> &folders)
{
    if (folders.isEmpty()) {
        return {};
    }
    QStringList named;
    for (const SharedFolder &folder : folders) {
        named << QStringLiteral("%1 (%2)").arg(
            folder.mountPath(), folder.writable ? QStringLiteral("its files read-only; new files the code writes "
                                                                 "directly in it are saved into the user's folder "
                                                                 "after the run (saved_files in the result), as is "
                                                                 "an artifact with save_to_folder")
                                                : QStringLiteral("read-only"));
    }
    return QStringLiteral(" The user shared folders the code can read: %1; list_shared_folders tells what they "
                          "hold.")
        .arg(named.join(QStringLiteral(", ")));
}

Tool SharedFolderTools::listTool(const QList<SharedFolder> &folders)
{
    return Tool{
        .name = QStringLiteral("list_shared_folders"),
        .title = QStringLiteral("Shared folders"),
        .description =
            QStringLiteral("List the folders the user shared with the sandbox, as JSON: each one's path in "
                           "the sandbox (/data/NAME), whether results may be saved there, its number of "
                           "files and size, its files (at most %1 per folder) with their sizes, and how many "
                           "links and special files were left out (left_out). Code "
                           "run with execute_code reads them there; nothing else of the user's computer "
                           "is reachable.")
                .arg(kListedFiles),
        .inputSchema = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                   {QStringLiteral("properties"), QJsonObject()}},
        .outputSchema = {},
        .annotations = QJsonObject{{QStringLiteral("title"), QStringLiteral("Shared folders")},
                                   {QStringLiteral("readOnlyHint"), true}},
        .longRunning = false,
        .handler =
            [folders](const ToolCall &) {
                QJsonArray listed;
                for (const SharedFolder &folder : folders) {
                    QJsonObject item{{QStringLiteral("name"), folder.name},
                                     {QStringLiteral("path"), folder.mountPath()},
                                     {QStringLiteral("results_may_be_saved"), folder.writable}};
                    QList<FolderSnapshot::Skipped> skipped;
                    auto files = FolderSnapshot::list(folder, {}, &skipped);
                    if (!files) {
                        item.insert(QStringLiteral("error"), files.error().message);
                        listed.append(item);
                        continue;
                    }
                    qint64 bytes = 0;
                    QJsonArray names;
                    for (const FolderSnapshot::File &file : *files) {
                        bytes += file.size;
                        if (names.size() < kListedFiles) {
                            names.append(QJsonObject{{QStringLiteral("path"), file.path},
                                                     {QStringLiteral("size"), double(file.size)}});
                        }
                    }
                    item.insert(QStringLiteral("files"), double(files->size()));
                    item.insert(QStringLiteral("bytes"), double(bytes));
                    item.insert(QStringLiteral("listed"), names);
                    item.insert(QStringLiteral("listed_truncated"), files->size() > kListedFiles);
                    item.insert(QStringLiteral("left_out"), double(skipped.size()));
                    listed.append(item);
                }
                return textToolResult(QString::fromUtf8(QJsonDocument(listed).toJson(QJsonDocument::Compact)));
            },
    };
}

} // namespace sandbox::mcp
