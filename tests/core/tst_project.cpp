// Project files: round trips, inline and path sources, unknown fields kept, malformed JSON
// with line and column, newer schema versions, wrongly typed fields, atomic saves.
#include "compilertesthelpers.h"

#include "project/project.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sys/stat.h>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_project {

namespace {

Project sampleProject()
{
    Project project;
    project.name = "vector add";
    project.sourcePath = "vector_add.cu";
    project.options.arch = "sm_80";
    project.options.defines = {"BLOCK=256"};
    project.launch.kernel = "vector_add";
    project.launch.variables = {{"N", "1 << 24"}};
    ArgumentSpec a;
    a.parameter = "a";
    a.init.kind = InitKind::Uniform;
    a.init.seed = 7;
    ArgumentSpec n;
    n.parameter = "n";
    n.isBuffer = false;
    n.elementType = {ScalarKind::Int32, 1};
    n.value = "N";
    project.launch.arguments = {a, n};
    project.verification.checks.assign(1, VerificationSpec{});
    project.verification.checks[0].kind = ReferenceKind::Expression;
    project.verification.checks[0].output = "c";
    project.verification.checks[0].expression = "a[i] + b[i]";
    return project;
}

void writeFile(const QString &path, const std::string &text)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
}

} // namespace

class TestProject : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip();
    void inlineSource();
    void readsSourceBesideTheProject();
    void resolvesPathsAgainstTheProjectFolder();
    void keepsUnknownFields();
    void measureSection();
    void measureSectionOmittedWhenDefault();
    void malformedJson_data();
    void malformedJson();
    void newerVersion();
    void invalidFields_data();
    void invalidFields();
    void savesAtomically();
    void savesThroughASymlinkKeepingItsMode();
    void loadErrors();
    void listsHaveLimits_data();
    void listsHaveLimits();
};

void TestProject::roundTrip()
{
    const Project project = sampleProject();
    const std::string text = serializeProject(project);
    QVERIFY(text.find("\n  \"schemaVersion\": 1") != std::string::npos); // pretty
    const ProjectLoad load = parseProject(text);
    QVERIFY2(load.project.has_value(), load.error.c_str());
    QCOMPARE(load.project->name, project.name);
    QCOMPARE(load.project->sourcePath, project.sourcePath);
    QVERIFY(load.project->options == project.options);
    QVERIFY(load.project->launch == project.launch);
    QVERIFY(load.project->verification == project.verification);
    QCOMPARE(serializeProject(*load.project), text);
}

void TestProject::inlineSource()
{
    Project project = sampleProject();
    project.sourcePath.clear();
    project.inlineSource = "__global__ void k(int *a) {}\n";
    const nlohmann::json json = nlohmann::json::parse(serializeProject(project));
    QCOMPARE(json["source"], (nlohmann::json{{"inline", project.inlineSource}}));
    const ProjectLoad load = parseProject(json.dump());
    QVERIFY(load.project);
    QCOMPARE(load.project->inlineSource, project.inlineSource);
    std::string source;
    std::string error;
    QVERIFY(readProjectSource(*load.project, "/nowhere/p.cuwb", source, error));
    QCOMPARE(source, project.inlineSource);
}

void TestProject::readsSourceBesideTheProject()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QDir(dir.path()).mkdir(QStringLiteral("kernels"));
    writeFile(dir.filePath(QStringLiteral("kernels/k.cu")), "kernel text");
    Project project = sampleProject();
    project.sourcePath = "kernels/k.cu";
    std::string source;
    std::string error;
    QVERIFY(readProjectSource(project, dir.filePath(QStringLiteral("p.cuwb")).toStdString(), source,
                              error));
    QCOMPARE(source, std::string("kernel text"));
    project.sourcePath = "missing.cu";
    QVERIFY(!readProjectSource(project, dir.filePath(QStringLiteral("p.cuwb")).toStdString(),
                               source, error));
    QVERIFY2(error.starts_with("cannot read source '") &&
                 error.find("missing.cu': No such file or directory") != std::string::npos,
             error.c_str());
}

