#include "grading/confinement.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace cuwb {

namespace {

namespace fs = std::filesystem;

// Deeper than any real project's headers; a cycle of includes stops here too.
constexpr int kMaxIncludeDepth = 16;

const char *const kOnlyInside = "; a graded project may read only inside its own folder";

bool isInside(const fs::path &path, const fs::path &folder)
{
    const fs::path relative = path.lexically_relative(folder);
    return !relative.empty() && *relative.begin() != "..";
}

// Why `named` (written in the project or an #include, relative to `base`) leaves `folder`, or
// empty. `what` says where it was named ("the source", "buffer a's init file").
std::string checkPath(const std::string &named, const fs::path &base, const fs::path &folder,
                      const std::string &what)
{
    if (named.empty()) {
        return {};
    }
    const fs::path path(named);
    if (path.is_absolute()) {
        return what + " names an absolute path '" + named + "'" + kOnlyInside;
    }
    for (const fs::path &part : path) {
        if (part == "..") {
            return what + " goes up out of its folder with '..' in '" + named + "'" + kOnlyInside;
        }
    }
    // Symlinks: where the path really leads (as far as it exists) must still be inside.
    std::error_code code;
    const fs::path real = fs::weakly_canonical(base / path, code);
    if (code || !isInside(real, folder)) {
        return what + " '" + named + "' is a symlink that leads out of its folder (to " +
               (code ? std::string("somewhere unreadable") : real.string()) + ")" + kOnlyInside;
    }
    return {};
}

std::string readText(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The #include lines of `source` (named relative to `base`), and those of every quoted include
// inside the folder, checked; the first problem.
std::string checkIncludes(const std::string &source, const fs::path &base, const fs::path &folder,
                          const std::vector<fs::path> &searchPath, const std::string &file,
                          int depth, std::set<fs::path> &seen)
{
    std::istringstream lines(source);
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
        std::size_t at = line.find_first_not_of(" \t");
        if (at == std::string::npos || line[at] != '#') {
            continue;
        }
        at = line.find_first_not_of(" \t", at + 1);
        if (at == std::string::npos || line.compare(at, 7, "include") != 0) {
            continue;
        }
        at = line.find_first_not_of(" \t", at + 7);
        const std::string where = file + " line " + std::to_string(number);
        const char open = at == std::string::npos ? '\0' : line[at];
        const char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
        const std::size_t end = close ? line.find(close, at + 1) : std::string::npos;
        if (end == std::string::npos) {
            return where +
                   ": an #include whose name is not written out (a macro?) cannot be "
                   "checked" +
                   kOnlyInside;
        }
        const std::string named = line.substr(at + 1, end - at - 1);
        // The compiler looks beside the including file, then in the include folders (the
        // project's, which are inside, and the source's own): each place that has the file
        // must not lead out. A name found nowhere is the toolkit's (<cuda_fp16.h>).
        std::vector<fs::path> places{base};
        places.insert(places.end(), searchPath.begin(), searchPath.end());
        for (const fs::path &place : places) {
            if (std::string problem = checkPath(named, place, folder, where + ": #include");
                !problem.empty()) {
                return problem;
            }
            const fs::path target = place / named;
            std::error_code code;
            if (!fs::is_regular_file(target, code) || depth >= kMaxIncludeDepth) {
                continue;
            }
            const fs::path real = fs::weakly_canonical(target, code);
            if (!seen.insert(real).second) {
                continue;
            }
            if (std::string problem = checkIncludes(readText(real), real.parent_path(), folder,
                                                    searchPath, named, depth + 1, seen);
                !problem.empty()) {
                return problem;
            }
        }
    }
    return {};
}

} // namespace

std::string checkProjectFileConfinement(const std::string &projectPath)
{
    std::error_code code;
    const fs::path file = fs::absolute(projectPath, code).lexically_normal();
    const fs::path folder = fs::weakly_canonical(file.parent_path(), code);
    if (code) {
        return "cannot read the project's folder: " + code.message();
    }
    const fs::path realFile = fs::weakly_canonical(file, code);
    if (code || !isInside(realFile, folder)) {
        return "the project file is a symlink that leads out of its folder (to " +
               realFile.string() + ")" + kOnlyInside;
    }
    return {};
}

std::string checkProjectConfinement(const Project &project, const std::string &projectPath,
                                    const std::string &source)
{
    if (std::string problem = checkProjectFileConfinement(projectPath); !problem.empty()) {
        return problem;
    }
    std::error_code code;
    const fs::path file = fs::absolute(projectPath, code).lexically_normal();
    const fs::path folder = fs::weakly_canonical(file.parent_path(), code);
    const auto check = [&](const std::string &named, const std::string &what) {
        return checkPath(named, folder, folder, what);
    };
    if (std::string problem = check(project.sourcePath, "the source"); !problem.empty()) {
        return problem;
    }
    for (const std::string &dir : project.options.includeDirs) {
        if (std::string problem = check(dir, "the include folder"); !problem.empty()) {
            return problem;
        }
    }
    for (const ArgumentSpec &argument : project.launch.arguments) {
        if (argument.isBuffer && argument.init.kind == InitKind::File) {
            if (std::string problem =
                    check(argument.init.file, "buffer " + argument.parameter + "'s init file");
                !problem.empty()) {
                return problem;
            }
        }
    }
    for (const GlobalSpec &global : project.launch.globals) {
        if (global.init.kind == InitKind::File) {
            if (std::string problem =
                    check(global.init.file, "global " + global.name + "'s init file");
                !problem.empty()) {
                return problem;
            }
        }
    }
    for (const KernelStep &step : project.launch.then) {
        for (const ArgumentSpec &argument : step.arguments) {
            if (argument.isBuffer && argument.buffer.empty() &&
                argument.init.kind == InitKind::File) {
                if (std::string problem =
                        check(argument.init.file, "buffer " + argument.parameter + "'s init file");
                    !problem.empty()) {
                    return problem;
                }
            }
        }
    }
    for (const VerificationSpec &reference : project.verification.checks) {
        if (reference.kind == ReferenceKind::File) {
            if (std::string problem = check(reference.file, "the reference file");
                !problem.empty()) {
                return problem;
            }
        }
    }
    const fs::path sourceBase =
        project.sourcePath.empty()
            ? folder
            : fs::weakly_canonical(folder / project.sourcePath, code).parent_path();
    const std::string sourceName =
        project.sourcePath.empty() ? std::string("the inline source") : project.sourcePath;
    std::vector<fs::path> searchPath;
    for (const std::string &dir : project.options.includeDirs) {
        searchPath.push_back(folder / dir);
    }
    std::set<fs::path> seen;
    return checkIncludes(source, sourceBase, folder, searchPath, sourceName, 0, seen);
}

} // namespace cuwb
