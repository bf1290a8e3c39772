#include "gui/history/RunInspector.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/history/DiffView.h"
#include "gui/history/HistoryModel.h"
#include "gui/widgets/ArtifactPreviewDialog.h"
#include "journal/RunDiff.h"

#include <QFile>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPainter>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::gui {

namespace {

constexpr int ThumbnailWidth = 160;
constexpr int ThumbnailHeight = 120;

QPlainTextEdit *readOnlyText(const QString &objectName, QWidget *parent)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setObjectName(objectName);
    edit->setReadOnly(true);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    return edit;
}

QWidget *titled(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto *label = new QLabel(title, box);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    layout->addWidget(label);
    layout->addWidget(content, 1);
    return box;
}

QString orDash(const QString &text)
{
    return text.isEmpty() ? QStringLiteral("—") : text;
}

QString dateTimeText(const QDateTime &when)
{
    return when.isValid() ? QLocale().toString(when.toLocalTime(), QLocale::ShortFormat) : QStringLiteral("—");
}

/// Long base64 strings (image items) shortened, so the exchange stays readable.
QJsonValue shortened(const QJsonValue &value)
{
    constexpr qsizetype limit = 160;
    if (value.isString() && value.toString().size() > limit) {
        const QString text = value.toString();
        return RunInspector::tr("%1… (%2 characters)").arg(text.left(40)).arg(text.size());
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
            // Text items are what the model read: keep them whole.
            result.insert(it.key(), it.key() == QLatin1String("text") ? it.value() : shortened(it.value()));
        }
        return result;
    }
    return value;
}

QImage thumbnailOf(const JournalArtifact &artifact)
{
    if (!artifact.mimeType.startsWith(QLatin1String("image/"))) {
        return {};
    }
    QImage image(artifact.path);
    if (image.isNull()) {
        return {};
    }
    QImage scaled = image.scaled(ThumbnailWidth, ThumbnailHeight, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    // Centered on a fixed canvas, so the grid lines up whatever the aspect ratio.
    QImage canvas(ThumbnailWidth, ThumbnailHeight, QImage::Format_ARGB32_Premultiplied);
    canvas.fill(Qt::transparent);
    QPainter painter(&canvas);
    painter.drawImage((ThumbnailWidth - scaled.width()) / 2, (ThumbnailHeight - scaled.height()) / 2, scaled);
    return canvas;
}

} // namespace

