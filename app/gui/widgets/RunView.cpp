#include "gui/widgets/RunView.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/widgets/ArtifactStrip.h"
#include "gui/widgets/CodeEditor.h"
#include "gui/widgets/McpExchangeView.h"
#include "gui/widgets/NetworkView.h"
#include "gui/widgets/OutputView.h"
#include "gui/widgets/ReadOnlyText.h"

#include <QDesktopServices>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {

QWidget *titled(const QString &title, QWidget *content)
{
    auto *box = new QWidget;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto *label = new QLabel(title);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    layout->addWidget(label);
    layout->addWidget(content, 1);
    return box;
}

void fillForm(QFormLayout *form, const QList<std::pair<QString, QString>> &rows)
{
    while (form->rowCount() > 0) {
        form->removeRow(0);
    }
    for (const auto &[label, value] : rows) {
        if (value.isEmpty()) {
            continue;
        }
        auto *field = new QLabel(value);
        // Plain always: values come from sandboxes and clients (an error, a file name), and a label that takes
        // them for rich text would draw what `<img src=…>` names.
        field->setTextFormat(Qt::PlainText);
        field->setTextInteractionFlags(Qt::TextSelectableByMouse);
        field->setWordWrap(true);
        // At the top of a value of several lines (the shared folders), beside its first line: QFormLayout makes a
        // label up to 7/4 of a line tall and a QLabel centres its text in it.
        auto *name = new QLabel(label);
        name->setAlignment(Qt::AlignRight | Qt::AlignTop);
        form->addRow(name, field);
    }
}

} // namespace

