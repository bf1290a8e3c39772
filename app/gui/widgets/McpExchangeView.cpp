#include "gui/widgets/McpExchangeView.h"

#include "gui/widgets/CodeEditor.h"
#include "gui/widgets/ReadOnlyText.h"
#include "gui/widgets/ThumbnailProvider.h"

#include <QApplication>
#include <QClipboard>
#include <QCursor>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QToolTip>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {

constexpr QSize kImageBox{400, 300};

QLabel *heading(const QString &text)
{
    auto *label = new QLabel(text);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    return label;
}

/// As tall as its text, up to `maxLines` (then it scrolls): the tab scrolls as one, no box is a peephole.
void fitHeight(QPlainTextEdit *edit, int maxLines, int extraLines = 0)
{
    const int lines = std::clamp(edit->document()->blockCount(), 1, maxLines) + extraLines;
    const QFontMetrics metrics(edit->font());
    edit->setFixedHeight(lines * metrics.lineSpacing() + 2 * edit->frameWidth() +
                         int(2 * edit->document()->documentMargin()) + metrics.descent() +
                         edit->horizontalScrollBar()->sizeHint().height());
}

/// Long base64 strings (image items) shortened, so the messages stay readable.
QJsonValue shortened(const QJsonValue &value)
{
    constexpr qsizetype limit = 160;
    if (value.isString() && value.toString().size() > limit) {
        const QString text = value.toString();
        return McpExchangeView::tr("%1… (%2 characters)").arg(text.left(40)).arg(text.size());
    }
    if (value.isArray()) {
        QJsonArray array;
        for (const QJsonValue &item : value.toArray()) {
            array.append(shortened(item));
        }
        return array;
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        QJsonObject result;
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            // Text items and code are what the model read and wrote: kept whole.
            const bool whole = it.key() == QLatin1String("text") || it.key() == QLatin1String("code");
            result.insert(it.key(), whole ? it.value() : shortened(it.value()));
        }
        return result;
    }
    return value;
}

QString pretty(const QJsonValue &value)
{
    if (value.isObject()) {
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented)).trimmed();
    }
    if (value.isArray()) {
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented)).trimmed();
    }
    return value.toVariant().toString();
}

/// Strings inside that are JSON themselves (a text item's result object) parsed, so they are shown indented too.
QJsonValue expanded(const QJsonValue &value)
{
    if (value.isString()) {
        const QString text = value.toString().trimmed();
        if (text.startsWith(QLatin1Char('{')) || text.startsWith(QLatin1Char('['))) {
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
            if (error.error == QJsonParseError::NoError) {
                return document.isObject() ? QJsonValue(expanded(document.object()).toObject())
                                           : QJsonValue(expanded(document.array()).toArray());
            }
        }
        return value;
    }
    if (value.isArray()) {
        QJsonArray array;
        for (const QJsonValue &item : value.toArray()) {
            array.append(expanded(item));
        }
        return array;
    }
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            it.value() = expanded(it.value());
        }
        return object;
    }
    return value;
}

void clearForm(QFormLayout *form)
{
    while (form->rowCount() > 0) {
        form->removeRow(0);
    }
}