RunInspector::RunInspector(QWidget *parent) : QWidget(parent)
{
    m_stack = new QStackedWidget(this);
    auto *empty = new QLabel(tr("Select a run to inspect it."), m_stack);
    empty->setAlignment(Qt::AlignCenter);
    empty->setEnabled(false);
    m_stack->addWidget(empty);

    auto *page = new QWidget(m_stack);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(page);
    m_title->setObjectName(QStringLiteral("inspectorTitle"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_subtitle = new QLabel(page);
    m_subtitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tabs = new QTabWidget(page);
    m_tabs->setObjectName(QStringLiteral("inspectorTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(createCodeTab(), tr("Code"));
    m_tabs->addTab(createOutputTab(), tr("Output"));
    m_tabs->addTab(createArtifactsTab(), tr("Artifacts"));
    m_tabs->addTab(createSettingsTab(), tr("Settings"));
    m_tabs->addTab(createUsageTab(), tr("Usage"));
    m_tabs->addTab(createMcpTab(), tr("MCP"));
    m_diff = new DiffView(m_tabs);
    m_tabs->addTab(m_diff, tr("Replay diff"));
    pageLayout->addWidget(m_title);
    pageLayout->addWidget(m_subtitle);
    pageLayout->addWidget(m_tabs, 1);
    m_stack->addWidget(page);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(&m_thumbnails, &QFutureWatcher<QList<QImage>>::finished, this, [this] {
        const QList<QImage> images = m_thumbnails.result();
        for (int i = 0; i < images.size() && i < m_artifacts->count(); ++i) {
            if (!images.at(i).isNull()) {
                m_artifacts->item(i)->setIcon(QIcon(QPixmap::fromImage(images.at(i))));
            }
        }
    });
    clear();
}

RunInspector::~RunInspector() = default;

QWidget *RunInspector::createCodeTab()
{
    m_code = readOnlyText(QStringLiteral("inspectorCode"), this);
    return m_code;
}

QWidget *RunInspector::createOutputTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    m_stdout = readOnlyText(QStringLiteral("inspectorStdout"), tab);
    m_stderr = readOnlyText(QStringLiteral("inspectorStderr"), tab);
    m_stdout->setPlaceholderText(tr("Nothing on standard output."));
    m_stderr->setPlaceholderText(tr("Nothing on standard error."));
    // Standard error in the colour terminals and IDEs use for it.
    QPalette errorPalette = m_stderr->palette();
    errorPalette.setColor(QPalette::Text, StateColors::of(errorPalette).failed);
    m_stderr->setPalette(errorPalette);
    auto *splitter = new QSplitter(Qt::Vertical, tab);
    splitter->addWidget(titled(tr("Standard output"), m_stdout, splitter));
    splitter->addWidget(titled(tr("Standard error"), m_stderr, splitter));
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    m_outputNote = new QLabel(tab);
    m_outputNote->setWordWrap(true);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_outputNote);
    return tab;
}

QWidget *RunInspector::createArtifactsTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    m_artifacts = new QListWidget(tab);
    m_artifacts->setObjectName(QStringLiteral("inspectorArtifacts"));
    m_artifacts->setViewMode(QListView::IconMode);
    m_artifacts->setIconSize(QSize(ThumbnailWidth, ThumbnailHeight));
    m_artifacts->setGridSize(QSize(ThumbnailWidth + 48, ThumbnailHeight + 64));
    m_artifacts->setResizeMode(QListView::Adjust);
    m_artifacts->setMovement(QListView::Static);
    m_artifacts->setWordWrap(true);
    m_artifacts->setUniformItemSizes(true);
    m_noArtifacts = new QLabel(tr("This run produced no artifacts."), tab);
    m_noArtifacts->setAlignment(Qt::AlignCenter);
    m_noArtifacts->setEnabled(false);
    auto *hint = new QLabel(tr("Double-click an artifact to open it."), tab);
    hint->setEnabled(false);
    layout->addWidget(m_artifacts, 1);
    layout->addWidget(m_noArtifacts, 1);
    layout->addWidget(hint);
    connect(m_artifacts, &QListWidget::itemDoubleClicked, this, &RunInspector::openArtifact);
    return tab;
}

QWidget *RunInspector::createSettingsTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    m_settingsForm = new QFormLayout;
    m_settingsJson = readOnlyText(QStringLiteral("inspectorSettingsJson"), tab);
    layout->addLayout(m_settingsForm);
    layout->addWidget(titled(tr("Sandbox settings"), m_settingsJson, tab), 1);
    return tab;
}

QWidget *RunInspector::createUsageTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    m_usageForm = new QFormLayout;
    layout->addLayout(m_usageForm);
    layout->addStretch(1);
    return tab;
}

QWidget *RunInspector::createMcpTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    m_mcpForm = new QFormLayout;
    m_mcpRequest = readOnlyText(QStringLiteral("inspectorMcpRequest"), tab);
    m_mcpResponse = readOnlyText(QStringLiteral("inspectorMcpResponse"), tab);
    auto *splitter = new QSplitter(Qt::Vertical, tab);
    splitter->addWidget(titled(tr("Tool call, as the client sent it"), m_mcpRequest, splitter));
    splitter->addWidget(titled(tr("Result, as it was returned"), m_mcpResponse, splitter));
    layout->addLayout(m_mcpForm);
    layout->addWidget(splitter, 1);
    return tab;
}

