#pragma once

#include <QByteArray>
#include <QList>
#include <QtGlobal>
#include <initializer_list>
#include <utility>

namespace sandbox::test {

/// Sets environment variables for one test (a null value unsets one) and restores them afterwards.
class ScopedEnvironment final
{
public:
    explicit ScopedEnvironment(std::initializer_list<std::pair<const char *, QByteArray>> values)
    {
        for (const auto &[name, value] : values) {
            m_saved.append({name, qgetenv(name), qEnvironmentVariableIsSet(name)});
            if (value.isNull()) {
                qunsetenv(name);
            } else {
                qputenv(name, value);
            }
        }
    }
    ~ScopedEnvironment()
    {
        for (const auto &saved : m_saved) {
            if (saved.wasSet) {
                qputenv(saved.name, saved.value);
            } else {
                qunsetenv(saved.name);
            }
        }
    }
    ScopedEnvironment(const ScopedEnvironment &) = delete;
    ScopedEnvironment &operator=(const ScopedEnvironment &) = delete;

private:
    struct Saved
    {
        const char *name;
        QByteArray value;
        bool wasSet;
    };
    QList<Saved> m_saved;
};

} // namespace sandbox::test
