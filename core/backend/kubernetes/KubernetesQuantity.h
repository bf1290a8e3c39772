#pragma once

#include <QString>
#include <optional>

namespace sandbox {

/// Kubernetes resource quantities as resource.Quantity reads them: a decimal number ("1", "0.5", ".5", "+2") with
/// a binary suffix (Ki Mi Gi Ti Pi Ei), a decimal one (n u m k M G T P E, or none) or an exponent ("129e6").
/// metrics-server writes CPU in nanocores ("250000n", or "12m" when that is exact) and memory in bytes or Ki.
class KubernetesQuantity final
{
public:
    /// The value of `text`; nullopt when it is not a quantity.
    static std::optional<long double> parse(const QString &text);
    /// CPU in cores: "250m" -> 0.25, "1500000n" -> 0.0015, "2" -> 2.
    static std::optional<double> cores(const QString &text);
    /// Bytes, a fraction rounded up as Quantity.Value() rounds: "34Mi" -> 35651584, "1.5k" -> 1500; nullopt when
    /// not a quantity or beyond 64 bits.
    static std::optional<qint64> bytes(const QString &text);
};

} // namespace sandbox
