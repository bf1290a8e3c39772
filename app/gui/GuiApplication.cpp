#include "gui/GuiApplication.h"

#include "AppContext.h"
#include "gui/MainWindow.h"

#include <QApplication>
#include <QIcon>
#include <QMessageBox>
#include <QTimer>

namespace sandbox::gui {

int runDesktopApp(int &argc, char **argv, DesktopAppOptions options)
{
    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QObject::tr("LLM Sandbox"));
    // The installed desktop entry (installer/) and its icon: the desktop matches the window to them.
    QApplication::setDesktopFileName(QStringLiteral(LLM_SANDBOX_APP_ID));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/llm-sandbox.svg")));
    auto context = AppContext::create({.source = QStringLiteral("gui"),
                                       .removeOrphans = true,
                                       .prewarm = {QStringLiteral("python")},
                                       .applyRetention = true});
    if (!context) {
        // Invalid settings in the environment: say which, rather than opening a window that cannot run anything.
        QMessageBox::critical(nullptr, QObject::tr("LLM Sandbox"),
                              QObject::tr("The settings are invalid:\n%1").arg(context.error().message));
        return 2;
    }
    MainWindow window(**context);
    window.show();
    if (options.quitAfterStart) {
        QTimer::singleShot(0, &app, &QCoreApplication::quit);
    }
    return app.exec();
}

} // namespace sandbox::gui
