#include "cli/TerminalInput.h"

#include "cli/CliContext.h"

#include <QFile>
#include <csignal>
#include <termios.h>
#include <unistd.h>

namespace sandbox::cli {

namespace {

/// The terminal's settings while echo is off for a password, for the signal handler that puts them back.
termios g_echoingTerminal{};

/// Ctrl-C (or a kill) at the password prompt: echo comes back before the program ends as the signal says.
void restoreEchoAndDie(int signalNumber)
{
    ::tcsetattr(STDIN_FILENO, TCSANOW, &g_echoingTerminal);
    ::signal(signalNumber, SIG_DFL);
    ::raise(signalNumber);
}

} // namespace

QString promptLine(const QString &prompt, bool secret)
{
    err() << prompt << Qt::flush;
    termios saved{};
    const bool quiet = secret && ::tcgetattr(STDIN_FILENO, &saved) == 0;
    if (quiet) {
        g_echoingTerminal = saved;
        ::signal(SIGINT, restoreEchoAndDie);
        ::signal(SIGTERM, restoreEchoAndDie);
        ::signal(SIGHUP, restoreEchoAndDie);
        termios noEcho = saved;
        noEcho.c_lflag &= ~tcflag_t(ECHO);
        ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &noEcho);
    }
    QFile in;
    QString line;
    if (in.open(stdin, QIODevice::ReadOnly)) {
        line = QString::fromUtf8(in.readLine());
    }
    if (quiet) {
        ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
        ::signal(SIGINT, SIG_DFL);
        ::signal(SIGTERM, SIG_DFL);
        ::signal(SIGHUP, SIG_DFL);
        err() << Qt::endl; // the newline the user typed was not echoed
    }
    while (line.endsWith(QLatin1Char('\n')) || line.endsWith(QLatin1Char('\r'))) {
        line.chop(1);
    }
    return line;
}

QByteArray readSecret(const QString &prompt)
{
    if (::isatty(STDIN_FILENO) == 1) {
        return promptLine(prompt, true).toUtf8();
    }
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly)) {
        return {};
    }
    QByteArray secret = in.readAll();
    while (secret.endsWith('\n') || secret.endsWith('\r')) {
        secret.chop(1);
    }
    return secret;
}

} // namespace sandbox::cli
