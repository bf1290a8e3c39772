#pragma once

#include "util/Result.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QString>
#include <QTextStream>
#include <optional>

namespace sandbox::cli {

/// The translation context of what every command shares: the usage text, the common options, the common errors.
class Cli final
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

/// Exit statuses of the command line's own failures (a program's own status passes through).
enum ExitStatus
{
    ExitUsage = 2,       ///< a usage error or a bad request (unknown language, invalid setting, no such run)
    ExitTimeout = 124,   ///< the program timed out
    ExitFailure = 125,   ///< the sandbox could not run the code (engine unreachable, image missing, ...)
    ExitRefused = 126,   ///< the code policy refused the code; nothing ran
    ExitCancelled = 130, ///< cancelled (Ctrl-C), as a shell reports SIGINT
};

/// The exit status for a failure of kind `error.code`.
int exitStatusFor(const Error &error);

/// The --backend option every command that talks to an engine takes; `description` replaces the usual one.
QCommandLineOption backendOption(const QString &description = {});

/// Parses a command's `arguments`. Returns the status to exit with when the command is done already:
/// ExitUsage after printing the parser's error, 0 after printing --help; nullopt when it should go on.
std::optional<int> parseOrExit(QCommandLineParser &parser, const QStringList &arguments);

/// Prints "llm-sandbox: MESSAGE" on stderr: one line, for a person.
void printError(const QString &message);
/// Prints `error` as printError does: its (English) message, after its translated headline (ErrorText.h).
void printError(const Error &error);
QTextStream &out();
QTextStream &err();
/// Prints `rows` (the first is the header) on stdout as left-aligned columns two spaces apart.
void printColumns(const QList<QStringList> &rows);

/// How many terminal columns `text` takes: East Asian wide characters (Chinese) take two.
int displayWidth(const QString &text);
/// `text` padded with spaces to fill |columns| terminal columns, as QString::arg's field width pads to a number of
/// characters: on the left (right-aligned) when `columns` is positive, on the right (left-aligned) when negative.
QString padded(const QString &text, int columns);
/// The start of `text` that fits in `columns` terminal columns.
QString truncated(const QString &text, int columns);

/// The usage text of `llm-sandbox --help`.
QString usageText();

} // namespace sandbox::cli
