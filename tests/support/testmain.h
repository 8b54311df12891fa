// The test drivers of one area (tests/<area>/tst_*.cpp) are one executable, `<area>_tests`,
// compiled a few drivers to a unit (tests/CMakeLists.txt): each driver registers itself under
// its file's name with CUWB_TEST_MAIN (or the GUILESS/APPLESS variants, as Qt Test's
// QTEST_*MAIN) and the executable runs the one its first argument names:
//   tests/gui_tests tst_launchpanel [Qt Test options]
// A link named after a driver (tests/gui_tst_launchpanel) runs that driver, as the executables
// of one driver each did. Each driver's code sits in a namespace of its own (tst_<name>), so
// that the helpers of two drivers compiled together never meet.
#pragma once

#include <QString>
#include <QStringList>
#include <QtTest/QTest>

namespace cuwb::test {

// The application object a driver runs in: QTEST_MAIN's (a QApplication in the gui area, else
// a QCoreApplication), a QCoreApplication, or none (the driver makes its own).
enum class App {
    Default,
    Core,
    None,
};

using RunFunction = int (*)(int argc, char **argv);

// Registers the driver of the source file `file` (its name without the extension is the key).
struct Registration
{
    Registration(const char *file, App app, RunFunction run);
};

// How this driver is started again as a child of its own (a driver that plays a second
// process): the program, and the arguments that come before the driver's own.
QString program();
QStringList driverArguments();

// Keeps what the code under test writes to QSettings in `folder` (an INI file of the
// organisation "cuwb-tests"), never in the user's own settings.
void keepSettingsIn(const QString &folder);

} // namespace cuwb::test

#define CUWB_TEST_REGISTER(TestObject, app)                                                        \
    static const ::cuwb::test::Registration cuwbTestRegistration(                                  \
        __FILE__, app, [](int argc, char **argv) {                                                 \
            QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                     \
            TestObject tc;                                                                         \
            QTEST_SET_MAIN_SOURCE_PATH                                                             \
            return QTest::qExec(&tc, argc, argv);                                                  \
        });

#define CUWB_TEST_MAIN(TestObject) CUWB_TEST_REGISTER(TestObject, ::cuwb::test::App::Default)
#define CUWB_TEST_GUILESS_MAIN(TestObject) CUWB_TEST_REGISTER(TestObject, ::cuwb::test::App::Core)
#define CUWB_TEST_APPLESS_MAIN(TestObject) CUWB_TEST_REGISTER(TestObject, ::cuwb::test::App::None)
// A driver with a main of its own: `function` is called with the driver's arguments and makes
// the application object itself.
#define CUWB_TEST_CUSTOM_MAIN(function)                                                            \
    static const ::cuwb::test::Registration cuwbTestRegistration(                                  \
        __FILE__, ::cuwb::test::App::None, function);
