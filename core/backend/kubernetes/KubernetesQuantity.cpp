#include "backend/kubernetes/KubernetesQuantity.h"

#include <QRegularExpression>
#include <cmath>
#include <limits>

namespace sandbox {

std::optional<long double> KubernetesQuantity::parse(const QString &text)
{
    // resource.Quantity's grammar: <signedNumber><suffix>; an exponent is "e" or "E" followed by a signed integer,
    // so "2E" is two exa and "2E3" two thousand.
    static const QRegularExpression grammar(QStringLiteral(
        R"(^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|n|u|m|k|M|G|T|P|E|)$)"));
    const QRegularExpressionMatch match = grammar.match(text.trimmed());
    if (!match.hasMatch()) {
        return std::nullopt;
    }
    bool numeric = false;
    const long double number = match.captured(1).toDouble(&numeric);
    if (!numeric) {
        return std::nullopt;
    }
    const QString suffix = match.captured(2);
    static const QString binary = QStringLiteral("KMGTPE");
    static const QString decimal = QStringLiteral("kMGTPE");
    long double scale = 1;
    if (suffix.isEmpty()) {
        scale = 1;
    } else if (suffix.size() == 2 && suffix.endsWith(u'i')) {
        scale = std::pow(1024.0L, binary.indexOf(suffix.at(0)) + 1);
    } else if (suffix.size() > 1) { // an exponent: e3, E-2
        scale = std::pow(10.0L, suffix.mid(1).toInt());
    } else if (suffix == u'n') {
        scale = 1e-9L;
    } else if (suffix == u'u') {
        scale = 1e-6L;
    } else if (suffix == u'm') {
        scale = 1e-3L;
    } else {
        scale = std::pow(1000.0L, decimal.indexOf(suffix.at(0)) + 1);
    }
    return number * scale;
}

std::optional<double> KubernetesQuantity::cores(const QString &text)
{
    const auto value = parse(text);
    if (!value) {
        return std::nullopt;
    }
    return double(*value);
}

std::optional<qint64> KubernetesQuantity::bytes(const QString &text)
{
    const auto value = parse(text);
    if (!value) {
        return std::nullopt;
    }
    // The value as parsed, up to rounding error of the scaling (1.1Ki is 1126.4 bytes, rounded up to 1127).
    const long double rounded = std::ceil(*value - 1e-9L);
    if (rounded >= std::ldexp(1.0L, 63) || rounded < -std::ldexp(1.0L, 63)) {
        return std::nullopt;
    }
    return qint64(rounded);
}

} // namespace sandbox