RunView::RunView(ThumbnailProvider &thumbnails, QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("runTitle"));
    m_title->setTextFormat(Qt::RichText);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Wrapped inside the pane: a long title ("JavaScript (Node.js) run · CPU-time limit reached after 2 min 5 s") as
    // one line would widen the pane and push a page's splitter into the table with every run selected.
    m_title->setWordWrap(true);
    m_subtitle = new QLabel;
    m_subtitle->setObjectName(QStringLiteral("runSubtitle"));
    m_subtitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_subtitle->setWordWrap(true);
    // Nor does their longest word (a client's name) set the pane's least width: it is the same for every run.
    for (QLabel *label : {m_title, m_subtitle}) {
        QSizePolicy policy = label->sizePolicy();
        policy.setHorizontalPolicy(QSizePolicy::Ignored);
        label->setSizePolicy(policy);
    }
    m_openInConsole = new QPushButton(tr("Open in &Console"));
    m_openInConsole->setObjectName(QStringLiteral("openInConsole"));
    m_openInConsole->setToolTip(tr("Put this run's code, language and libraries into the Console"));
    connect(m_openInConsole, &QPushButton::clicked, this,
            [this] { emit openInConsoleRequested(m_run.language, m_run.code, m_run.libraries); });

    m_stop = new QPushButton(tr("&Stop Run"));
    m_stop->setObjectName(QStringLiteral("stopRun"));
    m_stop->setToolTip(tr("Stop this run, whoever started it: it ends as stopped by you"));
    m_stop->setVisible(false);
    connect(m_stop, &QPushButton::clicked, this, [this] {
        if (m_run.status == RunStatus::Running) {
            emit stopRequested(m_run);
        }
    });

    m_output = new OutputView;
    m_output->setObjectName(QStringLiteral("runOutput"));
    m_artifacts = new ArtifactStrip(thumbnails);
    m_artifacts->setObjectName(QStringLiteral("runArtifacts"));
    m_artifacts->setVisible(false);
    // What the run saved into the user's folders, each name a link to the folder it is in (never to the file: a file a
    // sandbox wrote is not handed to the desktop's default program).
    m_savedFiles = new QLabel;
    m_savedFiles->setObjectName(QStringLiteral("runSavedFiles"));
    m_savedFiles->setTextFormat(Qt::RichText);
    m_savedFiles->setWordWrap(true);
    m_savedFiles->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_savedFiles->setVisible(false);
    connect(m_savedFiles, &QLabel::linkActivated, this, [this](const QString &link) {
        const qsizetype index = link.toLongLong();
        if (index >= 0 && index < m_run.savedResults.size()) {
            QDesktopServices::openUrl(QUrl::fromLocalFile(m_run.savedResults.at(index).folderPath));
        }
    });
    auto *outputPage = new QWidget;
    auto *outputLayout = new QVBoxLayout(outputPage);
    outputLayout->setContentsMargins(0, 0, 0, 0);
    outputLayout->addWidget(m_output, 1);
    outputLayout->addWidget(m_artifacts);
    outputLayout->addWidget(m_savedFiles);

    m_code = new CodeEditor;
    m_code->setObjectName(QStringLiteral("runCode"));
    m_code->setReadOnly(true);

    auto *detailsPage = new QWidget;
    m_details = new QFormLayout;
    m_details->setLabelAlignment(Qt::AlignRight);
    m_details->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_settings = readOnlyText(QStringLiteral("runSettings"));
    auto *detailsLayout = new QVBoxLayout(detailsPage);
    detailsLayout->addLayout(m_details);
    detailsLayout->addWidget(titled(tr("Sandbox settings"), m_settings), 1);
    auto *detailsScroll = new QScrollArea;
    detailsScroll->setWidget(detailsPage);
    detailsScroll->setWidgetResizable(true);
    detailsScroll->setFrameShape(QFrame::NoFrame);

    m_exchange = new McpExchangeView(thumbnails);
    m_exchange->setObjectName(QStringLiteral("runMcpExchange"));

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("runTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(outputPage, tr("Output"));
    m_tabs->addTab(m_code, tr("Code"));
    m_tabs->addTab(detailsScroll, tr("Details"));
    m_tabs->addTab(m_exchange, tr("MCP exchange"));
    m_network = new NetworkView;
    m_network->setObjectName(QStringLiteral("runNetwork"));
    m_tabs->addTab(m_network, tr("Network"));

    auto *runPage = new QWidget;
    auto *runLayout = new QVBoxLayout(runPage);
    runLayout->setContentsMargins(0, 0, 0, 0);
    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_stop, 0, Qt::AlignTop);
    titleRow->addWidget(m_openInConsole, 0, Qt::AlignTop);
    runLayout->addLayout(titleRow);
    runLayout->addWidget(m_subtitle);
    runLayout->addSpacing(4);
    runLayout->addWidget(m_tabs, 1);

    auto *hint = new QLabel(tr("Select a run to see its output, charts and code."));
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true);
    hint->setEnabled(false); // the palette's disabled text: a quiet hint, not content
    m_stack = new QStackedWidget;
    m_stack->addWidget(hint);
    m_stack->addWidget(runPage);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    clear();
}

void RunView::clear()
{
    m_run = JournalRun{};
    m_stack->setCurrentIndex(0);
}

void RunView::showRun(const JournalRun &run)
{
    const bool sameRun = !m_run.id.isEmpty() && run.id == m_run.id;
    m_run = run;
    m_stack->setCurrentIndex(1);
    // Keep the reader's place in the code when the same run is shown again.
    if (!sameRun || m_code->toPlainText() != run.code) {
        m_code->setLanguage(run.language);
        m_code->setPlainText(run.code);
    }
    m_output->setRecordedOutput(run.stdoutData, run.stderrData);
    if (run.status != RunStatus::Running) {
        appendEndNotes();
    }
    m_artifacts->clearArtifacts();
    for (const JournalArtifact &artifact : run.artifacts) {
        m_artifacts->addArtifact(artifact);
    }
    m_artifacts->setVisible(!run.artifacts.isEmpty());
    showSavedFiles();
    showHeader();
    showDetails();
    showExchange();
    showNetwork();
    if (!sameRun) {
        for (int tab = NetworkTab + 1; tab < m_tabs->count(); ++tab) {
            m_tabs->setTabVisible(tab, false);
        }
    }
    if (!m_tabs->isTabVisible(m_tabs->currentIndex())) {
        m_tabs->setCurrentIndex(OutputTab);
    }
}