void RunInspector::fillForm(QFormLayout *form, const QList<std::pair<QString, QString>> &rows)
{
    while (form->rowCount() > 0) {
        form->removeRow(0);
    }
    for (const auto &[label, value] : rows) {
        auto *field = new QLabel(value);
        field->setTextInteractionFlags(Qt::TextSelectableByMouse);
        field->setWordWrap(true);
        form->addRow(label, field);
    }
}

QString RunInspector::prettyJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(shortened(object).toObject()).toJson(QJsonDocument::Indented));
}

void RunInspector::clear()
{
    m_run = JournalRun{};
    m_thumbnails.cancel();
    m_stack->setCurrentIndex(0);
}

void RunInspector::setRun(const JournalRun &run)
{
    const bool sameRun = run.id == m_run.id;
    m_run = run;
    m_stack->setCurrentIndex(1);

    const QString outcome =
        run.status == RunStatus::Finished && run.exitCode ? tr("exit %1").arg(*run.exitCode) : QString();
    QStringList title = {languageText(run.language), runStatusText(run.status)};
    if (!outcome.isEmpty()) {
        title << outcome;
    }
    if (run.wasStopped()) {
        title << stopReasonText(run.stopReason);
    }
    m_title->setText(title.join(QStringLiteral(" · ")));
    const QString source =
        run.clientName.isEmpty()
            ? run.source
            : QStringLiteral("%1 (%2 %3)").arg(run.source, run.clientName, run.clientVersion).trimmed();
    QString subtitle = tr("Run %1 · started %2 from %3").arg(run.id, dateTimeText(run.startedAt), source);
    if (!run.replayOf.isEmpty()) {
        subtitle += tr(" · replay of %1").arg(run.replayOf);
    }
    m_subtitle->setText(subtitle);

    // Keep the reader's place when the same run is refreshed (a running run that finished).
    if (!sameRun || m_code->toPlainText() != run.code) {
        m_code->setPlainText(run.code);
    }
    m_stdout->setPlainText(QString::fromUtf8(run.stdoutData));
    m_stderr->setPlainText(QString::fromUtf8(run.stderrData));
    QStringList notes;
    if (run.outputTruncated) {
        notes << tr("The output reached the sandbox's limit and was cut.");
    }
    if (run.outputCap > 0 && run.stdoutData.size() + run.stderrData.size() >= run.outputCap) {
        notes << tr("The journal keeps the first %1 of output.").arg(QLocale().formattedDataSize(run.outputCap));
    }
    if (!run.error.isEmpty()) {
        notes << tr("Error: %1").arg(run.error);
    }
    m_outputNote->setText(notes.join(QLatin1Char('\n')));
    m_outputNote->setVisible(!notes.isEmpty());

    showArtifacts();

    const QString timeout = run.timeoutMs > 0 ? durationText(run.timeoutMs) : QString();
    fillForm(m_settingsForm, {
                                 {tr("Language:"), orDash(run.language)},
                                 {tr("Libraries:"), orDash(run.libraries.join(QStringLiteral(", ")))},
                                 {tr("Backend:"), orDash(run.backend)},
                                 {tr("Endpoint:"), orDash(run.endpoint)},
                                 {tr("Image:"), orDash(run.image)},
                                 {tr("Timeout:"), orDash(timeout)},
                                 {tr("Session:"), orDash(run.sessionId)},
                                 {tr("Replay of:"), orDash(run.replayOf)},
                             });
    m_settingsJson->setPlainText(run.settings.isEmpty()
                                     ? tr("(not recorded)")
                                     : QString::fromUtf8(QJsonDocument(run.settings).toJson(QJsonDocument::Indented)));

    const bool ended = run.status != RunStatus::Running;
    fillForm(m_usageForm,
             {
                 {tr("Status:"), runStatusText(run.status)},
                 {tr("Exit code:"), run.exitCode ? QString::number(*run.exitCode) : QStringLiteral("—")},
                 {tr("Stop reason:"), orDash(stopReasonText(run.stopReason))},
                 {tr("Duration:"), ended ? durationText(run.durationMs) : QStringLiteral("—")},
                 {tr("Wall time:"), ended ? durationText(run.wallMs) : QStringLiteral("—")},
                 {tr("CPU time:"), ended ? durationText(run.cpuMs) : QStringLiteral("—")},
                 {tr("Peak memory:"),
                  run.peakMemoryKb > 0 ? QLocale().formattedDataSize(run.peakMemoryKb * 1024) : QStringLiteral("—")},
                 {tr("Started:"), dateTimeText(run.startedAt)},
                 {tr("Finished:"), dateTimeText(run.finishedAt)},
             });

    const bool viaMcp = !run.mcpRequest.isEmpty() || !run.mcpResponse.isEmpty();
    m_tabs->setTabVisible(McpTab, viaMcp);
    if (viaMcp) {
        const QString client =
            run.clientName.isEmpty() ? QString() : QStringLiteral("%1 %2").arg(run.clientName, run.clientVersion);
        fillForm(m_mcpForm,
                 {{tr("Client:"), orDash(client.trimmed())}, {tr("Protocol version:"), orDash(run.protocolVersion)}});
        m_mcpRequest->setPlainText(prettyJson(run.mcpRequest));
        m_mcpResponse->setPlainText(prettyJson(run.mcpResponse));
    }
    if (!sameRun) {
        m_tabs->setTabVisible(DiffTab, false);
    }
    if (!m_tabs->isTabVisible(m_tabs->currentIndex())) {
        m_tabs->setCurrentIndex(CodeTab);
    }
}

