#include "gui/MainWindow.h"

#include "AppContext.h"
#include "lang/LanguageRegistry.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace sandbox::gui {

MainWindow::MainWindow(AppContext &context, QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(tr("LLM Sandbox"));
    resize(960, 640);

    if (auto engine = context.engine()) {
        m_engine = *engine;
    } else {
        m_engineError = engine.error().message;
    }

    m_language = new QComboBox;
    m_language->setObjectName(QStringLiteral("languagePicker"));
    for (const Language &language : LanguageRegistry::instance().languages()) {
        m_language->addItem(language.displayName, language.name);
    }
    m_runButton = new QPushButton(tr("Run"));
    m_runButton->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setEnabled(false);

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_code = new QPlainTextEdit;
    m_code->setObjectName(QStringLiteral("codeEditor"));
    m_code->setFont(mono);
    m_code->setPlaceholderText(tr("Code to run in a sandbox"));
    m_code->setPlainText(LanguageRegistry::instance().languages().first().examples.first().code);
    m_output = new QPlainTextEdit;
    m_output->setObjectName(QStringLiteral("outputView"));
    m_output->setFont(mono);
    m_output->setReadOnly(true);

    auto *toolbar = new QHBoxLayout;
    toolbar->addWidget(new QLabel(tr("Language:")));
    toolbar->addWidget(m_language);
    toolbar->addStretch();
    toolbar->addWidget(m_cancelButton);
    toolbar->addWidget(m_runButton);

    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_code);
    splitter->addWidget(m_output);

    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->addLayout(toolbar);
    layout->addWidget(splitter);
    setCentralWidget(central);

    m_status = new QLabel;
    statusBar()->addWidget(m_status, 1);
    m_status->setText(m_engine ? tr("Backend: %1").arg(m_engine->backend().name()) : m_engineError);

    connect(m_language, &QComboBox::currentIndexChanged, this, [this] {
        auto language = LanguageRegistry::instance().find(m_language->currentData().toString());
        if (language && !language->examples.isEmpty()) {
            m_code->setPlainText(language->examples.first().code);
        }
    });
    connect(m_runButton, &QPushButton::clicked, this, &MainWindow::runCode);
    connect(m_cancelButton, &QPushButton::clicked, this, &MainWindow::cancelRun);
    connect(&m_watcher, &QFutureWatcher<Result<RunResult>>::finished, this, &MainWindow::showResult);
}

MainWindow::~MainWindow()
{
    // A run still going is cancelled and waited for: it uses the engine.
    m_stop.request_stop();
    m_watcher.waitForFinished();
}

void MainWindow::runCode()
{
    if (!m_engine) {
        m_output->setPlainText(m_engineError);
        return;
    }
    RunRequest request;
    request.language = m_language->currentData().toString();
    request.code = m_code->toPlainText();
    request.origin = QStringLiteral("gui");
    m_stop = std::stop_source();
    m_runButton->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_output->clear();
    m_status->setText(tr("Running..."));
    ExecutionEngine *engine = m_engine;
    m_watcher.setFuture(QtConcurrent::run(
        [engine, request, token = m_stop.get_token()] { return engine->run(request, token); }));
}

void MainWindow::cancelRun()
{
    m_stop.request_stop();
}

void MainWindow::showResult()
{
    m_runButton->setEnabled(true);
    m_cancelButton->setEnabled(false);
    const Result<RunResult> result = m_watcher.result();
    if (!result) {
        m_output->setPlainText(result.error().message);
        m_status->setText(tr("Failed"));
        return;
    }
    QString text = QString::fromUtf8(result->stdoutData);
    if (!result->stderrData.isEmpty()) {
        text += QStringLiteral("\n--- stderr ---\n") + QString::fromUtf8(result->stderrData);
    }
    m_output->setPlainText(text);
    m_status->setText(tr("Exit code %1 (%2) in %3 ms, %4 artifact(s)")
                          .arg(result->exitCode)
                          .arg(toString(result->reason))
                          .arg(result->durationMs)
                          .arg(result->artifacts.size()));
}

} // namespace sandbox::gui
