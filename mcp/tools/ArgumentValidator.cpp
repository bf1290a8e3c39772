#include "mcp/tools/ArgumentValidator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

namespace sandbox::mcp {

namespace {

QString describe(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean (%1)").arg(value.toBool() ? QStringLiteral("true") : QStringLiteral("false"));
    case QJsonValue::Double:
        return QStringLiteral("a number (%1)").arg(value.toDouble());
    case QJsonValue::String: {
        QString text = value.toString();
        if (text.size() > 40) {
            text = text.left(40) + QStringLiteral("...");
        }
        return QStringLiteral("a string (\"%1\")").arg(text);
    }
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    }
    return QStringLiteral("an unknown value");
}

bool isInteger(const QJsonValue &value)
{
    if (!value.isDouble()) {
        return false;
    }
    const double number = value.toDouble();
    return std::isfinite(number) && std::floor(number) == number && std::abs(number) <= 9007199254740992.0;
}

bool hasType(const QJsonValue &value, const QString &type)
{
    if (type == QLatin1String("string")) {
        return value.isString();
    }
    if (type == QLatin1String("integer")) {
        return isInteger(value);
    }
    if (type == QLatin1String("number")) {
        return value.isDouble();
    }
    if (type == QLatin1String("boolean")) {
        return value.isBool();
    }
    if (type == QLatin1String("array")) {
        return value.isArray();
    }
    if (type == QLatin1String("object")) {
        return value.isObject();
    }
    return true; // a type we do not declare: accept rather than reject valid calls
}

QString article(const QString &type)
{
    return (type == QLatin1String("integer") || type == QLatin1String("array") || type == QLatin1String("object"))
               ? QStringLiteral("an ") + type
               : QStringLiteral("a ") + type;
}

QString typeName(const QJsonObject &schema)
{
    const QString type = schema.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("array")) {
        const QString itemType =
            schema.value(QStringLiteral("items")).toObject().value(QStringLiteral("type")).toString();
        if (!itemType.isEmpty()) {
            return QStringLiteral("an array of %1s").arg(itemType);
        }
    }
    return article(type);
}

/// What the Python server (FastMCP and pydantic's lax mode) accepted besides the declared type, as assistants send
/// it: arrays and objects as JSON text, numbers as numeric strings, booleans as "true"/"1"/"yes"/"on" and the
/// opposites. Anything else comes back unchanged and the type check names it.
QJsonValue coerce(const QJsonObject &schema, const QJsonValue &value)
{
    const QString type = schema.value(QStringLiteral("type")).toString();
    if (value.isString() && !hasType(value, type)) {
        const QString text = value.toString().trimmed();
        if (type == QLatin1String("array") || type == QLatin1String("object")) {
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
            if (error.error == QJsonParseError::NoError) {
                const QJsonValue parsed =
                    document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
                return hasType(parsed, type) ? coerce(schema, parsed) : value;
            }
        } else if (type == QLatin1String("integer") || type == QLatin1String("number")) {
            bool ok = false;
            const double number = text.toDouble(&ok);
            // toDouble also reads "inf" and "nan", which no JSON number is.
            if (ok && std::isfinite(number)) {
                return hasType(QJsonValue(number), type) ? QJsonValue(number) : value;
            }
        } else if (type == QLatin1String("boolean")) {
            static const QStringList yes{QStringLiteral("true"), QStringLiteral("1"), QStringLiteral("yes"),
                                         QStringLiteral("on")};
            static const QStringList no{QStringLiteral("false"), QStringLiteral("0"), QStringLiteral("no"),
                                        QStringLiteral("off")};
            if (yes.contains(text, Qt::CaseInsensitive)) {
                return true;
            }
            if (no.contains(text, Qt::CaseInsensitive)) {
                return false;
            }
        }
        return value;
    }
    if (type == QLatin1String("array") && value.isArray() && schema.contains(QStringLiteral("items"))) {
        const QJsonObject items = schema.value(QStringLiteral("items")).toObject();
        QJsonArray array = value.toArray();
        for (auto item = array.begin(); item != array.end(); ++item) {
            *item = coerce(items, *item);
        }
        return array;
    }
    return value;
}