void TestProject::keepsUnknownFields()
{
    const char *text = R"({
  "schemaVersion": 1,
  "source": {"path": "k.cu", "encoding": "utf-8"},
  "launch": {"kernel": "k", "graphs": {"capture": true}},
  "verification": {"kind": "none", "plots": [1, 2]},
  "compileOptions": {"arch": "sm_90", "linker": "nvjitlink"},
  "charts": {"parameter": "block.x", "values": [64, 128, 256]}
})";
    const ProjectLoad load = parseProject(text);
    QVERIFY2(load.project, load.error.c_str());
    QCOMPARE(load.project->unknownFields["charts"]["values"][2], nlohmann::json(256));
    const nlohmann::json saved = nlohmann::json::parse(serializeProject(*load.project));
    QCOMPARE(saved["charts"], nlohmann::json::parse(text)["charts"]);
    QCOMPARE(saved["source"]["encoding"], nlohmann::json("utf-8"));
    QCOMPARE(saved["launch"]["graphs"]["capture"], nlohmann::json(true));
    QCOMPARE(saved["verification"]["plots"], nlohmann::json({1, 2}));
    QCOMPARE(saved["compileOptions"]["linker"], nlohmann::json("nvjitlink"));
    QCOMPARE(saved["launch"]["kernel"], nlohmann::json("k"));
}

void TestProject::measureSection()
{
    Project project = sampleProject();
    project.measure.throughput.bytes = "2 * 4 * N";
    project.measure.throughput.flops = "N";
    project.measure.settings.mode = SampleMode::Hot;
    project.measure.settings.fixedSamples = 50;
    project.measure.settings.timeCapSeconds = 4.5;
    const std::string text = serializeProject(project);
    const nlohmann::json json = nlohmann::json::parse(text);
    QCOMPARE(json["measure"]["bytes"], nlohmann::json("2 * 4 * N"));
    QCOMPARE(json["measure"]["flops"], nlohmann::json("N"));
    QCOMPARE(json["measure"]["settings"]["mode"], nlohmann::json("hot"));
    const ProjectLoad load = parseProject(text);
    QVERIFY2(load.project, load.error.c_str());
    QVERIFY(load.project->measure == project.measure);
    QCOMPARE(serializeProject(*load.project), text);

    // Fields this version does not know survive, at both levels of the section.
    nlohmann::json extended = json;
    extended["measure"]["metrics"] = {"dram__bytes_read.sum"};
    extended["measure"]["settings"]["blockingKernel"] = true;
    const ProjectLoad extendedLoad = parseProject(extended.dump());
    QVERIFY2(extendedLoad.project, extendedLoad.error.c_str());
    QVERIFY(extendedLoad.project->measure == project.measure);
    const nlohmann::json saved = nlohmann::json::parse(serializeProject(*extendedLoad.project));
    QCOMPARE(saved["measure"], extended["measure"]);

    // Settings that cannot be used are refused with the field named.
    nlohmann::json bad = json;
    bad["measure"]["settings"]["minSamples"] = 1;
    const ProjectLoad badLoad = parseProject(bad.dump());
    QVERIFY(!badLoad.project);
    QVERIFY2(badLoad.error.starts_with("measure.settings: minSamples"), badLoad.error.c_str());
    bad = json;
    bad["measure"]["bytes"] = 4;
    QVERIFY(!parseProject(bad.dump()).project);
}

void TestProject::measureSectionOmittedWhenDefault()
{
    const nlohmann::json json = nlohmann::json::parse(serializeProject(sampleProject()));
    QVERIFY(!json.contains("measure"));
    nlohmann::json partial = json;
    partial["measure"] = {{"bytes", "N"}};
    const ProjectLoad load = parseProject(partial.dump());
    QVERIFY2(load.project, load.error.c_str());
    QCOMPARE(load.project->measure.throughput.bytes, std::string("N"));
    QVERIFY(load.project->measure.settings == SampleSettings{});
}

void TestProject::malformedJson_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::newRow("missing comma")
        << QStringLiteral("{\n  \"schemaVersion\": 1\n  \"name\": \"x\"\n}") << 3
        << 8; // the end of the token that cannot follow
    QTest::newRow("unclosed") << QStringLiteral("{\"schemaVersion\": 1,\n") << 2 << 1;
    QTest::newRow("bad value") << QStringLiteral("{\n\n    \"name\": nope}") << 3
                               << 14; // the 'o' of "nope"
    // A number no double holds: located at its first character, not an internal error.
    QTest::newRow("number overflow")
        << QStringLiteral(
               "{\n  \"name\": \"1e400\",\n  \"launch\": {\"deadlineSeconds\": 1e400}\n}")
        << 3 << 33;
}

