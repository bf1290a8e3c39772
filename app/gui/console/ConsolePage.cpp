#include "gui/console/ConsolePage.h"

#include "ErrorText.h"
#include "backend/BackendFactory.h"
#include "gui/EngineController.h"
#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/settings/FoldersPage.h"
#include "gui/widgets/ArtifactStrip.h"
#include "gui/widgets/CodeEditor.h"
#include "gui/widgets/DroppedPaths.h"
#include "gui/widgets/OutputView.h"
#include "gui/widgets/ThemedIcon.h"
#include "lang/LanguageRegistry.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTextCursor>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace sandbox::gui {

namespace {

const SettingsKey<QByteArray> kSplitterState{"splitter"};
const SettingsKey<QString> kLanguage{"language"};
/// Per language, its code (only edited code: an unedited example follows the app's).
const SettingsKey<QVariantMap> kDrafts{"drafts"};
/// Per language, the snippets last run, newest first.
const SettingsKey<QVariantMap> kRecent{"recentSnippets"};

/// Libraries as `language`'s install takes them (LanguageRegistry's LibraryInstaller: pip, npm, Maven coordinates, Go
/// module paths, CRAN, gems, Debian packages), none of them already in its image.
QString librariesExampleOf(const QString &language)
{
    static const QHash<QString, QString> examples{
        {QStringLiteral("python"), QStringLiteral("httpx, tabulate==0.9.0")},
        {QStringLiteral("javascript"), QStringLiteral("axios, dayjs@1.11.13")},
        {QStringLiteral("java"), QStringLiteral("com.google.code.gson:gson:2.11.0, org.jsoup:jsoup:1.18.3")},
        {QStringLiteral("go"), QStringLiteral("github.com/google/uuid@v1.6.0, golang.org/x/text")},
        {QStringLiteral("r"), QStringLiteral("jsonlite, zoo")},
        {QStringLiteral("ruby"), QStringLiteral("faker, rainbow:3.1.1")},
        {QStringLiteral("cpp"), QStringLiteral("libeigen3-dev, libboost-dev")},
    };
    return examples.value(language);
}

QString exampleOf(const QString &language)
{
    const auto found = LanguageRegistry::instance().find(language);
    return found && !found->examples.isEmpty() ? found->examples.first().code : QString();
}

/// Replaces the editor's text as an edit: Ctrl+Z brings the previous code back.
void replaceCode(CodeEditor *editor, const QString &code)
{
    QTextCursor cursor(editor->document());
    cursor.select(QTextCursor::Document);
    cursor.insertText(code);
}

} // namespace

