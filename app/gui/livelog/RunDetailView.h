#pragma once

#include "journal/JournalRun.h"

#include <QWidget>

class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QStackedWidget;
class QTabWidget;

namespace sandbox::gui {

class ArtifactStrip;
class CodeEditor;
class OutputView;

/// Everything the journal holds about one run: code, output, how it ended, its charts and, for MCP runs,
/// the exact tool call and result.
class RunDetailView final : public QWidget
{
    Q_OBJECT

public:
    explicit RunDetailView(QWidget *parent = nullptr);

    /// Shows `run`; called again with newer data of the same run while it is going.
    void showRun(const JournalRun &run);
    void showNothing();
    QString runId() const { return m_runId; }

private:
    void showDetails(const JournalRun &run);

    QString m_runId;
    qint64 m_shownSeq = -1;
    int m_shownArtifacts = -1;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_subtitle = nullptr;
    QTabWidget *m_tabs = nullptr;
    CodeEditor *m_code = nullptr;
    OutputView *m_output = nullptr;
    ArtifactStrip *m_artifacts = nullptr;
    QWidget *m_detailsPage = nullptr;
    QFormLayout *m_details = nullptr;
    QPlainTextEdit *m_exchange = nullptr;
    int m_exchangeTab = -1;
};

} // namespace sandbox::gui
