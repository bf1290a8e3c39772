// The one main() of every test executable: a QCoreApplication (QApplication for widget
// tests, chosen at compile time) and test mode for QStandardPaths, so no test touches a
// user's settings.
#include <gtest/gtest.h>

#ifdef LLM_SANDBOX_WIDGET_TESTS
#include <QApplication>
using TestApplication = QApplication;
#else
#include <QCoreApplication>
using TestApplication = QCoreApplication;
#endif
#include <QStandardPaths>

int main(int argc, char **argv)
{
    QStandardPaths::setTestModeEnabled(true);
#ifdef LLM_SANDBOX_WIDGET_TESTS
    // Widget tests never need a display (also when CTest lists them at build time).
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
#endif
    TestApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