void clearLayout(QVBoxLayout *layout)
{
    while (QLayoutItem *item = layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

QLabel *valueLabel(const QString &text)
{
    auto *label = new QLabel(text);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

bool isMcpSource(const JournalRun &run)
{
    return run.source == RunSource::Mcp || run.source == RunSource::Http;
}

} // namespace

McpExchangeView::McpExchangeView(ThumbnailProvider &thumbnails, QWidget *parent)
    : QWidget(parent), m_thumbnails(thumbnails)
{
    m_state = new QLabel;
    m_state->setObjectName(QStringLiteral("mcpState"));
    m_state->setWordWrap(true);
    m_header = new QFormLayout;
    m_arguments = new QFormLayout;
    m_arguments->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_arguments->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_resultTitle = heading(tr("Result"));
    m_result = new QVBoxLayout;
    m_result->setContentsMargins(0, 0, 0, 0);

    m_request = readOnlyText(QStringLiteral("runMcpRequest"));
    m_response = readOnlyText(QStringLiteral("runMcpResponse"));
    auto *rawSplitter = new QSplitter(Qt::Vertical);
    auto titled = [](const QString &title, QWidget *content) {
        auto *box = new QWidget;
        auto *layout = new QVBoxLayout(box);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(2);
        layout->addWidget(new QLabel(title));
        layout->addWidget(content, 1);
        return box;
    };
    rawSplitter->addWidget(titled(tr("Tool call, as the client sent it"), m_request));
    rawSplitter->addWidget(titled(tr("Result, as it was returned"), m_response));
    rawSplitter->setMinimumHeight(320);
    m_raw = new QWidget;
    auto *rawLayout = new QVBoxLayout(m_raw);
    rawLayout->setContentsMargins(0, 0, 0, 0);
    rawLayout->addWidget(heading(tr("Messages")));
    rawLayout->addWidget(rawSplitter);

    m_copy = new QPushButton(tr("Copy as Command"));
    m_copy->setObjectName(QStringLiteral("mcpCopyAsCommand"));
    auto *menu = new QMenu(m_copy);
    auto copy = [this](const QString &command) {
        QApplication::clipboard()->setText(command);
        QToolTip::showText(m_copy->mapToGlobal(QPoint(0, m_copy->height())), tr("Copied"), m_copy);
    };
    QAction *cli = menu->addAction(tr("llm-sandbox run …"), this, [this, copy] { copy(runCommand(m_run)); });
    cli->setObjectName(QStringLiteral("mcpCopyRunCommand"));
    cli->setToolTip(tr("The same code, language, libraries and timeout from a shell"));
    QAction *inspector =
        menu->addAction(tr("MCP Inspector CLI …"), this, [this, copy] { copy(inspectorCommand(m_run)); });
    inspector->setObjectName(QStringLiteral("mcpCopyInspectorCommand"));
    inspector->setToolTip(tr("The same tool call through the MCP Inspector against llm-sandbox --mcp"));
    menu->setToolTipsVisible(true);
    m_copy->setMenu(menu);

    auto *top = new QHBoxLayout;
    top->addWidget(m_state, 1);
    top->addWidget(m_copy, 0, Qt::AlignTop);

    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    layout->addLayout(top);
    layout->addLayout(m_header);
    layout->addWidget(heading(tr("Arguments")));
    layout->addLayout(m_arguments);
    layout->addSpacing(6);
    layout->addWidget(m_resultTitle);
    layout->addLayout(m_result);
    layout->addSpacing(6);
    layout->addWidget(m_raw);
    layout->addStretch(1);
    auto *scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    connect(&m_thumbnails, &ThumbnailProvider::thumbnailReady, this, [this](const QString &key, QSize size) {
        if (size != kImageBox) {
            return;
        }
        for (QLabel *label : findChildren<QLabel *>(QStringLiteral("mcpResultImage"))) {
            if (label->property("thumbnailKey").toString() != key) {
                continue;
            }
            const QByteArray data = QByteArray::fromBase64(label->property("imageData").toByteArray());
            if (auto thumbnail = m_thumbnails.thumbnail(data, label->property("mimeType").toString(), kImageBox)) {
                if (thumbnail->image.isNull()) {
                    label->setText(thumbnail->why);
                } else {
                    label->setPixmap(QPixmap::fromImage(thumbnail->image));
                }
            }
        }
    });
}

bool McpExchangeView::appliesTo(const JournalRun &run)
{
    return (isMcpSource(run) && run.status == RunStatus::Running) || !run.mcpRequest.isEmpty() ||
           !run.mcpResponse.isEmpty();
}

QJsonObject McpExchangeView::argumentsOf(const JournalRun &run)
{
    const QJsonObject params = run.mcpRequest.value(QStringLiteral("params")).toObject();
    if (params.contains(QStringLiteral("arguments"))) {
        return params.value(QStringLiteral("arguments")).toObject();
    }
    // The run holds what the call asked for: what a running call's request says, in the tool's own terms.
    QJsonObject arguments{{QStringLiteral("code"), run.code}, {QStringLiteral("language"), run.language}};
    if (!run.libraries.isEmpty()) {
        arguments.insert(QStringLiteral("libraries"), QJsonArray::fromStringList(run.libraries));
    }
    if (run.timeoutMs > 0) {
        arguments.insert(QStringLiteral("timeout"), run.timeoutMs / 1000);
    }
    if (!run.sessionId.isEmpty()) {
        arguments.insert(QStringLiteral("session_id"), run.sessionId);
    }
    return arguments;
}

QString McpExchangeView::shellQuoted(const QString &argument)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    if (plain.match(argument).hasMatch()) {
        return argument;
    }
    // Inside single quotes nothing is special but the quote itself: close, an escaped quote, open again.
    QString quoted = argument;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString McpExchangeView::runCommand(const JournalRun &run)
{
    const QJsonObject arguments = argumentsOf(run);
    QStringList words{QStringLiteral("llm-sandbox"), QStringLiteral("run")};
    if (!run.backend.isEmpty()) {
        words << QStringLiteral("--backend") << run.backend;
    }
    const QString language = arguments.value(QStringLiteral("language")).toString(run.language);
    if (!language.isEmpty()) {
        words << QStringLiteral("--lang") << language;
    }
    for (const QJsonValue &library : arguments.value(QStringLiteral("libraries")).toArray()) {
        words << QStringLiteral("--lib") << library.toString();
    }
    if (const qint64 timeout = arguments.value(QStringLiteral("timeout")).toInteger(); timeout > 0) {
        words << QStringLiteral("--timeout") << QString::number(timeout);
    }
    words << QStringLiteral("--code") << arguments.value(QStringLiteral("code")).toString(run.code);
    QStringList quoted;
    for (const QString &word : std::as_const(words)) {
        quoted << shellQuoted(word);
    }
    return quoted.join(QLatin1Char(' '));
}

QString McpExchangeView::inspectorCommand(const JournalRun &run)
{
    const QJsonObject params = run.mcpRequest.value(QStringLiteral("params")).toObject();
    const QString tool = params.value(QStringLiteral("name")).toString(QStringLiteral("execute_code"));
    QStringList words{QStringLiteral("npx"),
                      QStringLiteral("@modelcontextprotocol/inspector"),
                      QStringLiteral("--cli"),
                      QStringLiteral("llm-sandbox"),
                      QStringLiteral("--mcp"),
                      QStringLiteral("--method"),
                      QStringLiteral("tools/call"),
                      QStringLiteral("--tool-name"),
                      tool};
    const QJsonObject arguments = argumentsOf(run);
    for (auto it = arguments.constBegin(); it != arguments.constEnd(); ++it) {
        // The Inspector reads a value that is JSON as JSON (a list of libraries, a number), any other as a string.
        const QJsonValue value = it.value();
        const QString text =
            value.isString()   ? value.toString()
            : value.isArray()  ? QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact))
            : value.isObject() ? QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact))
                               : value.toVariant().toString();
        words << QStringLiteral("--tool-arg") << it.key() + QLatin1Char('=') + text;
    }
    QStringList quoted;
    for (const QString &word : std::as_const(words)) {
        quoted << shellQuoted(word);
    }
    return quoted.join(QLatin1Char(' '));
}

