#pragma once

#include "util/Result.h"

#include <QJsonObject>

namespace sandbox::mcp {

/// Checks tool arguments against the subset of JSON Schema our tools declare (type, properties, required,
/// default, items, enum, minimum, maximum, minLength) and fills in defaults. Like the Python server, it takes
/// `null` for "not given" and converts what assistants send loosely typed (arrays and objects as JSON text,
/// numbers and booleans as strings). Errors are sentences a model can act on; they name the argument, what it
/// must be and what was sent.
class ArgumentValidator final
{
public:
    static Result<QJsonObject> validate(const QJsonObject &schema, const QJsonObject &arguments);

    ArgumentValidator() = delete;
};

} // namespace sandbox::mcp
