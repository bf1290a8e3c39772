#include "cli/CliContext.h"

#include "backend/BackendFactory.h"

namespace sandbox::cli {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

QCommandLineOption backendOption(const QString &description)
{
    return QCommandLineOption(QStringLiteral("backend"), description, QStringLiteral("NAME"));
}

void printError(const QString &message)
{
    err() << "llm-sandbox: " << message << Qt::endl;
}

std::optional<int> parseOrExit(QCommandLineParser &parser, const QStringList &arguments)
{
    if (!parser.parse(arguments)) {
        printError(parser.errorText());
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out() << parser.helpText();
        return 0;
    }
    return std::nullopt;
}

Result<Environment> Environment::load(const QString &backendName)
{
    auto settings = SandboxSettings::fromEnvironment();
    if (!settings) {
        return settings.error();
    }
    auto backend = BackendFactory::create(backendName);
    if (!backend) {
        return backend.error();
    }
    return Environment{*settings, *backend};
}

} // namespace sandbox::cli
