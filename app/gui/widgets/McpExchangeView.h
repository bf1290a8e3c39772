#pragma once

#include "journal/JournalRun.h"

#include <QJsonObject>
#include <QWidget>

class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QVBoxLayout;

namespace sandbox::gui {

class ThumbnailProvider;

/// RunView's MCP exchange tab: an assistant's tool call as a form (the code with its line breaks and highlighting,
/// the other arguments as values, nested JSON indented), the result item by item (text that is JSON indented, images
/// shown), the two messages exactly as they were sent, and "Copy as command" (the same run as an `llm-sandbox run`
/// or MCP Inspector command line). While the call runs, its arguments as the run recorded them.
class McpExchangeView final : public QWidget
{
    Q_OBJECT

public:
    explicit McpExchangeView(ThumbnailProvider &thumbnails, QWidget *parent = nullptr);

    /// Whether `run` has an exchange to show: one is recorded, or it is a call over MCP (stdio or HTTP) still running.
    static bool appliesTo(const JournalRun &run);
    void showRun(const JournalRun &run);

    /// The call's arguments: the recorded request's, or while it runs the run's own (code, language, ...).
    static QJsonObject argumentsOf(const JournalRun &run);
    /// `llm-sandbox run --lang … --code '…'`: the same run from a shell.
    static QString runCommand(const JournalRun &run);
    /// The same tool call through the MCP Inspector's CLI against `llm-sandbox --mcp`.
    static QString inspectorCommand(const JournalRun &run);
    /// `argument` for a POSIX shell: as is when it is plain, else in single quotes.
    static QString shellQuoted(const QString &argument);

private:
    void showArguments(const JournalRun &run);
    /// A row per member of `object` in `form`; `code` in a code editor coloured as `language`.
    void addFields(QFormLayout *form, const QJsonObject &object, const QString &language);
    void showResult(const JournalRun &run);
    QWidget *jsonView(const QJsonValue &value, const QString &objectName);
    QWidget *imageView(const QJsonObject &item);

    ThumbnailProvider &m_thumbnails;
    JournalRun m_run;
    QLabel *m_state = nullptr;
    QFormLayout *m_header = nullptr;
    QFormLayout *m_arguments = nullptr;
    QLabel *m_resultTitle = nullptr;
    QVBoxLayout *m_result = nullptr;
    QWidget *m_raw = nullptr;
    QPlainTextEdit *m_request = nullptr;
    QPlainTextEdit *m_response = nullptr;
    QPushButton *m_copy = nullptr;
};

} // namespace sandbox::gui