void TestProject::malformedJson()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(int, column);
    const ProjectLoad load = parseProject(text.toStdString());
    QVERIFY(!load.project);
    QCOMPARE(load.line, line);
    QCOMPARE(load.column, column);
    const std::string prefix =
        "line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
    QVERIFY2(load.error.starts_with(prefix), load.error.c_str());
    QVERIFY2(load.error.find("json.exception") == std::string::npos, load.error.c_str());
}

void TestProject::newerVersion()
{
    const ProjectLoad load = parseProject(R"({"schemaVersion": 3, "source": {"path": "k.cu"}})");
    QVERIFY(!load.project);
    QCOMPARE(load.error,
             std::string("schema version 3 is newer than this CUDA Workbench understands (1)"));
}

void TestProject::invalidFields_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    auto row = [](const char *name, const char *text, const char *error) {
        QTest::newRow(name) << QString::fromUtf8(text) << QString::fromUtf8(error);
    };
    row("not an object", "[1, 2]", "a project file must be a JSON object, not array");
    row("no version", R"({"source": {"path": "k.cu"}})",
        "schemaVersion is missing; this is not a CUDA Workbench project");
    row("version string", R"({"schemaVersion": "1"})",
        "schemaVersion must be a whole number of 1 or more, found \"1\"");
    row("no source", R"({"schemaVersion": 1})",
        "source is missing: give {\"path\": \"kernel.cu\"} or {\"inline\": \"...\"}");
    row("both sources", R"({"schemaVersion": 1, "source": {"path": "a.cu", "inline": "x"}})",
        "source: give either path or inline, not both");
    row("source number", R"({"schemaVersion": 1, "source": 4})",
        "source: expected an object with path or inline, found number");
    row("name number", R"({"schemaVersion": 1, "name": 4, "source": {"path": "k.cu"}})",
        "name: expected a string, found number");
    row("options type",
        R"({"schemaVersion": 1, "source": {"path": "k.cu"}, "compileOptions": {"optLevel": "high"}})",
        "compileOptions.optLevel: type must be number, but is string");
    // Read as written, never wrapped into range (it used to read as 1215752191).
    row("options integer too big",
        R"({"schemaVersion": 1, "source": {"path": "k.cu"}, "compileOptions": {"optLevel": 99999999999}})",
        "compileOptions.optLevel: the number 99999999999 is out of range (-2147483648 to "
        "2147483647)");
    row("launch role",
        R"({"schemaVersion": 1, "source": {"path": "k.cu"}, "launch": {"arguments": [{"parameter": "a", "role": 3}]}})",
        "launch.arguments[0].role: expected one of in, out, inout, found number");
    row("launch type", R"({"schemaVersion": 1, "source": {"path": "k.cu"}, "launch": []})",
        "launch: expected an object, found array");
    row("tolerance",
        R"({"schemaVersion": 1, "source": {"path": "k.cu"}, "verification": {"tolerance": "abs", "toleranceValue": "x"}})",
        "verification.toleranceValue: expected a number, found string");
}

void TestProject::invalidFields()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    const ProjectLoad load = parseProject(text.toStdString());
    QVERIFY(!load.project);
    QCOMPARE(QString::fromStdString(load.error), error);
}

void TestProject::savesAtomically()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("p.cuwb")).toStdString();
    writeFile(QString::fromStdString(path), "old contents");
    const Project project = sampleProject();
    QCOMPARE(saveProject(project, path), std::string());
    const ProjectLoad load = loadProject(path);
    QVERIFY2(load.project, load.error.c_str());
    QVERIFY(load.project->launch == project.launch);
    // Only the project is left: no temporary file beside it.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("p.cuwb")});
    const std::string error =
        saveProject(project, dir.filePath(QStringLiteral("no/such/p.cuwb")).toStdString());
    QVERIFY2(error.starts_with("cannot write '"), error.c_str());
}

