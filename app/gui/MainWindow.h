#pragma once

#include "engine/ExecutionEngine.h"

#include <QFutureWatcher>
#include <QMainWindow>

#include <memory>
#include <stop_token>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace sandbox {
class AppContext;
}

namespace sandbox::gui {

/// The desktop app's window: a run console (language, code, output) over the same engine
/// the command line and the MCP server use. Runs execute on a worker thread.
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(AppContext &context, QWidget *parent = nullptr);
    ~MainWindow() override;

private:
    void runCode();
    void cancelRun();
    void showResult();

    ExecutionEngine *m_engine = nullptr;
    QString m_engineError;
    QComboBox *m_language = nullptr;
    QPlainTextEdit *m_code = nullptr;
    QPlainTextEdit *m_output = nullptr;
    QPushButton *m_runButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QLabel *m_status = nullptr;
    std::stop_source m_stop;
    QFutureWatcher<Result<RunResult>> m_watcher;
};

} // namespace sandbox::gui
