#include "folders/SharedFolder.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

namespace sandbox {

namespace {

const QString kReadWrite = QStringLiteral("rw");
const QString kReadOnly = QStringLiteral("ro");

/// Folders no user means to hand to code a model wrote, nor any folder inside them.
bool isSystemFolder(const QString &path)
{
    for (const char *system : {"/proc", "/sys", "/dev", "/etc", "/run", "/boot", "/var/run"}) {
        const QString folder = QLatin1String(system);
        if (path == folder || path.startsWith(folder + QLatin1Char('/'))) {
            return true;
        }
    }
    return false;
}

} // namespace

QString SharedFolder::mountPath() const
{
    return QStringLiteral("/data/") + name;
}

QString SharedFolder::text() const
{
    // A read-only folder named "rw" or "ro" says its mode: "PATH:rw" alone reads back as a writable folder.
    const bool nameLooksLikeMode = name == kReadWrite || name == kReadOnly;
    return path + QLatin1Char(':') + name +
           (writable            ? QStringLiteral(":rw")
            : nameLooksLikeMode ? QStringLiteral(":ro")
                                : QString());
}

bool SharedFolder::nameIsValid(const QString &name)
{
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$"));
    return valid.match(name).hasMatch();
}

QString SharedFolder::defaultName(const QString &path)
{
    QString name = QFileInfo(QDir::cleanPath(path)).fileName();
    static const QRegularExpression other(QStringLiteral("[^A-Za-z0-9._-]+"));
    name.replace(other, QStringLiteral("-"));
    while (!name.isEmpty() && (name.front() == QLatin1Char('.') || name.front() == QLatin1Char('-'))) {
        name.remove(0, 1);
    }
    name.truncate(64);
    return nameIsValid(name) ? name : QStringLiteral("folder");
}

Result<SharedFolder> SharedFolder::parse(const QString &text)
{
    QString rest = text.trimmed();
    SharedFolder folder;
    if (rest.endsWith(QLatin1Char(':') + kReadWrite) || rest.endsWith(QLatin1Char(':') + kReadOnly)) {
        folder.writable = rest.endsWith(kReadWrite);
        rest.chop(3);
    }
    const qsizetype colon = rest.lastIndexOf(QLatin1Char(':'));
    if (colon >= 0) {
        folder.name = rest.mid(colon + 1);
        rest.truncate(colon);
        if (!nameIsValid(folder.name)) {
            return Error{QStringLiteral("\"%1\" cannot name a shared folder: use 1 to 64 letters, digits, '.', '_' or "
                                        "'-', not starting with '.' or '-' (a path that contains ':' needs a name: "
                                        "PATH:NAME)")
                             .arg(folder.name),
                         ErrorCode::BadRequest};
        }
    }
    if (rest.isEmpty()) {
        return Error{QStringLiteral("Share a folder as PATH[:NAME][:rw], not \"%1\"").arg(text), ErrorCode::BadRequest};
    }
    const QFileInfo info(QDir::isAbsolutePath(rest) ? rest : QDir::current().absoluteFilePath(rest));
    if (!info.exists() || !info.isDir()) {
        return Error{QStringLiteral("%1 is not a folder").arg(info.absoluteFilePath()), ErrorCode::NotFound};
    }
    if (!info.isReadable() || !info.isExecutable()) {
        return Error{QStringLiteral("%1 cannot be read by llm-sandbox").arg(info.absoluteFilePath()),
                     ErrorCode::BadRequest};
    }
    folder.path = info.canonicalFilePath();
    if (folder.path == QLatin1String("/") || folder.path == QDir(QDir::homePath()).canonicalPath() ||
        isSystemFolder(folder.path)) {
        return Error{QStringLiteral("%1 cannot be shared with sandboxes: share a folder of your data inside it")
                         .arg(folder.path),
                     ErrorCode::BadRequest};
    }
    if (folder.name.isEmpty()) {
        folder.name = defaultName(folder.path);
    }
    return folder;
}

Result<QList<SharedFolder>> SharedFolder::parseList(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[;\\n]"));
    QList<SharedFolder> folders;
    QSet<QString> names;
    for (const QString &entry : text.split(separators, Qt::SkipEmptyParts)) {
        if (entry.trimmed().isEmpty()) {
            continue;
        }
        auto folder = parse(entry);
        if (!folder) {
            return folder.error();
        }
        if (names.contains(folder->name)) {
            return Error{QStringLiteral("Two shared folders are named \"%1\": give one another name (PATH:NAME)")
                             .arg(folder->name),
                         ErrorCode::BadRequest};
        }
        names.insert(folder->name);
        folders << *folder;
    }
    return folders;
}

QString SharedFolder::listText(const QList<SharedFolder> &folders)
{
    QStringList entries;
    for (const SharedFolder &folder : folders) {
        entries << folder.text();
    }
    return entries.join(QLatin1Char(';'));
}

QJsonObject SharedFolderUse::toJson() const
{
    return {
        {QStringLiteral("name"), name},           {QStringLiteral("path"), QString(QStringLiteral("/data/") + name)},
        {QStringLiteral("writable"), writable},   {QStringLiteral("files"), double(files)},
        {QStringLiteral("bytes"), double(bytes)}, {QStringLiteral("skipped"), double(skipped)}};
}

SharedFolderUse SharedFolderUse::fromJson(const QJsonObject &json)
{
    return {json.value(QStringLiteral("name")).toString(), json.value(QStringLiteral("writable")).toBool(),
            json.value(QStringLiteral("files")).toInteger(), json.value(QStringLiteral("bytes")).toInteger(),
            json.value(QStringLiteral("skipped")).toInteger()};
}

QJsonArray SharedFolderUse::listToJson(const QList<SharedFolderUse> &folders)
{
    QJsonArray json;
    for (const SharedFolderUse &folder : folders) {
        json.append(folder.toJson());
    }
    return json;
}

QList<SharedFolderUse> SharedFolderUse::listFromJson(const QJsonArray &json)
{
    QList<SharedFolderUse> folders;
    for (const QJsonValue folder : json) {
        folders << fromJson(folder.toObject());
    }
    return folders;
}

} // namespace sandbox
