#pragma once

#include <QString>
#include <functional>

namespace sandbox::mcp {

/// A read-only resource the server offers (resources/list, resources/read).
struct Resource
{
    QString uri;
    QString name;
    QString title;
    QString description;
    QString mimeType;
    std::function<QString()> read;
};

} // namespace sandbox::mcp