void RunView::applyUpdate(const JournalRunUpdate &update)
{
    if (update.whole || update.run.id != m_run.id) {
        showRun(update.run);
        return;
    }
    const bool ended = m_run.status == RunStatus::Running && update.run.status != RunStatus::Running;
    const qsizetype savedBefore = m_run.savedResults.size();
    JournalRun next = update.run; // the summary as it is now; what it holds besides is kept and appended to
    next.code = m_run.code;
    next.stdoutData = m_run.stdoutData + update.stdoutAdded;
    next.stderrData = m_run.stderrData + update.stderrAdded;
    next.artifacts = m_run.artifacts + update.artifactsAdded;
    if (!update.hasExchange) {
        next.mcpRequest = m_run.mcpRequest;
        next.mcpResponse = m_run.mcpResponse;
        next.protocolVersion = m_run.protocolVersion;
    }
    m_run = std::move(next);
    m_output->appendOutput(OutputStream::Stdout, update.stdoutAdded);
    m_output->appendOutput(OutputStream::Stderr, update.stderrAdded);
    if (ended) {
        appendEndNotes();
    }
    for (const JournalArtifact &artifact : update.artifactsAdded) {
        m_artifacts->addArtifact(artifact);
    }
    m_artifacts->setVisible(!m_run.artifacts.isEmpty());
    showSavedFiles();
    showHeader();
    if (ended || !update.artifactsAdded.isEmpty() || m_run.savedResults.size() != savedBefore) {
        showDetails();
    }
    if (update.hasExchange || ended) {
        showExchange();
    }
    if (ended || m_run.hasNetwork() != m_tabs->isTabVisible(NetworkTab)) {
        showNetwork();
    }
}

void RunView::appendEndNotes()
{
    if (m_run.status == RunStatus::Failed && !m_run.error.isEmpty()) {
        m_output->appendNote(m_run.error);
    }
    if (m_run.outputTruncated) {
        m_output->appendNote(tr("[output truncated: the sandbox's output limit was reached]"));
    } else if (m_run.outputCap > 0 && m_run.stdoutData.size() + m_run.stderrData.size() >= m_run.outputCap) {
        m_output->appendNote(tr("[the journal keeps the first %1 of output]").arg(dataSizeText(m_run.outputCap)));
    }
}

void RunView::showSavedFiles()
{
    QStringList links;
    for (qsizetype i = 0; i < m_run.savedResults.size(); ++i) {
        const SavedResult &saved = m_run.savedResults.at(i);
        links << QStringLiteral("<a href=\"%1\">%2</a> (%3)")
                     .arg(i)
                     .arg(saved.sandboxPath().toHtmlEscaped(), dataSizeText(saved.bytes));
    }
    m_savedFiles->setText(tr("Saved to your folders: %1").arg(links.join(QStringLiteral(", "))));
    m_savedFiles->setToolTip(tr("Click a file to show the folder it was saved in"));
    m_savedFiles->setVisible(!links.isEmpty());
}

void RunView::showHeader()
{
    const JournalRun &run = m_run;
    // The status in its colour, as the live log's dot and History's column show it.
    m_title->setText(tr("%1 run · %2")
                         .arg(languageText(run.language).toHtmlEscaped(),
                              QStringLiteral("<span style='color:%1'>%2</span>")
                                  .arg(StateColors::of(palette()).forOutcome(run.outcome()).name(),
                                       runStatusText(run).toHtmlEscaped())));
    QStringList subtitle{runSourceText(run), dateTimeText(run.startedAt)};
    if (run.status != RunStatus::Running) {
        subtitle << durationText(run.durationMs);
    }
    if (const QString outcome = runOutcomeText(run); !outcome.isEmpty()) {
        subtitle << outcome;
    }
    if (!run.replayOf.isEmpty()) {
        subtitle << tr("replay of %1").arg(run.replayOf);
    }
    m_subtitle->setText(subtitle.join(QStringLiteral(" · ")));
    // Asked to stop (here or in another window): "Stopping…" until its process ends it.
    m_stop->setVisible(run.status == RunStatus::Running);
    m_stop->setEnabled(!run.stopRequested);
    m_stop->setText(run.stopRequested ? tr("Stopping…") : tr("&Stop Run"));
}

