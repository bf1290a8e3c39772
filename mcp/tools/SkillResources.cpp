#include "mcp/tools/SkillResources.h"

#include "engine/ExecutionEngine.h"
#include "lang/LanguageRegistry.h"
#include "settings/SandboxSettings.h"

#include <QCryptographicHash>
#include <QLocale>
#include <QStringList>

namespace sandbox::mcp {

namespace {

/// What the skill says that comes from the registry and the settings.
struct Facts
{
    QList<Language> languages;
    SandboxSettings settings;
};

Facts factsOf(ExecutionEngine *engine)
{
    return Facts{LanguageRegistry::instance().languages(), engine ? engine->settings() : SandboxSettings()};
}

QString mebibytes(qint64 bytes)
{
    return QString::number(bytes / (1024 * 1024));
}

/// At most `count` of `names`, then how many more there are (`more`: "and %1 more").
QString someOf(const QStringList &names, const QString &more, int count = 12)
{
    if (names.isEmpty()) {
        return QStringLiteral("—");
    }
    QStringList shown = names.mid(0, count);
    QString text = shown.join(QStringLiteral(", "));
    if (names.size() > count) {
        text += QLatin1Char(' ') + more.arg(names.size() - count);
    }
    return text;
}

/// The languages table's rows, each `row` with %1 the name, %2 the display name, %3 the package manager, %4 the
/// preinstalled libraries (`more`: "and %1 more") and %5 how charts are captured.
QString languageRows(const Facts &facts, const QString &row, const QString &more)
{
    QString rows;
    for (const Language &language : facts.languages) {
        rows += row.arg(language.name, language.displayName, language.packageManager,
                        someOf(language.preinstalledLibraries, more), language.visualization);
    }
    return rows;
}

/// The display names of the languages whose sessions keep their variables.
QStringList keepingVariables(const Facts &facts)
{
    QStringList names;
    for (const Language &language : facts.languages) {
        if (!language.sessionInterpreter.isEmpty()) {
            names << language.displayName;
        }
    }
    return names;
}

/// `lines` with %1 the default timeout (s), %2 the memory (MiB), %3 the CPUs, %4 the processes, %5 the output (MiB),
/// %6 the files a run and %7 each one's size (MiB).
QString limits(const SandboxSettings &s, const QString &lines)
{
    return lines.arg(s.defaultTimeout.count())
        .arg(mebibytes(s.memoryBytes))
        .arg(s.cpus)
        .arg(s.pidsLimit)
        .arg(mebibytes(s.maxOutputBytes))
        .arg(s.maxArtifacts)
        .arg(mebibytes(s.maxArtifactBytes));
}

QString frontMatter(const QString &name, const QString &description)
{
    return QStringLiteral("---\nname: %1\ndescription: %2\n---\n\n").arg(name, description);
}

QString english(const Facts &facts)
{
    const SandboxSettings &s = facts.settings;
    QString text = frontMatter(QStringLiteral("llm-sandbox"),
                               QStringLiteral("How to run code well with LLM Sandbox's execute_code (the languages and "
                                              "their libraries, sessions, the user's shared folders and network, "
                                              "charts and tables as data, limits and what errors mean)"));
    text += QStringLiteral(
        "# Running code with LLM Sandbox\n\n"
        "`execute_code` runs a complete program in a fresh, hardened container and returns its `exit_code`, `stdout`, "
        "`stderr`, `stop_reason`, resource usage and every chart it drew. The container has no network unless the "
        "user allowed hosts, and sees nothing of the user's computer unless the user shared a folder. Prefer one "
        "complete program per call; print the numbers you need to reason about.\n\n"
        "## Languages\n\n"
        "| language | packages with | preinstalled | charts |\n|---|---|---|---|\n");
    text += languageRows(facts, QStringLiteral("| `%1` (%2) | %3 | %4 | %5 |\n"),
                         QStringLiteral("and %1 more (get_language_details)"));
    text += QStringLiteral(
                "\nAnything else: `libraries: [\"name\", ...]` installs it before the code runs (with versions as "
                "the package manager writes them, e.g. `pandas==2.2.2`). A set installed once is kept: the next call "
                "with the same set says `libraries_cached: true` and starts at once.\n\n"
                "## Work in several steps: sessions\n\n"
                "`create_session` (language, libraries) gives a `session_id`; pass it to `execute_code` and the files "
                "in /sandbox stay from one call to the next, and for %1 the variables too. `upload_file` and "
                "`download_file` move files in and out; `close_session` removes it. Use a session to load data once "
                "and analyse it step by step.\n\n")
                .arg(QLocale(QLocale::English).createSeparatedList(keepingVariables(facts)));
    text += QStringLiteral(
        "## Charts and tables\n\n"
        "Charts drawn with matplotlib (also through seaborn and pandas), plotly, ggplot2, lattice and base R graphics "
        "are captured without saving them yourself; write any other image, HTML page, CSV or JSON file to "
        "`$LLM_SANDBOX_OUTPUT_DIR` and it comes back too. Each chart comes with its data: "
        "`structuredContent.artifacts[i].chart` holds its kind, title, axes and series (long series are cut to 200 "
        "points, every point is in the CSV named by `data_file`), and the text has one line per chart, such as "
        "`figure_1.png: scatter 'Price vs sales' — x 0.5–12, y 3–97, 200 points, r = 0.70`. From JavaScript, Java, "
        "C++, Go or Ruby, write a plotly figure or a Vega-Lite specification as JSON to the output folder to get the "
        "same. Tables: `display(df)` or `print(df)` in Python, a data frame printed in R, the last expression of a "
        "session cell, or a CSV in the output folder come back with their shape, columns and first rows; the whole "
        "table is a resource.\n\n");
    if (!s.sharedFolders.isEmpty()) {
        QStringList folders;
        for (const SharedFolder &folder : s.sharedFolders) {
            folders << QStringLiteral("`%1` (%2)")
                           .arg(folder.mountPath(), folder.writable ? QStringLiteral("results "
                                                                                     "may be "
                                                                                     "saved here")
                                                                    : QStringLiteral("read-"
                                                                                     "only"));
        }
        text +=
            QStringLiteral("## The user's folders\n\n"
                           "The user shared %1. Read the data there instead of asking for it; `list_shared_folders` "
                           "says what is in them. Files a run writes to a writable folder are saved to the user's "
                           "folder after the run (regular files, safe names, never over an existing file); "
                           "`save_to_folder` saves a file a run produced.\n\n")
                .arg(QLocale(QLocale::English).createSeparatedList(folders));
    }
    if (!s.networkAllow.isEmpty()) {
        text += QStringLiteral("## Network\n\n"
                               "Runs have no network unless the call asks for hosts within what the user allowed (%1): "
                               "`network: [\"api.example.org\"]`. Asking for more is an error naming what is allowed. "
                               "The hosts are reached through a proxy; other addresses, private ones included, are "
                               "refused.\n\n")
                    .arg(s.networkAllow.text());
    }
    text +=
        limits(s, QStringLiteral("## Limits\n\n"
                                 "- time: %1 s unless the call gives `timeout` (at most 3600)\n"
                                 "- memory: %2 MiB; CPUs: %3; processes: %4\n"
                                 "- output: %5 MiB of stdout and stderr together (more is cut, `output_truncated`)\n"
                                 "- files back: %6 a run, %7 MiB each\n\n"));
    text += QStringLiteral(
        "## When it fails\n\n"
        "`stop_reason` says why the program stopped: `exit` (it ended; look at `exit_code` and `stderr`), `timeout`, "
        "`oom` (out of memory: use less, or process in chunks), `cpu_limit`, `output_limit` (print less), "
        "`compile_failed` (the compiler's messages are in `stderr`), `cancelled`, `stopped_by_user`. When the code "
        "could not run at all, `error_code` says why: `bad_request` (fix the call), `install_failed` (a library did "
        "not install: check its name), `policy_refused`, `limit_reached` (too many sessions or too large a file), "
        "`engine_unreachable` or `image_missing` (the user must start the container engine or build the images: tell "
        "them), `unavailable`.\n");
    return text;
}

QString chinese(const Facts &facts)
{
    const SandboxSettings &s = facts.settings;
    QString text =
        frontMatter(QStringLiteral("llm-sandbox-zh"),
                    QStringLiteral("如何用好 LLM Sandbox 的 execute_code：各语言及其库、会话、用户共享的文件夹"
                                   "和网络、作为数据返回的图表和表格、限制以及错误的含义。"));
    text +=
        QStringLiteral("# 用 LLM Sandbox 运行代码\n\n"
                       "`execute_code` 在一个全新的、加固的容器里运行一个完整的程序，返回 `exit_code`、`stdout`、"
                       "`stderr`、`stop_reason`、资源用量以及它画出的每一张图。除非用户允许了某些主机，容器没有网络；"
                       "除非用户共享了文件夹，容器看不到用户电脑上的任何东西。每次调用最好是一个完整的程序；把需要"
                       "推理的数字打印出来。\n\n"
                       "## 语言\n\n"
                       "| 语言 | 安装包用 | 预装 | 图表 |\n|---|---|---|---|\n");
    text += languageRows(facts, QStringLiteral("| `%1`（%2） | %3 | %4 | %5 |\n"),
                         QStringLiteral("等另外 %1 个（get_language_details）"));
    text +=
        QStringLiteral("\n其他库：`libraries: [\"名称\", ...]` 会在代码运行前安装（版本按包管理器的写法，例如 "
                       "`pandas==2.2.2`）。同一组库安装一次后会被保留：下一次用同一组库的调用会返回 "
                       "`libraries_cached: true` 并立即开始。\n\n"
                       "## 分多步工作：会话\n\n"
                       "`create_session`（语言、库）返回 `session_id`；把它传给 `execute_code`，/sandbox 中的文件会在"
                       "调用之间保留，%1 的变量也会保留。`upload_file` 和 `download_file` 传入传出文件；"
                       "`close_session` 删除会话。用会话把数据加载一次，再一步一步分析。\n\n")
            .arg(keepingVariables(facts).join(QStringLiteral("、")));
    text += QStringLiteral(
        "## 图表和表格\n\n"
        "用 matplotlib（包括通过 seaborn 和 pandas）、plotly、ggplot2、lattice 和 R 基础绘图画的图会被"
        "自动捕获，不需要自己保存；其他图片、HTML 页面、CSV 或 JSON 文件写到 `$LLM_SANDBOX_OUTPUT_DIR` "
        "也会返回。每张图都带着数据：`structuredContent.artifacts[i].chart` 含有类型、标题、坐标轴和"
        "数据系列（长系列截取 200 个点，所有点在 `data_file` 指明的 CSV 中），文本中每张图一行，例如 "
        "`figure_1.png: scatter 'Price vs sales' — x 0.5–12, y 3–97, 200 points, r = 0.70`。在 "
        "JavaScript、Java、C++、Go 或 Ruby 中，把 plotly 图或 Vega-Lite 规范以 JSON 写到输出文件夹，"
        "也能得到同样的数据。表格：Python 中的 `display(df)` 或 `print(df)`、R 中打印的数据框、会话单元的"
        "最后一个表达式，或输出文件夹中的 CSV，会带着形状、列和前几行返回；整张表是一个资源。\n\n");
    if (!s.sharedFolders.isEmpty()) {
        QStringList folders;
        for (const SharedFolder &folder : s.sharedFolders) {
            folders << QStringLiteral("`%1`（%2）")
                           .arg(folder.mountPath(),
                                folder.writable ? QStringLiteral("结果可以保存在这里") : QStringLiteral("只读"));
        }
        text +=
            QStringLiteral("## 用户的文件夹\n\n"
                           "用户共享了 %1。请直接读取那里的数据，而不是向用户要；`list_shared_folders` 会列出其中的"
                           "内容。运行写到可写文件夹中的文件会在运行结束后保存到用户的文件夹（只保存普通文件、安全的"
                           "名称，绝不覆盖已有文件）；`save_to_folder` 保存一次运行产生的文件。\n\n")
                .arg(folders.join(QStringLiteral("、")));
    }
    if (!s.networkAllow.isEmpty()) {
        text +=
            QStringLiteral("## 网络\n\n"
                           "运行默认没有网络，除非调用在用户允许的范围（%1）内请求主机：`network: "
                           "[\"api.example.org\"]`。请求超出范围会报错并列出允许的主机。主机经由代理访问；其他地址，"
                           "包括私有地址，都会被拒绝。\n\n")
                .arg(s.networkAllow.text());
    }
    text += limits(s, QStringLiteral("## 限制\n\n"
                                     "- 时间：%1 秒，除非调用给出 `timeout`（最多 3600）\n"
                                     "- 内存：%2 MiB；CPU：%3；进程：%4\n"
                                     "- 输出：stdout 和 stderr 合计 %5 MiB（超出部分被截断，`output_truncated`）\n"
                                     "- 返回的文件：每次运行 %6 个，每个 %7 MiB\n\n"));
    text +=
        QStringLiteral("## 失败时\n\n"
                       "`stop_reason` 说明程序为什么停止：`exit`（程序自己结束；看 `exit_code` 和 `stderr`）、"
                       "`timeout`、`oom`（内存不足：少用一些内存，或分块处理）、`cpu_limit`、`output_limit`（少打印"
                       "一些）、`compile_failed`（编译器的信息在 `stderr` 中）、`cancelled`、`stopped_by_user`。代码"
                       "根本没能运行时，`error_code` 说明原因：`bad_request`（修正调用）、`install_failed`（某个库没"
                       "装上：检查名称）、`policy_refused`、`limit_reached`（会话太多或文件太大）、"
                       "`engine_unreachable` 或 `image_missing`（用户需要启动容器引擎或构建镜像：请告诉用户）、"
                       "`unavailable`。\n");
    return text;
}

Resource skill(const QString &name, const QString &title, const QString &description, QString (*write)(const Facts &),
               ExecutionEngine *engine)
{
    return Resource{
        .uri = SkillResources::kScheme + name + QStringLiteral("/SKILL.md"),
        .name = name,
        .title = title,
        .description = description,
        .mimeType = QStringLiteral("text/markdown"),
        .read = [write, engine] { return write(factsOf(engine)); },
    };
}

} // namespace

QList<Resource> SkillResources::resources(ExecutionEngine *engine)
{
    return {
        skill(QStringLiteral("llm-sandbox"), QStringLiteral("Using LLM Sandbox well"),
              QStringLiteral("How to run code well with execute_code: languages and libraries, sessions, shared "
                             "folders and network, charts and tables as data, limits and errors (a skill)."),
              english, engine),
        skill(QStringLiteral("llm-sandbox-zh"), QStringLiteral("用好 LLM Sandbox"),
              QStringLiteral("The same skill in Simplified Chinese: 如何用好 execute_code。"), chinese, engine),
    };
}

bool SkillResources::isSkill(const Resource &resource)
{
    return resource.uri.startsWith(kScheme);
}

QJsonObject SkillResources::entry(const Resource &skill)
{
    const QByteArray bytes = skill.read().toUtf8();
    // The front matter as written: its name and description.
    QJsonObject frontmatter;
    const QStringList lines = QString::fromUtf8(bytes).split(QLatin1Char('\n'));
    for (qsizetype line = 1; line < lines.size() && lines[line] != QLatin1String("---"); ++line) {
        const qsizetype colon = lines[line].indexOf(QStringLiteral(": "));
        if (colon > 0) {
            frontmatter.insert(lines[line].left(colon), lines[line].mid(colon + 2));
        }
    }
    const QString digest = QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    const QJsonObject file{{QStringLiteral("uri"), skill.uri},
                           {QStringLiteral("digest"), QString(QStringLiteral("sha256:") + digest)},
                           {QStringLiteral("size"), qint64(bytes.size())}};
    return QJsonObject{{QStringLiteral("uri"), skill.uri},
                       {QStringLiteral("frontmatter"), frontmatter},
                       {QStringLiteral("resources"), QJsonArray{file}}};
}

} // namespace sandbox::mcp