// A project opened through a symlink: Save writes the file the link points to, keeps the link
// a link, and keeps the file's own permissions (0600 stays 0600); a new file is 0644.
void TestProject::savesThroughASymlinkKeepingItsMode()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("real")));
    const QString real = dir.filePath(QStringLiteral("real/p.cuwb"));
    const QString link = dir.filePath(QStringLiteral("link.cuwb"));
    writeFile(real, "old contents");
    QVERIFY(QFile::setPermissions(real, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    QVERIFY(QFile::link(real, link));
    const Project project = sampleProject();
    QCOMPARE(saveProject(project, link.toStdString()), std::string());
    QVERIFY(QFileInfo(link).isSymLink());
    const ProjectLoad load = loadProject(real.toStdString());
    QVERIFY2(load.project, load.error.c_str());
    QVERIFY(load.project->launch == project.launch);
    struct stat info = {};
    QCOMPARE(::stat(QFile::encodeName(real).constData(), &info), 0);
    QCOMPARE(info.st_mode & 07777, mode_t(0600));
    QCOMPARE(QDir(dir.filePath(QStringLiteral("real"))).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("p.cuwb")});
    const QString fresh = dir.filePath(QStringLiteral("new.cuwb"));
    QCOMPARE(saveProject(project, fresh.toStdString()), std::string());
    QCOMPARE(::stat(QFile::encodeName(fresh).constData(), &info), 0);
    QCOMPARE(info.st_mode & 07777, mode_t(0644));
}

void TestProject::loadErrors()
{
    const ProjectLoad missing = loadProject("/nonexistent/p.cuwb");
    QCOMPARE(missing.error,
             std::string("cannot read project '/nonexistent/p.cuwb': No such file or directory"));
    QTemporaryDir dir;
    const ProjectLoad folder = loadProject(dir.path().toStdString());
    QVERIFY2(folder.error.ends_with("it is a directory, not a file"), folder.error.c_str());
}

void TestProject::resolvesPathsAgainstTheProjectFolder()
{
    Project project;
    project.sourcePath = "kernels/scale.cu";
    project.options.includeDirs = {"include", "/opt/absolute"};
    ArgumentSpec fromFile;
    fromFile.parameter = "x";
    fromFile.init.kind = InitKind::File;
    fromFile.init.file = "data/x.npy";
    ArgumentSpec scalar;
    scalar.parameter = "n";
    scalar.isBuffer = false;
    project.launch.arguments = {fromFile, scalar};
    project.verification.checks.assign(1, VerificationSpec{});
    project.verification.checks[0].kind = ReferenceKind::File;
    project.verification.checks[0].file = "../expected.bin";

    resolveProjectPaths(project, "/work/lab/p.cuwb");
    QCOMPARE(project.sourcePath, std::string("kernels/scale.cu")); // readProjectSource resolves it
    QCOMPARE(project.options.includeDirs,
             (std::vector<std::string>{"/work/lab/include", "/opt/absolute", "/work/lab/kernels"}));
    QCOMPARE(project.launch.arguments[0].init.file, std::string("/work/lab/data/x.npy"));
    QCOMPARE(project.verification.checks[0].file, std::string("/work/expected.bin"));

    // Twice is the same as once: the source folder is not added again.
    resolveProjectPaths(project, "/work/lab/p.cuwb");
    QCOMPARE(project.options.includeDirs.size(), std::size_t(3));
}

