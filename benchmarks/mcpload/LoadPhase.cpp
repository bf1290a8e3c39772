#include "LoadPhase.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>

namespace sandbox::mcpload {

void runEventLoopFor(std::chrono::milliseconds duration)
{
    QEventLoop loop;
    QTimer::singleShot(duration, &loop, &QEventLoop::quit);
    loop.exec();
}

CallPlan markedCalls(const QString &tag, int client)
{
    return [tag, client](int call) {
        const QString marker = QStringLiteral("%1-c%2-r%3").arg(tag).arg(client).arg(call);
        return Call{QStringLiteral("print(\"%1\", %2*1000+%3)\n").arg(marker).arg(client).arg(call),
                    QStringLiteral("%1 %2\n").arg(marker).arg(client * 1000 + call).toUtf8()};
    };
}

CallPlan printOneCalls()
{
    return [](int) {
        return Call{QStringLiteral("print(1)\n"), QByteArrayLiteral("1\n")};
    };
}

QString quoted(const QByteArray &bytes)
{
    return QLatin1Char('"') + QString::fromUtf8(bytes.left(200)).replace(QLatin1Char('\n'), QLatin1String("\\n")) +
           QLatin1Char('"');
}

QString compact(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)).left(300);
}

Verdict judge(const McpAnswer &answer, const QByteArray &expected)
{
    if (!answer.error.isEmpty()) {
        return {Outcome::Lost, answer.error};
    }
    if (answer.message.contains(QLatin1String("error"))) {
        return {Outcome::Failed, QStringLiteral("JSON-RPC error %1").arg(compact(answer.message))};
    }
    const QJsonObject result = answer.message.value(QLatin1String("result")).toObject();
    const QString text =
        result.value(QLatin1String("content")).toArray().at(0).toObject().value(QLatin1String("text")).toString();
    const QJsonObject run = QJsonDocument::fromJson(text.toUtf8()).object();
    if (result.value(QLatin1String("isError")).toBool() || run.value(QLatin1String("exit_code")).toInt(-1) != 0) {
        return {Outcome::Failed, QStringLiteral("the run failed: %1").arg(text.left(160))};
    }
    const QByteArray stdoutData = run.value(QLatin1String("stdout")).toString().toUtf8();
    if (stdoutData != expected) {
        return {Outcome::WrongOutput,
                QStringLiteral("stdout %1 instead of %2").arg(quoted(stdoutData), quoted(expected))};
    }
    return {};
}

double percentile(const std::vector<double> &sorted, double p)
{
    if (sorted.empty()) {
        return 0;
    }
    const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * double(sorted.size())));
    return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

double ratio(double value, double base)
{
    return base > 0 ? value / base : 0;
}

PhaseResult summarize(const std::vector<const ClientStats *> &clients, bool timedOut)
{
    PhaseResult phase;
    phase.timedOut = timedOut;
    qint64 first = LLONG_MAX;
    qint64 last = -1;
    for (const ClientStats *client : clients) {
        phase.latenciesMs.insert(phase.latenciesMs.end(), client->latenciesMs.begin(), client->latenciesMs.end());
        phase.tally.add(client->tally);
        phase.problems += client->problems;
        phase.okOutputs += client->okOutputs;
        if (client->firstCallNs >= 0) {
            first = std::min(first, client->firstCallNs);
        }
        last = std::max(last, client->lastAnswerNs);
    }
    std::sort(phase.latenciesMs.begin(), phase.latenciesMs.end());
    phase.seconds = last > first ? double(last - first) / 1e9 : 0;
    return phase;
}

std::chrono::milliseconds phaseTimeout(int calls)
{
    return std::chrono::milliseconds(kCallTimeout) * (calls + 2);
}

} // namespace sandbox::mcpload
