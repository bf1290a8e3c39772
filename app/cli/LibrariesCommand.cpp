#include "cli/LibrariesCommand.h"

#include "cli/CliContext.h"
#include "libraries/LibraryCache.h"
#include "settings/SandboxSettings.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

namespace sandbox::cli {

namespace {

class LibrariesCommand final
{
    Q_DECLARE_TR_FUNCTIONS(LibrariesCommand)
};

QString mebibytes(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

int list(const LibraryCache &cache, bool json)
{
    const QList<LibraryCache::Entry> entries = cache.entries();
    qint64 total = 0;
    for (const LibraryCache::Entry &entry : entries) {
        total += entry.archiveBytes;
    }
    if (json) {
        QJsonArray items;
        for (const LibraryCache::Entry &entry : entries) {
            items.append(QJsonObject{{QStringLiteral("key"), entry.key},
                                     {QStringLiteral("language"), entry.language},
                                     {QStringLiteral("libraries"), QJsonArray::fromStringList(entry.libraries)},
                                     {QStringLiteral("image"), entry.image},
                                     {QStringLiteral("archive_bytes"), entry.archiveBytes},
                                     {QStringLiteral("unpacked_bytes"), entry.unpackedBytes},
                                     {QStringLiteral("created"), entry.created.toString(Qt::ISODate)},
                                     {QStringLiteral("last_used"), entry.lastUsed.toString(Qt::ISODate)}});
        }
        const QJsonObject document{{QStringLiteral("folder"), cache.folder()},
                                   {QStringLiteral("cap_bytes"), cache.capBytes()},
                                   {QStringLiteral("total_bytes"), total},
                                   {QStringLiteral("entries"), items}};
        out() << QJsonDocument(document).toJson(QJsonDocument::Indented) << Qt::flush;
        return 0;
    }
    if (!cache.isEnabled()) {
        err() << LibrariesCommand::tr("The library cache is off (LLM_SANDBOX_LIBRARY_CACHE=off).") << Qt::endl;
        return 0;
    }
    if (entries.isEmpty()) {
        err() << LibrariesCommand::tr("No library sets in the cache (%1): a run with libraries keeps its own there.")
                     .arg(cache.folder())
              << Qt::endl;
        return 0;
    }
    QList<QStringList> rows{{LibrariesCommand::tr("LANGUAGE"), LibrariesCommand::tr("LIBRARIES"),
                             LibrariesCommand::tr("PACKED"), LibrariesCommand::tr("UNPACKED"),
                             LibrariesCommand::tr("LAST USED")}};
    for (const LibraryCache::Entry &entry : entries) {
        rows << QStringList{entry.language, entry.libraries.join(u','), mebibytes(entry.archiveBytes),
                            mebibytes(entry.unpackedBytes),
                            QLocale().toString(entry.lastUsed.toLocalTime(), QLocale::ShortFormat)};
    }
    printColumns(rows);
    err() << LibrariesCommand::tr("%1 of %2 in %3").arg(mebibytes(total), mebibytes(cache.capBytes()), cache.folder())
          << Qt::endl;
    return 0;
}

} // namespace

int librariesCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        LibrariesCommand::tr("The library sets installed once and kept for later calls with the same libraries."));
    parser.addHelpOption();
    const QCommandLineOption jsonOption(QStringLiteral("json"), LibrariesCommand::tr("list: as JSON."));
    parser.addOption(jsonOption);
    parser.addPositionalArgument(QStringLiteral("list | prune [LANG...]"),
                                 LibrariesCommand::tr("list: show them. prune: remove them all, or those of LANG."));
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    QStringList positional = parser.positionalArguments();
    const QString action = positional.isEmpty() ? QString() : positional.takeFirst();
    auto settings = SandboxSettings::fromEnvironment();
    if (!settings) {
        printError(settings.error());
        return ExitUsage;
    }
    LibraryCache cache(settings->libraryCacheFolder, settings->libraryCacheBytes);
    if (action == QLatin1String("list") && positional.isEmpty()) {
        return list(cache, parser.isSet(jsonOption));
    }
    if (action == QLatin1String("prune")) {
        auto freed = cache.prune(positional);
        if (!freed) {
            printError(freed.error());
            return ExitFailure;
        }
        err() << LibrariesCommand::tr("Removed %1 of cached libraries; the next call with them installs them again.")
                     .arg(mebibytes(*freed))
              << Qt::endl;
        return 0;
    }
    printError(LibrariesCommand::tr("use `llm-sandbox libraries list [--json]` or `llm-sandbox libraries prune "
                                    "[LANG...]`."));
    return ExitUsage;
}

} // namespace sandbox::cli