void TestProject::listsHaveLimits_data()
{
    QTest::addColumn<QString>("list");
    QTest::addColumn<int>("limit");
    QTest::addColumn<QString>("message");
    const int entries = int(kMaxProjectListEntries);
    QTest::newRow("variables") << "variables" << entries
                               << "launch.variables[1000]: 1,001 launch variables; the limit is "
                                  "1,000 a project";
    QTest::newRow("arguments") << "arguments" << entries
                               << "launch.arguments[1000]: 1,001 arguments; the limit is 1,000 a "
                                  "project";
    QTest::newRow("globals") << "globals" << entries
                             << "launch.globals[1000]: 1,001 globals; the limit is 1,000 a "
                                "project";
    QTest::newRow("launch defines") << "launchDefines" << entries
                                    << "launch.defines[1000]: 1,001 launch defines; the limit "
                                       "is 1,000 a project";
    QTest::newRow("defines") << "defines" << entries
                             << "compileOptions.defines[1000]: 1,001 defines; the limit is "
                                "1,000 a project";
    QTest::newRow("include folders") << "includeDirs" << entries
                                     << "compileOptions.includeDirs[1000]: 1,001 include "
                                        "folders; the limit is 1,000 a project";
    QTest::newRow("name expressions") << "nameExpressions" << entries
                                      << "compileOptions.nameExpressions[1000]: 1,001 name "
                                         "expressions; the limit is 1,000 a project";
    QTest::newRow("axes") << "axes" << int(kMaxSweepAxes)
                          << "sweep.axes[32]: 33 axes; the limit is 32 a sweep";
    QTest::newRow("constraints") << "constraints" << int(kMaxSweepConstraints)
                                 << "sweep.constraints[100]: 101 constraints; the limit is 100 a "
                                    "sweep";
    QTest::newRow("axis values") << "values" << int(kMaxSweepPoints)
                                 << "sweep.axes[0].values[10000]: 10,001 values; the limit is "
                                    "10,000 an axis (the points limit of a sweep)";
}

void TestProject::listsHaveLimits()
{
    QFETCH(QString, list);
    QFETCH(int, limit);
    QFETCH(QString, message);
    // A project with `count` entries in the list under test, each entry distinct.
    const auto projectWith = [&](int count) {
        Project project = sampleProject();
        LaunchSpec &launch = project.launch;
        CompileOptions &options = project.options;
        // Only the entries made here: the sample's own variable, arguments and define go.
        launch.variables.clear();
        launch.arguments.clear();
        options.defines.clear();
        if (list == QLatin1String("axes") || list == QLatin1String("constraints") ||
            list == QLatin1String("values"))
            project.sweep = SweepSpec{};
        for (int i = 0; i < count; ++i) {
            const std::string name = "v" + std::to_string(i);
            if (list == QLatin1String("variables")) {
                // Chained, as a generated project would write them.
                launch.variables.emplace_back(name,
                                              i == 0 ? "1" : "v" + std::to_string(i - 1) + " + 1");
            } else if (list == QLatin1String("arguments")) {
                ArgumentSpec argument;
                argument.parameter = name;
                launch.arguments.push_back(argument);
            } else if (list == QLatin1String("globals")) {
                GlobalSpec global;
                global.name = name;
                launch.globals.push_back(global);
            } else if (list == QLatin1String("launchDefines")) {
                launch.defines.emplace_back(name, "1");
            } else if (list == QLatin1String("defines")) {
                options.defines.push_back(name + "=1");
            } else if (list == QLatin1String("includeDirs")) {
                options.includeDirs.push_back("/include/" + name);
            } else if (list == QLatin1String("nameExpressions")) {
                options.nameExpressions.push_back("k<" + std::to_string(i) + ">");
            } else if (list == QLatin1String("axes")) {
                SweepAxis axis;
                axis.target = "-D" + name;
                axis.values = {"1"};
                project.sweep->axes.push_back(axis);
            } else if (list == QLatin1String("constraints")) {
                project.sweep->constraints.push_back("block.x > " + std::to_string(i));
            } else if (list == QLatin1String("values")) {
                if (project.sweep->axes.empty()) {
                    project.sweep->axes.emplace_back();
                    project.sweep->axes.back().target = "block.x";
                }
                project.sweep->axes.back().values.push_back(std::to_string(i + 1));
            }
        }
        return serializeProject(project);
    };
    const ProjectLoad atLimit = parseProject(projectWith(limit));
    QVERIFY2(atLimit.project.has_value(), atLimit.error.c_str());
    const ProjectLoad over = parseProject(projectWith(limit + 1));
    QVERIFY(!over.project);
    QVERIFY2(over.error.ends_with(message.toStdString()), over.error.c_str());
    // Located at the first entry past the limit.
    QVERIFY2(over.error.starts_with("line ") && over.line > 1, over.error.c_str());
}

CUWB_TEST_GUILESS_MAIN(TestProject)
} // namespace tst_project
} // namespace

#include "tst_project.moc"
