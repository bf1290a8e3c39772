#include "gui/livelog/RunDetailView.h"

#include "gui/RunText.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/widgets/ArtifactStrip.h"
#include "gui/widgets/CodeEditor.h"
#include "gui/widgets/OutputView.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {

QLabel *hint(const QString &text)
{
    auto *label = new QLabel(text);
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    label->setEnabled(false); // the palette's disabled text: a quiet hint, not content
    return label;
}

QString prettyJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
}

} // namespace

RunDetailView::RunDetailView(QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel;
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_subtitle = new QLabel;
    m_subtitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_subtitle->setWordWrap(true);

    m_code = new CodeEditor;
    m_code->setObjectName(QStringLiteral("runCode"));
    m_code->setReadOnly(true);
    m_output = new OutputView;
    m_output->setObjectName(QStringLiteral("runOutput"));
    m_artifacts = new ArtifactStrip;
    m_artifacts->setObjectName(QStringLiteral("runArtifacts"));
    m_artifacts->setVisible(false);
    auto *outputPage = new QWidget;
    auto *outputLayout = new QVBoxLayout(outputPage);
    outputLayout->setContentsMargins(0, 0, 0, 0);
    outputLayout->addWidget(m_output, 1);
    outputLayout->addWidget(m_artifacts);

    m_detailsPage = new QWidget;
    m_details = new QFormLayout(m_detailsPage);
    m_details->setLabelAlignment(Qt::AlignRight);
    m_details->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto *detailsScroll = new QScrollArea;
    detailsScroll->setWidget(m_detailsPage);
    detailsScroll->setWidgetResizable(true);
    detailsScroll->setFrameShape(QFrame::NoFrame);

    m_exchange = new QPlainTextEdit;
    m_exchange->setObjectName(QStringLiteral("mcpExchange"));
    m_exchange->setReadOnly(true);
    m_exchange->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("runTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(outputPage, tr("Output"));
    m_tabs->addTab(m_code, tr("Code"));
    m_tabs->addTab(detailsScroll, tr("Details"));
    m_exchangeTab = m_tabs->addTab(m_exchange, tr("MCP exchange"));

    auto *runPage = new QWidget;
    auto *runLayout = new QVBoxLayout(runPage);
    runLayout->setContentsMargins(0, 0, 0, 0);
    runLayout->addWidget(m_title);
    runLayout->addWidget(m_subtitle);
    runLayout->addSpacing(4);
    runLayout->addWidget(m_tabs, 1);

    m_stack = new QStackedWidget;
    m_stack->addWidget(hint(tr("Select a run to see its code, output and charts.")));
    m_stack->addWidget(runPage);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
}

void RunDetailView::showNothing()
{
    m_runId.clear();
    m_shownSeq = -1;
    m_stack->setCurrentIndex(0);
}

void RunDetailView::showRun(const JournalRun &run)
{
    const bool sameRun = run.id == m_runId;
    if (sameRun && run.seq == m_shownSeq) {
        return;
    }
    if (!sameRun) {
        m_shownArtifacts = -1;
        m_code->setLanguage(run.language);
        m_code->setPlainText(run.code);
    }
    m_runId = run.id;
    m_shownSeq = run.seq;
    m_stack->setCurrentIndex(1);

    m_title->setText(tr("%1 run · %2").arg(languageText(run.language), runStatusText(run.status)));
    QStringList subtitle{runSourceText(run), QLocale().toString(run.startedAt.toLocalTime(), QLocale::ShortFormat)};
    if (run.status != RunStatus::Running) {
        subtitle << durationText(run.durationMs);
    }
    if (const QString outcome = runOutcomeText(run); !outcome.isEmpty()) {
        subtitle << outcome;
    }
    m_subtitle->setText(subtitle.join(QStringLiteral(" · ")));

    m_output->setRecordedOutput(run.stdoutData, run.stderrData);
    if (run.status == RunStatus::Failed && !run.error.isEmpty()) {
        m_output->appendNote(run.error);
    }
    if (run.outputTruncated) {
        m_output->appendNote(tr("[output truncated]"));
    }
    if (run.artifacts.size() != m_shownArtifacts) {
        m_artifacts->clearArtifacts();
        for (const JournalArtifact &artifact : run.artifacts) {
            m_artifacts->addArtifact(artifact);
        }
        m_artifacts->setVisible(!run.artifacts.isEmpty());
        m_shownArtifacts = int(run.artifacts.size());
    }
    showDetails(run);

    const bool mcp = !run.mcpRequest.isEmpty() || !run.mcpResponse.isEmpty();
    m_tabs->setTabVisible(m_exchangeTab, mcp);
    if (mcp) {
        QString text =
            tr("// Tool call, as %1 sent it\n").arg(run.clientName.isEmpty() ? tr("the client") : run.clientName);
        text += prettyJson(run.mcpRequest);
        text += tr("\n// Result, as returned\n");
        text += run.mcpResponse.isEmpty() ? tr("(not answered yet)") : prettyJson(run.mcpResponse);
        m_exchange->setPlainText(text);
    }
}

void RunDetailView::showDetails(const JournalRun &run)
{
    while (m_details->rowCount() > 0) {
        m_details->removeRow(0);
    }
    const QLocale locale;
    const auto row = [this](const QString &label, const QString &value) {
        if (value.isEmpty()) {
            return;
        }
        auto *field = new QLabel(value);
        field->setTextInteractionFlags(Qt::TextSelectableByMouse);
        field->setWordWrap(true);
        m_details->addRow(label, field);
    };
    row(tr("Run id:"), run.id);
    row(tr("Status:"), runStatusText(run.status));
    row(tr("Exit code:"), run.exitCode ? QString::number(*run.exitCode) : QString());
    row(tr("Stopped because:"), stopReasonText(run.stopReason));
    row(tr("Error:"), run.error);
    if (run.status != RunStatus::Running) {
        row(tr("Duration:"), durationText(run.durationMs));
        row(tr("Wall time:"), run.wallMs > 0 ? durationText(run.wallMs) : QString());
        row(tr("CPU time:"), run.cpuMs > 0 ? durationText(run.cpuMs) : QString());
        row(tr("Peak memory:"), run.peakMemoryKb > 0 ? locale.formattedDataSize(run.peakMemoryKb * 1024) : QString());
    }
    row(tr("Source:"), runSourceText(run));
    row(tr("Client:"), QStringList{run.clientName, run.clientVersion}.join(QLatin1Char(' ')).trimmed());
    row(tr("Backend:"), QStringList{run.backend, run.endpoint}
                            .join(QStringLiteral(" — "))
                            .remove(QRegularExpression(QStringLiteral("^ — | — $"))));
    row(tr("Image:"), run.image);
    row(tr("Libraries:"), run.libraries.join(QStringLiteral(", ")));
    row(tr("Timeout:"), run.timeoutMs > 0 ? durationText(run.timeoutMs) : QString());
    row(tr("Session:"), run.sessionId);
    row(tr("Replay of:"), run.replayOf);
    row(tr("Started:"), locale.toString(run.startedAt.toLocalTime(), QLocale::LongFormat));
    row(tr("Finished:"),
        run.finishedAt.isValid() ? locale.toString(run.finishedAt.toLocalTime(), QLocale::LongFormat) : QString());
    row(tr("Charts:"), run.artifacts.isEmpty() ? QString() : QString::number(run.artifacts.size()));
}

} // namespace sandbox::gui
