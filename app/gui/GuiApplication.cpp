#include "gui/GuiApplication.h"

#include "AppContext.h"
#include "AppTranslations.h"
#include "SignalCanceller.h"
#include "gui/DesktopApp.h"
#include "gui/MainWindow.h"
#include "gui/SingleInstance.h"
#include "gui/widgets/ImageDecoderProcess.h"

#include <QApplication>
#include <QIcon>
#include <QMessageBox>
#include <QTimer>
#include <cstdio>
#include <memory>
#include <stop_token>

namespace sandbox::gui {

int runDesktopApp(int &argc, char **argv, DesktopAppOptions options)
{
    // Before any other thread exists: SIGTERM, SIGINT and SIGHUP (kill, a logout, Ctrl-C in a terminal) are then
    // taken by the canceller's thread, and the app ends as if quit, without asking.
    const SignalCanceller signalCanceller;
    QApplication app(argc, argv);
    installUserTranslations();
    QApplication::setApplicationDisplayName(QObject::tr("LLM Sandbox"));
    // The installed desktop entry (installer/) and its icon: the desktop matches the window to them.
    QApplication::setDesktopFileName(QStringLiteral(LLM_SANDBOX_APP_ID));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/llm-sandbox.svg")));
    // One app per user, settings and journal: a second start shows the first's window and ends.
    std::unique_ptr<SingleInstance> instance;
    if (!options.quitAfterStart && !options.newInstance) {
        instance = std::make_unique<SingleInstance>();
        if (instance->outcome() == SingleInstance::Outcome::Activated) {
            std::fputs(
                qPrintable(QObject::tr("LLM Sandbox is already running; its window was brought forward.") + u'\n'),
                stderr);
            return 0;
        }
        if (instance->outcome() == SingleInstance::Outcome::NoAnswer) {
            QMessageBox::critical(nullptr, QObject::tr("LLM Sandbox"),
                                  QObject::tr("LLM Sandbox is already running with these settings but does not "
                                              "answer. To open another window anyway, start `llm-sandbox "
                                              "--new-instance`."));
            return 1;
        }
    }
    auto context = AppContext::create({.source = RunSource::Gui,
                                       .removeOrphans = true,
                                       .prewarm = {QStringLiteral("python")},
                                       .applyRetention = true,
                                       .desktopSettings = true});
    if (!context) {
        // Invalid settings in the environment: say which, rather than opening a window that cannot run anything.
        QMessageBox::critical(nullptr, QObject::tr("LLM Sandbox"),
                              QObject::tr("The settings are invalid:\n%1").arg(context.error().message));
        return 2;
    }
    DesktopApp desktop(**context);
    MainWindow window(desktop);
    const std::stop_callback onSignal(signalCanceller.token(), [&window] {
        QMetaObject::invokeMethod(&window, &MainWindow::quitFromSignal, Qt::QueuedConnection);
    });
    // A decode under way (a thumbnail, a comparison) ends with its helper process when the app quits: the window's
    // threads that wait for it may then end.
    QObject::connect(&app, &QCoreApplication::aboutToQuit, [] { ImageDecoderProcess::setStopping(true); });
    if (instance) {
        QObject::connect(instance.get(), &SingleInstance::activationRequested, &window, &MainWindow::bringForward);
    }
    window.show();
    if (options.quitAfterStart) {
        QTimer::singleShot(0, &app, &QCoreApplication::quit);
    }
    return app.exec();
}

} // namespace sandbox::gui