ConsolePage::ConsolePage(EngineController &controller, ThumbnailProvider &thumbnails, QWidget *parent)
    : Page(parent), m_controller(controller)
{
    setObjectName(QStringLiteral("consolePage"));
    // --- Run settings: one row above the editor, like an IDE's run configuration.
    m_language = new QComboBox;
    m_language->setObjectName(QStringLiteral("languagePicker"));
    for (const Language &language : LanguageRegistry::instance().languages()) {
        m_language->addItem(language.displayName, language.name);
    }
    m_recentButton = new QPushButton;
    m_recentButton->setObjectName(QStringLiteral("recentSnippets"));
    m_recentButton->setText(tr("Re&cent"));
    m_recentButton->setToolTip(tr("Code you ran lately in this language"));
    m_recentButton->setMenu(new QMenu(m_recentButton));
    m_backend = new QComboBox;
    m_backend->setObjectName(QStringLiteral("backendPicker"));
    setBackends(BackendFactory::names());
    connect(&controller, &EngineController::defaultBackendChanged, this,
            [this](const QString &backend) { m_backend->setCurrentIndex(qMax(0, m_backend->findData(backend))); });
    m_timeout = new QSpinBox;
    m_timeout->setObjectName(QStringLiteral("timeout"));
    m_timeout->setRange(1, 3600);
    m_timeout->setValue(30);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setToolTip(tr("Wall-clock limit: the whole process tree is killed when it is reached"));
    m_libraries = new QLineEdit;
    m_libraries->setObjectName(QStringLiteral("libraries"));
    m_libraries->setClearButtonEnabled(true);
    m_libraries->setToolTip(
        tr("Installed into the sandbox before the code runs (pip, npm, Maven, Go modules, CRAN, gems)"));
    m_network = new QLineEdit;
    m_network->setObjectName(QStringLiteral("network"));
    m_network->setClearButtonEnabled(true);
    m_network->setToolTip(tr("The hosts the run may reach, comma separated (api.example.org, *.example.org:8443), "
                             "within Settings → Network. Without any the run has no network."));
    setNetworkAllow({});

    m_runButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"));
    m_runButton->setObjectName(QStringLiteral("runButton"));
    m_runButton->setToolTip(tr("Run the code in a sandbox (Ctrl+Return)"));
    m_stopButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"));
    m_stopButton->setObjectName(QStringLiteral("stopButton"));
    m_stopButton->setToolTip(tr("Stop the run (Ctrl+.)"));
    m_stopButton->setEnabled(false);

    auto *settingsRow = new QHBoxLayout;
    settingsRow->setSpacing(6);
    const auto label = [](const QString &text, QWidget *buddy) {
        auto *result = new QLabel(text);
        result->setBuddy(buddy);
        return result;
    };
    settingsRow->addWidget(label(tr("&Language:"), m_language));
    settingsRow->addWidget(m_language);
    settingsRow->addWidget(m_recentButton);
    settingsRow->addSpacing(10);
    settingsRow->addWidget(label(tr("&Backend:"), m_backend));
    settingsRow->addWidget(m_backend);
    settingsRow->addSpacing(10);
    settingsRow->addWidget(label(tr("&Timeout:"), m_timeout));
    settingsRow->addWidget(m_timeout);
    settingsRow->addStretch(1);
    settingsRow->addWidget(m_stopButton);
    settingsRow->addWidget(m_runButton);
    // The libraries on a line of their own: in one row with the rest they had a few pixels at 1024 px.
    auto *librariesRow = new QHBoxLayout;
    librariesRow->setSpacing(6);
    librariesRow->addWidget(label(tr("Li&braries:"), m_libraries));
    librariesRow->addWidget(m_libraries, 1);
    librariesRow->addSpacing(10);
    librariesRow->addWidget(label(tr("Net&work:"), m_network));
    librariesRow->addWidget(m_network, 1);

    // --- Editor above, result below.
    m_editor = new CodeEditor;
    m_editor->setObjectName(QStringLiteral("codeEditor"));
    m_editor->setPlaceholderText(tr("Write code here and press Ctrl+Return to run it in a sandbox."));
    // Neither pane is ever squeezed to a few lines (charts take room below the output).
    m_editor->setMinimumHeight(m_editor->fontMetrics().lineSpacing() * 5);

    m_busy = new QProgressBar;
    m_busy->setRange(0, 0); // busy indicator: image builds and installs have no known length
    m_busy->setTextVisible(false);
    m_busy->setFixedWidth(120);
    m_busy->setMaximumHeight(14);
    m_progressText = new QLabel;
    m_progressText->setObjectName(QStringLiteral("progressText"));
    m_progressText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progressRow = new QWidget;
    auto *progressLayout = new QHBoxLayout(m_progressRow);
    progressLayout->setContentsMargins(0, 0, 0, 0);
    progressLayout->addWidget(m_busy);
    progressLayout->addWidget(m_progressText, 1);
    m_progressRow->setVisible(false);

    m_output = new OutputView;
    m_output->setObjectName(QStringLiteral("outputView"));
    m_output->setPlaceholderText(tr("Output appears here as the program writes it; errors in red."));
    m_output->setMinimumHeight(m_output->fontMetrics().lineSpacing() * 8);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("runSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setVisible(false);
    // Long unbroken words (a URL in an installer's error) wrap inside the pane rather than widen the page.
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setMinimumWidth(1);
    // What explains a failure at length (a failed install's log) waits behind a toggle.
    m_detailsToggle = new QToolButton;
    m_detailsToggle->setObjectName(QStringLiteral("errorDetailsToggle"));
    m_detailsToggle->setText(tr("Show Details"));
    m_detailsToggle->setCheckable(true);
    m_detailsToggle->setVisible(false);
    m_details = new QPlainTextEdit;
    m_details->setObjectName(QStringLiteral("errorDetails"));
    m_details->setReadOnly(true);
    m_details->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_details->setMaximumHeight(m_details->fontMetrics().lineSpacing() * 10);
    m_details->setVisible(false);
    connect(m_detailsToggle, &QToolButton::toggled, this, [this](bool shown) {
        m_details->setVisible(shown);
        m_detailsToggle->setText(shown ? tr("Hide Details") : tr("Show Details"));
    });
    m_chartsTitle = new QLabel;
    m_chartsTitle->setObjectName(QStringLiteral("artifactsTitle"));
    m_chartsTitle->setVisible(false);
    QFont bold = m_chartsTitle->font();
    bold.setBold(true);
    m_chartsTitle->setFont(bold);
    m_artifacts = new ArtifactStrip(thumbnails);
    m_artifacts->setObjectName(QStringLiteral("artifactStrip"));
    m_artifacts->setVisible(false);
    connect(m_artifacts, &ArtifactStrip::countChanged, this, &ConsolePage::showArtifactsTitle);

    auto *resultPane = new QWidget;
    auto *resultLayout = new QVBoxLayout(resultPane);
    resultLayout->setContentsMargins(0, 0, 0, 0);
    resultLayout->setSpacing(6);
    auto *outputTitle = new QLabel(tr("Output"));
    outputTitle->setFont(bold);
    resultLayout->addWidget(outputTitle);
    resultLayout->addWidget(m_progressRow);
    resultLayout->addWidget(m_output, 1);
    auto *summaryRow = new QHBoxLayout;
    summaryRow->addWidget(m_summary, 1);
    summaryRow->addWidget(m_detailsToggle, 0, Qt::AlignTop);
    resultLayout->addLayout(summaryRow);
    resultLayout->addWidget(m_details);
    resultLayout->addWidget(m_chartsTitle);
    resultLayout->addWidget(m_artifacts);

    m_splitter = new QSplitter(Qt::Vertical);
    m_splitter->setObjectName(QStringLiteral("consoleSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_editor);
    m_splitter->addWidget(resultPane);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);

    // --- Folders dropped for the next run: one chip each, and why one could not be shared.
    m_foldersRow = new QWidget;
    m_foldersRow->setObjectName(QStringLiteral("nextRunFolders"));
    m_foldersLayout = new QHBoxLayout(m_foldersRow);
    m_foldersLayout->setContentsMargins(0, 0, 0, 0);
    m_foldersLayout->setSpacing(6);
    m_foldersLayout->addStretch(1);
    m_foldersRow->setVisible(false);
    m_dropProblem = new QLabel;
    m_dropProblem->setObjectName(QStringLiteral("dropProblem"));
    m_dropProblem->setWordWrap(true);
    m_dropProblem->setVisible(false);
    QPalette problemColors = m_dropProblem->palette();
    problemColors.setColor(QPalette::WindowText, StateColors::of(palette()).failed);
    m_dropProblem->setPalette(problemColors);
    setAcceptDrops(true);
    m_editor->viewport()->installEventFilter(this);
    m_output->viewport()->installEventFilter(this);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(settingsRow);
    layout->addLayout(librariesRow);
    layout->addWidget(m_foldersRow);
    layout->addWidget(m_dropProblem);
    layout->addWidget(m_splitter, 1);

    // --- Actions: the window puts them in its Run menu; they work wherever the focus is in the window.
    m_runAction = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this);
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_runAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_runAction->setShortcutContext(Qt::WindowShortcut);
    m_stopAction = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Stop"), this);
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    m_stopAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_stopAction->setShortcutContext(Qt::WindowShortcut);
    m_stopAction->setEnabled(false);
    addAction(m_runAction);
    addAction(m_stopAction);

    connect(m_runAction, &QAction::triggered, this, &ConsolePage::run);
    connect(m_stopAction, &QAction::triggered, this, &ConsolePage::stop);
    connect(m_runButton, &QPushButton::clicked, this, &ConsolePage::run);
    connect(m_stopButton, &QPushButton::clicked, this, &ConsolePage::stop);
    connect(m_language, &QComboBox::currentIndexChanged, this, &ConsolePage::chooseLanguage);

    connect(&m_controller, &EngineController::runStarted, this,
            [this](quint64 ticket, const QString &runId) { onStarted(ticket, runId); });
    connect(&m_controller, &EngineController::runProgress, this, &ConsolePage::onProgress);
    connect(&m_controller, &EngineController::runOutput, this, &ConsolePage::onOutput);
    connect(&m_controller, &EngineController::runArtifact, this, &ConsolePage::onArtifact);
    connect(&m_controller, &EngineController::runFinished, this, &ConsolePage::onFinished);
    connect(&m_controller, &EngineController::runFailed, this, &ConsolePage::onFailed);

    chooseLanguage();
}

void ConsolePage::setDefaultTimeout(std::chrono::seconds timeout)
{
    m_timeout->setValue(int(timeout.count()));
}

void ConsolePage::setBackends(const QStringList &backends)
{
    m_backend->clear();
    for (const QString &name : backends) {
        m_backend->addItem(backendText(name), name);
    }
    m_backend->setCurrentIndex(qMax(0, m_backend->findData(m_controller.defaultBackend())));
}

QString ConsolePage::draft(const QString &language) const
{
    return language == m_shownLanguage ? m_editor->toPlainText() : m_drafts.value(language, exampleOf(language));
}

void ConsolePage::chooseLanguage()
{
    const QString name = m_language->currentData().toString();
    if (name == m_shownLanguage) {
        return;
    }
    // Each language keeps its own code: switching away and back finds it again.
    if (!m_shownLanguage.isEmpty()) {
        const QString edited = m_editor->toPlainText();
        if (edited.trimmed().isEmpty() || edited == exampleOf(m_shownLanguage)) {
            m_drafts.remove(m_shownLanguage);
        } else {
            m_drafts.insert(m_shownLanguage, edited);
        }
    }
    const QString code = m_drafts.value(name, exampleOf(name));
    m_shownLanguage = name;
    m_editor->setLanguage(name);
    m_editor->setPlainText(code);
    const QString libraries = librariesExampleOf(name);
    m_libraries->setPlaceholderText(libraries.isEmpty() ? QString() : tr("e.g. %1").arg(libraries));
    fillRecentMenu();
    // The output and charts of another language's program do not belong to this code.
    if (!isRunning()) {
        clearResults();
    }
}

bool ConsolePage::open(const Intent &intent)
{
    if (const auto *share = std::get_if<ShareForNextRun>(&intent)) {
        QList<QUrl> urls;
        for (const QString &path : share->paths) {
            urls << QUrl::fromLocalFile(path);
        }
        shareForNextRun(urls);
        return true;
    }
    const auto *code = std::get_if<OpenInConsole>(&intent);
    if (code) {
        openCode(code->language, code->code, code->libraries);
    }
    return code;
}

void ConsolePage::openCode(const QString &language, const QString &code, const QStringList &libraries)
{
    const int index = m_language->findData(language);
    if (index < 0) {
        return;
    }
    m_language->setCurrentIndex(index);
    const QString replaced = m_editor->toPlainText();
    if (replaced != code && !replaced.trimmed().isEmpty() && replaced != exampleOf(language)) {
        rememberSnippet(language, replaced); // the code it replaces stays at hand
    }
    replaceCode(m_editor, code);
    m_libraries->setText(libraries.join(QStringLiteral(", ")));
    m_editor->setFocus();
}

void ConsolePage::rememberSnippet(const QString &language, const QString &code)
{
    if (code.trimmed().isEmpty()) {
        return;
    }
    QStringList &recent = m_recent[language];
    recent.removeAll(code);
    recent.prepend(code);
    while (recent.size() > kRecentSnippets) {
        recent.removeLast();
    }
    if (language == m_shownLanguage) {
        fillRecentMenu();
    }
}

void ConsolePage::fillRecentMenu()
{
    QMenu *menu = m_recentButton->menu();
    menu->clear();
    const QStringList recent = m_recent.value(m_shownLanguage);
    for (const QString &code : recent) {
        const QString trimmed = code.trimmed();
        const QString firstLine = trimmed.section(QLatin1Char('\n'), 0, 0).simplified();
        const int lines = int(trimmed.count(QLatin1Char('\n'))) + 1;
        QAction *action = menu->addAction(
            tr("%1 (%n line(s))", nullptr, lines).arg(fontMetrics().elidedText(firstLine, Qt::ElideRight, 360)));
        action->setToolTip(code.left(2000));
        connect(action, &QAction::triggered, this, [this, code] { replaceCode(m_editor, code); });
    }
    menu->setToolTipsVisible(true);
    m_recentButton->setEnabled(!recent.isEmpty());
}

void ConsolePage::clearResults()
{
    m_output->clearOutput();
    m_artifacts->clearArtifacts();
    m_summary->setVisible(false);
    showDetails({});
}

void ConsolePage::showDetails(const QString &details)
{
    m_details->setPlainText(details);
    m_detailsToggle->setChecked(false);
    m_detailsToggle->setVisible(!details.isEmpty());
}

void ConsolePage::showArtifactsTitle(int count)
{
    m_artifacts->setVisible(count > 0);
    m_chartsTitle->setVisible(count > 0);
    m_chartsTitle->setText(m_artifacts->onlyImages() ? tr("%1 — double-click to enlarge").arg(m_artifacts->title())
                                                     : tr("%1 — double-click to view").arg(m_artifacts->title()));
}

void ConsolePage::run()
{
    if (m_ticket != 0) {
        return;
    }
    RunRequest request;
    request.language = m_language->currentData().toString();
    request.code = m_editor->toPlainText();
    request.timeout = std::chrono::seconds(m_timeout->value());
    request.source = RunSource::Gui;
    for (const QString &library :
         m_libraries->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        request.libraries << library;
    }
    request.network = nextRunNetwork();
    // Shared with this run only: the next one reads the settings' folders alone unless more are dropped.
    request.sharedFolders = m_nextRunFolders;
    m_nextRunFolders.clear();
    showNextRunFolders();
    m_dropProblem->setVisible(false);

    rememberSnippet(request.language, request.code);
    clearResults();
    m_progressText->setText(request.libraries.isEmpty() ? tr("Starting a sandbox…")
                                                        : tr("Installing %1…").arg(request.libraries.join(", ")));
    m_preparing = true;
    m_progressRow->setVisible(true);
    m_clock.start();
    m_ticket = m_controller.start(request, m_backend->currentData().toString());
    setRunning(true);
}

void ConsolePage::stop()
{
    if (m_ticket != 0) {
        m_controller.cancel(m_ticket);
        m_progressText->setText(tr("Stopping…"));
    }
}

void ConsolePage::setRunning(bool running)
{
    // A control about to be disabled hands its focus to the next one in the chain (Run gave it to the Libraries
    // field): the code is where the user was, and where they go on.
    const QList<QWidget *> disabled =
        running ? QList<QWidget *>{m_runButton, m_language, m_backend} : QList<QWidget *>{m_stopButton};
    if (std::any_of(disabled.cbegin(), disabled.cend(), [](const QWidget *control) { return control->hasFocus(); })) {
        m_editor->setFocus();
    }
    m_runAction->setEnabled(!running);
    m_runButton->setEnabled(!running);
    m_stopAction->setEnabled(running);
    m_stopButton->setEnabled(running);
    m_language->setEnabled(!running);
    m_backend->setEnabled(!running);
    if (!running) {
        m_progressRow->setVisible(false);
    }
    emit runningChanged(running);
}

void ConsolePage::onStarted(quint64 ticket, const QString &runId)
{
    if (ticket == m_ticket) {
        m_preparing = false;
        m_progressText->setText(tr("Running (run %1)…").arg(runId.left(12)));
    }
}

void ConsolePage::onProgress(quint64 ticket, const RunProgress &progress)
{
    if (ticket != m_ticket) {
        return;
    }
    QString text = progress.message.simplified();
    m_preparing =
        progress.kind == RunProgress::Kind::LibraryInstall || progress.kind == RunProgress::Kind::ContainerStart;
    switch (progress.kind) {
    case RunProgress::Kind::ImageBuild:
        text = tr("Building the sandbox image: %1").arg(text);
        break;
    case RunProgress::Kind::LibraryInstall:
        text = tr("Installing libraries: %1").arg(text);
        break;
    case RunProgress::Kind::ContainerStart:
        text = tr("Starting a sandbox: %1").arg(text);
        break;
    case RunProgress::Kind::Status:
        break;
    }
    m_progressText->setText(m_progressText->fontMetrics().elidedText(text, Qt::ElideRight, 900));
    m_progressText->setToolTip(progress.message);
}

void ConsolePage::onOutput(quint64 ticket, OutputStream stream, const QByteArray &chunk)
{
    if (ticket == m_ticket) {
        if (m_preparing) {
            m_preparing = false;
            m_progressText->setText(tr("Running…"));
        }
        m_output->appendOutput(stream, chunk);
    }
}

void ConsolePage::onArtifact(quint64 ticket, const Artifact &artifact)
{
    if (ticket == m_ticket) {
        m_artifacts->addArtifact(artifact);
    }
}

void ConsolePage::onFinished(quint64 ticket, const RunResult &result)
{
    if (ticket != m_ticket) {
        return;
    }
    m_ticket = 0;
    setRunning(false);
    // Artifacts that did not come through runArtifact (an engine that only returns them) are shown now.
    if (m_artifacts->count() == 0) {
        for (const Artifact &artifact : result.artifacts) {
            m_artifacts->addArtifact(artifact);
        }
    }
    // The status in the words and colour of every page: "Stopped by you after 3.00 s", not "Exit code 137 · stopped".
    const RunEnding ending = RunEnding::of(result, RunSource::Gui, qint64(m_timeout->value()) * 1000);
    QStringList parts;
    parts << QStringLiteral("<b>%1</b>").arg(runStatusText(ending).toHtmlEscaped());
    parts << tr("%1 in total").arg(durationText(result.durationMs));
    if (result.wallMs > 0 || result.cpuMs > 0) {
        parts << tr("program: %1 wall, %2 CPU, %3 peak memory")
                     .arg(durationText(result.wallMs), durationText(result.cpuMs),
                          dataSizeText(result.peakMemoryKb * 1024));
    }
    if (result.outputTruncated) {
        parts << tr("output truncated");
    }
    showSummary(parts.join(QStringLiteral(" · ")), ending.outcome);
}

void ConsolePage::onFailed(quint64 ticket, const Error &error)
{
    if (ticket != m_ticket) {
        return;
    }
    m_ticket = 0;
    setRunning(false);
    // One sentence: what failed and why; an installer's log behind Show Details.
    const ErrorSummary summary = summarised(error);
    showSummary(htmlWithCode(summary.sentence),
                error.code == ErrorCode::Cancelled ? RunOutcome::Stopped : RunOutcome::Failed);
    showDetails(summary.details);
}

void ConsolePage::showSummary(const QString &text, RunOutcome outcome)
{
    const QString color = StateColors::of(palette()).forOutcome(outcome).name();
    const QString icon = outcome == RunOutcome::Succeeded ? QStringLiteral("✔") : QStringLiteral("●");
    m_summary->setText(QStringLiteral("<span style='color:%1'>%2</span>&nbsp; %3").arg(color, icon, text));
    m_summary->setVisible(true);
}

QString ConsolePage::title() const
{
    return tr("Console");
}

QIcon ConsolePage::icon() const
{
    return themedIcon(QStringLiteral(":/icons/page-console.svg"), palette());
}

void ConsolePage::saveState(QSettings &settings) const
{
    kSplitterState.write(settings, m_splitter->saveState());
    kLanguage.write(settings, m_shownLanguage);
    QVariantMap drafts;
    for (const Language &language : LanguageRegistry::instance().languages()) {
        const QString code = draft(language.name);
        if (!code.trimmed().isEmpty() && code != exampleOf(language.name)) {
            drafts.insert(language.name, code);
        }
    }
    kDrafts.write(settings, drafts);
    QVariantMap recent;
    for (auto it = m_recent.cbegin(); it != m_recent.cend(); ++it) {
        recent.insert(it.key(), it.value());
    }
    kRecent.write(settings, recent);
}

void ConsolePage::restoreState(const QSettings &settings)
{
    m_splitter->restoreState(kSplitterState.read(settings));
    const QVariantMap drafts = kDrafts.read(settings);
    m_drafts.clear();
    for (auto it = drafts.cbegin(); it != drafts.cend(); ++it) {
        m_drafts.insert(it.key(), it.value().toString());
    }
    const QVariantMap recent = kRecent.read(settings);
    m_recent.clear();
    for (auto it = recent.cbegin(); it != recent.cend(); ++it) {
        m_recent.insert(it.key(), it.value().toStringList().mid(0, kRecentSnippets));
    }
    // The editor shows the restored code of the restored language (not a draft of the example it showed).
    m_shownLanguage.clear();
    const int index = m_language->findData(kLanguage.read(settings));
    if (index >= 0) {
        const QSignalBlocker blocker(m_language);
        m_language->setCurrentIndex(index);
    }
    chooseLanguage();
}

void ConsolePage::setNetworkAllow(const NetworkAllowList &allowed)
{
    if (allowed.isEmpty()) {
        m_network->setPlaceholderText(tr("Nothing is allowed: Settings → Network"));
        return;
    }
    auto registries = NetworkAllowList::parse(QStringLiteral("registries"));
    m_network->setPlaceholderText(registries && allowed == *registries
                                      ? tr("Hosts for this run, within the package registries")
                                      : tr("Hosts for this run, within %1").arg(allowed.text()));
}

QStringList ConsolePage::nextRunNetwork() const
{
    return m_network->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
}

void ConsolePage::setSharedFolders(const QList<SharedFolder> &folders)
{
    m_sharedFolders = folders;
}

bool ConsolePage::shareForNextRun(const QList<QUrl> &urls)
{
    QStringList folders;
    for (const QUrl &url : urls) {
        if (!url.isLocalFile()) {
            continue;
        }
        const QFileInfo dropped(url.toLocalFile());
        const QString folder = dropped.isDir() ? dropped.absoluteFilePath() : dropped.absolutePath();
        if (!folders.contains(folder)) {
            folders << folder;
        }
    }
    QString problem;
    int shared = 0;
    for (const QString &folder : std::as_const(folders)) {
        SharedFolder added;
        const QString refused = FoldersPage::refusal(folder, m_sharedFolders + m_nextRunFolders, &added);
        if (!refused.isEmpty()) {
            problem = refused;
            continue;
        }
        m_nextRunFolders << added;
        ++shared;
    }
    m_dropProblem->setText(problem);
    m_dropProblem->setVisible(!problem.isEmpty());
    showNextRunFolders();
    return shared > 0;
}

void ConsolePage::showNextRunFolders()
{
    while (m_foldersLayout->count() > 1) {
        QLayoutItem *item = m_foldersLayout->takeAt(0);
        delete item->widget();
        delete item;
    }
    for (int index = 0; index < m_nextRunFolders.size(); ++index) {
        const SharedFolder &folder = m_nextRunFolders.at(index);
        auto *chip = new QFrame;
        chip->setObjectName(QStringLiteral("nextRunFolder"));
        chip->setFrameShape(QFrame::StyledPanel);
        chip->setToolTip(QDir::toNativeSeparators(folder.path));
        auto *chipLayout = new QHBoxLayout(chip);
        chipLayout->setContentsMargins(6, 1, 1, 1);
        chipLayout->setSpacing(2);
        chipLayout->addWidget(new QLabel(tr("Shared for the next run: %1 (read only)").arg(folder.mountPath())));
        auto *remove = new QToolButton;
        remove->setObjectName(QStringLiteral("removeNextRunFolder"));
        remove->setAutoRaise(true);
        remove->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
        remove->setToolTip(tr("Do not share %1 with the next run").arg(folder.mountPath()));
        connect(remove, &QToolButton::clicked, this, [this, name = folder.name] {
            m_nextRunFolders.removeIf([&name](const SharedFolder &shared) { return shared.name == name; });
            showNextRunFolders();
        });
        chipLayout->addWidget(remove);
        m_foldersLayout->insertWidget(index, chip);
    }
    m_foldersRow->setVisible(!m_nextRunFolders.isEmpty());
}

void ConsolePage::dragEnterEvent(QDragEnterEvent *event)
{
    if (!droppedPaths(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
    }
}

void ConsolePage::dragMoveEvent(QDragMoveEvent *event)
{
    if (!droppedPaths(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
    }
}

void ConsolePage::dropEvent(QDropEvent *event)
{
    if (!droppedPaths(event->mimeData()).isEmpty()) {
        shareForNextRun(event->mimeData()->urls());
        event->acceptProposedAction();
    }
}

bool ConsolePage::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove:
        if (auto *drag = static_cast<QDragMoveEvent *>(event); !droppedPaths(drag->mimeData()).isEmpty()) {
            drag->acceptProposedAction();
            return true;
        }
        break;
    case QEvent::Drop:
        if (auto *drop = static_cast<QDropEvent *>(event); !droppedPaths(drop->mimeData()).isEmpty()) {
            shareForNextRun(drop->mimeData()->urls());
            drop->acceptProposedAction();
            return true;
        }
        break;
    default:
        break;
    }
    return Page::eventFilter(watched, event);
}

} // namespace sandbox::gui