std::optional<Error> checkValue(const QString &name, const QJsonObject &schema, const QJsonValue &value)
{
    const QString type = schema.value(QStringLiteral("type")).toString();
    if (!type.isEmpty() && !hasType(value, type)) {
        return Error{
            QStringLiteral("Argument \"%1\" must be %2, but got %3.").arg(name, typeName(schema), describe(value))};
    }
    if (type == QLatin1String("array") && schema.contains(QStringLiteral("items"))) {
        const QJsonObject items = schema.value(QStringLiteral("items")).toObject();
        const QString itemType = items.value(QStringLiteral("type")).toString();
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (!itemType.isEmpty() && !hasType(array.at(i), itemType)) {
                return Error{QStringLiteral("Argument \"%1\" must be %2, but item %3 is %4.")
                                 .arg(name, typeName(schema))
                                 .arg(i + 1)
                                 .arg(describe(array.at(i)))};
            }
        }
    }
    if (schema.contains(QStringLiteral("enum")) && !schema.value(QStringLiteral("enum")).toArray().contains(value)) {
        QStringList allowed;
        for (const QJsonValue &option : schema.value(QStringLiteral("enum")).toArray()) {
            allowed << QString::fromUtf8(QJsonDocument(QJsonArray{option}).toJson(QJsonDocument::Compact))
                           .mid(1)
                           .chopped(1);
        }
        return Error{QStringLiteral("Argument \"%1\" must be one of %2, but got %3.")
                         .arg(name, allowed.join(QStringLiteral(", ")), describe(value))};
    }
    if (value.isDouble()) {
        const double number = value.toDouble();
        if (schema.contains(QStringLiteral("minimum")) && number < schema.value(QStringLiteral("minimum")).toDouble()) {
            return Error{QStringLiteral("Argument \"%1\" must be at least %2, but got %3.")
                             .arg(name)
                             .arg(schema.value(QStringLiteral("minimum")).toDouble())
                             .arg(number)};
        }
        if (schema.contains(QStringLiteral("maximum")) && number > schema.value(QStringLiteral("maximum")).toDouble()) {
            return Error{QStringLiteral("Argument \"%1\" must be at most %2, but got %3.")
                             .arg(name)
                             .arg(schema.value(QStringLiteral("maximum")).toDouble())
                             .arg(number)};
        }
    }
    if (value.isString() && schema.contains(QStringLiteral("minLength")) &&
        value.toString().size() < schema.value(QStringLiteral("minLength")).toInt()) {
        return Error{schema.value(QStringLiteral("minLength")).toInt() == 1
                         ? QStringLiteral("Argument \"%1\" must not be empty.").arg(name)
                         : QStringLiteral("Argument \"%1\" must be at least %2 characters long.")
                               .arg(name)
                               .arg(schema.value(QStringLiteral("minLength")).toInt())};
    }
    return std::nullopt;
}

} // namespace

Result<QJsonObject> ArgumentValidator::validate(const QJsonObject &schema, const QJsonObject &arguments)
{
    const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
    QJsonObject out = arguments;

    // Optional arguments sent as null mean "not given" (the Python server typed them `X | None`).
    for (auto it = out.begin(); it != out.end();) {
        it = it.value().isNull() && properties.contains(it.key()) ? out.erase(it) : std::next(it);
    }

    for (const QJsonValue &required : schema.value(QStringLiteral("required")).toArray()) {
        const QString name = required.toString();
        if (!out.contains(name)) {
            const QJsonObject property = properties.value(name).toObject();
            QString message = QStringLiteral("Missing required argument \"%1\"").arg(name);
            if (property.contains(QStringLiteral("type"))) {
                message += QStringLiteral(" (%1)").arg(property.value(QStringLiteral("type")).toString());
            }
            const QString description = property.value(QStringLiteral("description")).toString();
            message += description.isEmpty() ? QStringLiteral(".") : QStringLiteral(": ") + description;
            return Error{message};
        }
    }

    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const QJsonObject property = it.value().toObject();
        if (!out.contains(it.key())) {
            if (property.contains(QStringLiteral("default"))) {
                out.insert(it.key(), property.value(QStringLiteral("default")));
            }
            continue;
        }
        const QJsonValue value = coerce(property, out.value(it.key()));
        if (auto error = checkValue(it.key(), property, value)) {
            return *error;
        }
        out.insert(it.key(), value);
    }
    // Unknown extra arguments are ignored, as the Python server (pydantic) did.
    return out;
}

} // namespace sandbox::mcp