void McpExchangeView::showRun(const JournalRun &run)
{
    m_run = run;
    const bool recorded = !run.mcpRequest.isEmpty() || !run.mcpResponse.isEmpty();
    if (run.status == RunStatus::Running && run.mcpResponse.isEmpty()) {
        m_state->setText(tr("The call is running: its arguments as the run recorded them. The result and both "
                            "messages as they were sent follow when it ends."));
    } else if (!recorded) {
        m_state->setText(tr("The journal has no record of this call's messages."));
    } else if (run.mcpResponse.value(QStringLiteral("isError")).toBool() ||
               run.mcpResponse.contains(QStringLiteral("error"))) {
        m_state->setText(tr("The call was answered with an error."));
    } else {
        m_state->setText(tr("The call was answered."));
    }

    clearForm(m_header);
    const QString client = QStringList{run.clientName, run.clientVersion}.join(QLatin1Char(' ')).trimmed();
    const QString tool = run.mcpRequest.value(QStringLiteral("params"))
                             .toObject()
                             .value(QStringLiteral("name"))
                             .toString(QStringLiteral("execute_code"));
    for (const auto &[label, value] : {std::pair{tr("Client:"), client}, std::pair{tr("Tool:"), tool},
                                       std::pair{tr("Protocol version:"), run.protocolVersion}}) {
        if (!value.isEmpty()) {
            m_header->addRow(label, valueLabel(value));
        }
    }
    showArguments(run);
    showResult(run);
    m_raw->setVisible(recorded);
    m_request->setPlainText(
        QString::fromUtf8(QJsonDocument(shortened(run.mcpRequest).toObject()).toJson(QJsonDocument::Indented)));
    m_response->setPlainText(
        run.mcpResponse.isEmpty()
            ? tr("(not answered yet)")
            : QString::fromUtf8(QJsonDocument(shortened(run.mcpResponse).toObject()).toJson(QJsonDocument::Indented)));
}

void McpExchangeView::showArguments(const JournalRun &run)
{
    clearForm(m_arguments);
    const QJsonObject arguments = argumentsOf(run);
    addFields(m_arguments, arguments, arguments.value(QStringLiteral("language")).toString(run.language));
}