void RunInspector::showArtifacts()
{
    m_artifacts->clear();
    const QIcon fileIcon = style()->standardIcon(QStyle::SP_FileIcon);
    for (const JournalArtifact &artifact : m_run.artifacts) {
        QStringList details = {artifact.mimeType, QLocale().formattedDataSize(artifact.size)};
        if (artifact.width > 0 && artifact.height > 0) {
            details << QStringLiteral("%1 × %2").arg(artifact.width).arg(artifact.height);
        }
        auto *item = new QListWidgetItem(
            fileIcon, artifact.name + QLatin1Char('\n') + details.join(QStringLiteral(" · ")), m_artifacts);
        item->setData(Qt::UserRole, artifact.path);
        item->setToolTip(artifact.path.isEmpty() ? artifact.name : artifact.path);
    }
    m_artifacts->setVisible(!m_run.artifacts.isEmpty());
    m_noArtifacts->setVisible(m_run.artifacts.isEmpty());
    m_tabs->setTabText(ArtifactsTab,
                       m_run.artifacts.isEmpty() ? tr("Artifacts") : tr("Artifacts (%1)").arg(m_run.artifacts.size()));
    // Decoding and scaling images is slow for big charts: off the GUI thread.
    m_thumbnails.setFuture(QtConcurrent::run([artifacts = m_run.artifacts] {
        QList<QImage> images;
        for (const JournalArtifact &artifact : artifacts) {
            images.append(thumbnailOf(artifact));
        }
        return images;
    }));
}

void RunInspector::openArtifact(QListWidgetItem *item)
{
    const int index = m_artifacts->row(item);
    if (index < 0 || index >= m_run.artifacts.size()) {
        return;
    }
    const JournalArtifact &artifact = m_run.artifacts.at(index);
    if (QFile file(artifact.path); file.open(QIODevice::ReadOnly)) {
        ArtifactPreviewDialog::showArtifact(window(), artifact.name, artifact.mimeType, file.readAll());
    }
}

void RunInspector::setDiff(const RunDiff &diff, const JournalRun &original)
{
    m_diff->setDiff(diff, original, m_run);
    m_tabs->setTabVisible(DiffTab, true);
}

void RunInspector::showTab(Tab tab)
{
    m_tabs->setCurrentIndex(tab);
}

bool RunInspector::isTabShown(Tab tab) const
{
    return m_stack->currentIndex() == 1 && m_tabs->isTabVisible(tab) && m_tabs->currentIndex() == tab;
}

} // namespace sandbox::gui
