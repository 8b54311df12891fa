// The main of an area's test executable (testmain.h): finds the driver that the program's name
// or its first argument names, makes its application object and runs it.
#include "support/testmain.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSettings>
#ifdef CUWB_TEST_WIDGETS
#include <QApplication>
#endif

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cuwb::test {

namespace {

struct Driver
{
    App app = App::Default;
    RunFunction run = nullptr;
};

std::map<std::string, Driver> &drivers()
{
    static std::map<std::string, Driver> registered;
    return registered;
}

QString g_program;
QStringList g_driverArguments;

std::string stem(const char *path)
{
    std::string name = path;
    if (const std::size_t slash = name.find_last_of('/'); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (const std::size_t dot = name.find('.'); dot != std::string::npos)
        name.erase(dot);
    return name;
}

int usage(const char *program)
{
    std::fprintf(stderr, "usage: %s TEST [Qt Test options]\nthe tests:", program);
    for (const auto &entry : drivers())
        std::fprintf(stderr, " %s", entry.first.c_str());
    std::fprintf(stderr, "\n");
    return 2;
}

} // namespace

Registration::Registration(const char *file, App app, RunFunction run)
{
    drivers()[stem(file)] = Driver{app, run};
}

void keepSettingsIn(const QString &folder)
{
    QCoreApplication::setOrganizationName(QStringLiteral("cuwb-tests"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, folder);
}

QString program()
{
    return g_program;
}

QStringList driverArguments()
{
    return g_driverArguments;
}

} // namespace cuwb::test

int main(int argc, char **argv)
{
    using namespace cuwb::test;
    // "gui_tst_launchpanel" (a link named after the driver), or "gui_tests tst_launchpanel".
    std::string name = stem(argv[0]);
    if (const std::size_t at = name.find("_tst_"); at != std::string::npos)
        name.erase(0, at + 1);
    auto found = drivers().find(name);
    std::vector<char *> arguments(argv, argv + argc);
    g_program = QFileInfo(QString::fromLocal8Bit(argv[0])).absoluteFilePath();
    if (found == drivers().end()) {
        if (argc < 2 || (found = drivers().find(argv[1])) == drivers().end())
            return usage(argv[0]);
        g_driverArguments = {QString::fromLocal8Bit(argv[1])};
        arguments.erase(arguments.begin() + 1);
    }
    int count = int(arguments.size());
    arguments.push_back(nullptr);
    char **driverArgv = arguments.data();
    std::unique_ptr<QCoreApplication> app;
    switch (found->second.app) {
    case App::Default:
#ifdef CUWB_TEST_WIDGETS
        app = std::make_unique<QApplication>(count, driverArgv);
        break;
#else
        [[fallthrough]];
#endif
    case App::Core:
        app = std::make_unique<QCoreApplication>(count, driverArgv);
        break;
    case App::None:
        break;
    }
    if (app)
        app->setAttribute(Qt::AA_Use96Dpi, true);
    return found->second.run(count, driverArgv);
}