void RunView::showDetails()
{
    const JournalRun &run = m_run;
    const QLocale locale;
    const bool ended = run.status != RunStatus::Running;
    QStringList backend{backendText(run.backend), run.endpoint};
    backend.removeAll(QString());
    fillForm(
        m_details,
        {
            {tr("Run id:"), run.id},
            {tr("Status:"), runStatusText(run)},
            {tr("Exit code:"), run.exitCode ? QString::number(*run.exitCode) : QString()},
            {tr("Stopped because:"), run.wasStopped() ? stopReasonText(run.stopReason) : QString()},
            {tr("Error:"), run.error},
            {tr("Duration:"), ended ? durationText(run.durationMs) : QString()},
            {tr("Wall time:"), ended && run.wallMs > 0 ? durationText(run.wallMs) : QString()},
            {tr("CPU time:"), ended && run.cpuMs > 0 ? durationText(run.cpuMs) : QString()},
            {tr("Peak memory:"), run.peakMemoryKb > 0 ? dataSizeText(run.peakMemoryKb * 1024) : QString()},
            {tr("Source:"), runSourceText(run)},
            {tr("Client:"), QStringList{run.clientName, run.clientVersion}.join(QLatin1Char(' ')).trimmed()},
            {tr("Backend:"), backend.join(QStringLiteral(" — "))},
            {tr("Image:"), run.image},
            {tr("Libraries:"), librariesText(run)},
            {tr("Timeout:"), run.timeoutMs > 0 ? durationText(run.timeoutMs) : QString()},
            {tr("Session:"), run.sessionId},
            {tr("Replay of:"), run.replayOf},
            {tr("Started:"), locale.toString(run.startedAt.toLocalTime(), QLocale::LongFormat)},
            {tr("Finished:"),
             run.finishedAt.isValid() ? locale.toString(run.finishedAt.toLocalTime(), QLocale::LongFormat) : QString()},
            {tr("Artifacts:"), run.artifacts.isEmpty() ? QString() : QString::number(run.artifacts.size())},
            {tr("Shared folders:"), sharedFoldersText(run.sharedFolders)},
            {tr("Network:"), networkText(run)},
            {tr("Saved files:"), savedResultsText(run.savedResults)},
        });
    m_settings->setPlainText(run.settings.isEmpty()
                                 ? tr("(not recorded)")
                                 : QString::fromUtf8(QJsonDocument(run.settings).toJson(QJsonDocument::Indented)));
}

void RunView::showExchange()
{
    // A call over MCP has its tab from the start: while it runs, the arguments it was called with.
    const bool viaMcp = McpExchangeView::appliesTo(m_run);
    m_tabs->setTabVisible(McpTab, viaMcp);
    if (viaMcp) {
        m_exchange->showRun(m_run);
    }
}

void RunView::showNetwork()
{
    // A run without network shows nothing of it; from its tab, the output is shown (not the neighbouring tab).
    if (!m_run.hasNetwork() && m_tabs->currentIndex() == NetworkTab) {
        m_tabs->setCurrentIndex(OutputTab);
    }
    m_tabs->setTabVisible(NetworkTab, m_run.hasNetwork());
    if (m_run.hasNetwork()) {
        m_network->showRun(m_run);
    }
}

int RunView::addTab(QWidget *tab, const QString &title)
{
    const int index = m_tabs->addTab(tab, title);
    m_tabs->setTabVisible(index, false);
    return index;
}

void RunView::setTabShown(int tab, bool shown)
{
    m_tabs->setTabVisible(tab, shown);
}

void RunView::showTab(int tab)
{
    m_tabs->setCurrentIndex(tab);
}

bool RunView::isTabShown(int tab) const
{
    return m_stack->currentIndex() == 1 && m_tabs->isTabVisible(tab) && m_tabs->currentIndex() == tab;
}

} // namespace sandbox::gui
