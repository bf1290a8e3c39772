#include "engine/RunSource.h"

#include <QStringList>

namespace sandbox {

QString toString(RunSource source)
{
    switch (source) {
    case RunSource::Gui:
        return QStringLiteral("gui");
    case RunSource::Cli:
        return QStringLiteral("cli");
    case RunSource::Mcp:
        return QStringLiteral("mcp");
    case RunSource::Http:
        return QStringLiteral("http");
    case RunSource::Replay:
        return QStringLiteral("replay");
    }
    return QStringLiteral("cli");
}

std::optional<RunSource> runSourceFromString(const QString &text)
{
    for (RunSource source : kRunSources) {
        if (text == toString(source)) {
            return source;
        }
    }
    return std::nullopt;
}

QString toString(const QList<RunSource> &sources)
{
    QStringList names;
    for (const RunSource source : sources) {
        names << toString(source);
    }
    return names.join(QLatin1Char(','));
}

QList<RunSource> runSourcesFromString(const QString &text)
{
    QList<RunSource> sources;
    for (const QString &name : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const std::optional<RunSource> source = runSourceFromString(name.trimmed());
        if (!source) {
            return {};
        }
        sources << *source;
    }
    return sources;
}

} // namespace sandbox
