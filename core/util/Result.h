#pragma once

#include <QString>
#include <optional>
#include <utility>
#include <variant>

namespace sandbox {

/// What kind of failure an Error is. The command line's exit status, MCP's error shape and the GUI's
/// translated text come from the code; the message stays English for logs and models.
enum class ErrorCode
{
    Internal,          ///< a bug or an unexpected answer; nothing the caller can fix
    BadRequest,        ///< the caller asked for something invalid (unknown language, bad path, bad value)
    NotFound,          ///< the named session, run or file does not exist
    EngineUnreachable, ///< the container engine did not answer
    EngineFailed,      ///< the container engine answered with an error
    ImageMissing,      ///< the image a run needs is not there (and could not be built)
    PolicyRefused,     ///< the code policy refused the code before it ran
    LimitsNotEnforced, ///< the engine did not put a requested limit in force (and none was accepted as missing)
    LimitReached,      ///< a configured limit (sessions, file size) was reached
    InstallFailed,     ///< installing the libraries a run names failed
    SandboxFailed,     ///< the sandbox (container or runner) stopped or misbehaved
    Cancelled,         ///< the caller cancelled the work
    Unavailable,       ///< the feature is not available in this build or configuration
};

/// A short stable name of `code` ("engine_unreachable"), for JSON and logs.
inline const char *errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::Internal:
        return "internal";
    case ErrorCode::BadRequest:
        return "bad_request";
    case ErrorCode::NotFound:
        return "not_found";
    case ErrorCode::EngineUnreachable:
        return "engine_unreachable";
    case ErrorCode::EngineFailed:
        return "engine_failed";
    case ErrorCode::ImageMissing:
        return "image_missing";
    case ErrorCode::PolicyRefused:
        return "policy_refused";
    case ErrorCode::LimitsNotEnforced:
        return "limits_not_enforced";
    case ErrorCode::LimitReached:
        return "limit_reached";
    case ErrorCode::InstallFailed:
        return "install_failed";
    case ErrorCode::SandboxFailed:
        return "sandbox_failed";
    case ErrorCode::Cancelled:
        return "cancelled";
    case ErrorCode::Unavailable:
        return "unavailable";
    }
    return "internal";
}

/// The code named `name` (errorCodeName()), if any.
inline std::optional<ErrorCode> errorCodeFromName(QStringView name)
{
    for (int code = int(ErrorCode::Internal); code <= int(ErrorCode::Unavailable); ++code) {
        if (name == QLatin1String(errorCodeName(ErrorCode(code)))) {
            return ErrorCode(code);
        }
    }
    return std::nullopt;
}

/// An error travelling as a value: one sentence a user (or a model) can act on, and its kind.
struct Error
{
    QString message;
    ErrorCode code = ErrorCode::Internal;

    /// The same error with `newCode` (for layers that know better what a lower layer's failure means).
    Error withCode(ErrorCode newCode) const { return Error{message, newCode}; }
};

/// Minimal `expected`-style result (C++20 has no std::expected).
template <typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Error error) : m_value(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_value); }
    explicit operator bool() const { return ok(); }

    T &value() & { return std::get<T>(m_value); }
    const T &value() const & { return std::get<T>(m_value); }
    T &&value() && { return std::get<T>(std::move(m_value)); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }

    const Error &error() const { return std::get<Error>(m_value); }

private:
    std::variant<T, Error> m_value;
};

template <>
class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)) {}

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

} // namespace sandbox