void McpExchangeView::addFields(QFormLayout *form, const QJsonObject &object, const QString &language)
{
    // The code first, as it was written: line breaks, highlighting; then the rest in the object's order, text with
    // line breaks as text, nested JSON indented.
    if (object.value(QStringLiteral("code")).isString()) {
        auto *code = new CodeEditor;
        code->setObjectName(QStringLiteral("mcpArgumentCode"));
        code->setReadOnly(true);
        code->setLanguage(language);
        code->setPlainText(object.value(QStringLiteral("code")).toString());
        fitHeight(code, 30, 1); // and room for the editor's own margins
        form->addRow(QStringLiteral("code"), code);
    }
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (it.key() == QLatin1String("code") && it.value().isString()) {
            continue;
        }
        const QString name = QStringLiteral("mcpField_") + it.key();
        const QJsonValue value = expanded(it.value());
        const bool scalars =
            value.isArray() && std::all_of(value.toArray().begin(), value.toArray().end(),
                                           [](const QJsonValue &item) { return !item.isArray() && !item.isObject(); });
        QWidget *field = nullptr;
        if (value.isObject() || (value.isArray() && !scalars)) {
            field = jsonView(value, name);
        } else if (scalars) {
            QStringList items;
            for (const QJsonValue &item : value.toArray()) {
                items << item.toVariant().toString();
            }
            field = valueLabel(items.join(QStringLiteral(", ")));
        } else if (value.isString() && value.toString().contains(QLatin1Char('\n'))) {
            auto *text = readOnlyText(name);
            text->setPlainText(value.toString());
            fitHeight(text, 20);
            field = text;
        } else {
            field = valueLabel(value.isString() ? value.toString() : pretty(value));
        }
        field->setObjectName(name);
        form->addRow(it.key(), field);
    }
}

void McpExchangeView::showResult(const JournalRun &run)
{
    clearLayout(m_result);
    const QJsonObject result = run.mcpResponse.value(QStringLiteral("result")).toObject().isEmpty()
                                   ? run.mcpResponse
                                   : run.mcpResponse.value(QStringLiteral("result")).toObject();
    const QJsonArray content = result.value(QStringLiteral("content")).toArray();
    for (const QJsonValue &value : content) {
        const QJsonObject item = value.toObject();
        const QString type = item.value(QStringLiteral("type")).toString();
        if (type == QLatin1String("text")) {
            const QJsonValue text = expanded(item.value(QStringLiteral("text")));
            if (text.isObject()) {
                // A tool's result object (exit code, output, ...): a form like the arguments'.
                auto *fields = new QWidget;
                auto *form = new QFormLayout(fields);
                form->setContentsMargins(0, 0, 0, 0);
                form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
                addFields(form, text.toObject(), m_run.language);
                m_result->addWidget(fields);
            } else if (text.isString()) {
                auto *edit = readOnlyText(QStringLiteral("mcpResultText"));
                edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
                edit->setPlainText(text.toString());
                fitHeight(edit, 20);
                m_result->addWidget(edit);
            } else {
                m_result->addWidget(jsonView(text, QStringLiteral("mcpResultJson")));
            }
        } else if (type == QLatin1String("image")) {
            m_result->addWidget(imageView(item));
        } else if (type == QLatin1String("resource_link") || type == QLatin1String("resource")) {
            const QJsonObject resource =
                type == QLatin1String("resource") ? item.value(QStringLiteral("resource")).toObject() : item;
            m_result->addWidget(valueLabel(tr("Resource: %1 (%2)")
                                               .arg(resource.value(QStringLiteral("uri")).toString(),
                                                    resource.value(QStringLiteral("mimeType")).toString())));
        } else {
            m_result->addWidget(jsonView(item, QStringLiteral("mcpResultJson")));
        }
    }
    if (result.contains(QStringLiteral("error"))) {
        m_result->addWidget(jsonView(result.value(QStringLiteral("error")), QStringLiteral("mcpResultJson")));
    }
    const bool any = m_result->count() > 0;
    m_resultTitle->setVisible(any);
}

QWidget *McpExchangeView::jsonView(const QJsonValue &value, const QString &objectName)
{
    auto *edit = readOnlyText(objectName);
    edit->setPlainText(pretty(shortened(value)));
    fitHeight(edit, 24);
    return edit;
}

QWidget *McpExchangeView::imageView(const QJsonObject &item)
{
    // Decoded off the GUI thread by the one provider, as every thumbnail is.
    auto *label = new QLabel;
    label->setObjectName(QStringLiteral("mcpResultImage"));
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setMinimumSize(1, 1); // cut at the right in a narrow pane, never widening it
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    const QByteArray base64 = item.value(QStringLiteral("data")).toString().toLatin1();
    const QByteArray data = QByteArray::fromBase64(base64);
    const QString mimeType = item.value(QStringLiteral("mimeType")).toString();
    label->setProperty("thumbnailKey", ThumbnailProvider::keyOf(data));
    label->setProperty("imageData", base64);
    label->setProperty("mimeType", mimeType);
    label->setToolTip(tr("Image item, %1").arg(mimeType));
    if (auto thumbnail = m_thumbnails.thumbnail(data, mimeType, kImageBox)) {
        if (thumbnail->image.isNull()) {
            label->setText(thumbnail->why);
        } else {
            label->setPixmap(QPixmap::fromImage(thumbnail->image));
        }
    } else {
        label->setText(tr("Loading the image…"));
    }
    return label;
}

} // namespace sandbox::gui
