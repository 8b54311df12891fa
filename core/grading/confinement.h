// Confinement of a graded project: a student's project is untrusted input, so before it is
// compiled or run every file it names must lie inside its own folder (the folder of its
// .cuwb file): the source, the include folders, the buffers' and globals' init files, the
// verification's reference file, and every file the source #includes by a literal name
// (followed through quoted includes inside the folder). Refused: an absolute path, a path with
// "..", a symlink (anywhere on the way) that leads out of the folder, an #include whose name
// is a macro, and a project file that is itself a symlink out of its folder. Angle-bracket
// includes of plain names (<cuda_fp16.h>) are allowed: they come from the toolkit. This
// checks what the project names, an early and friendly message; the kernel enforces it on the
// reader and the compiles (docs/grading.md says what is and is not isolated). Qt-free, no GPU.
#pragma once

#include "project/project.h"

#include <string>

namespace cuwb {

// Empty when the project file at `projectPath` lies inside its folder (it is no symlink that
// leads out); otherwise the reason. Checked before the file is read: a parse error would quote
// the outside file's text into the grading report.
std::string checkProjectFileConfinement(const std::string &projectPath);

// Empty when the project at `projectPath`, as loaded (its paths not yet resolved), reads only
// inside its folder; otherwise the reason, naming the field and the path: "the source names an
// absolute path '/etc/passwd'; a graded project may read only inside its own folder".
// `source` is the project's source text (inline, or read from its source file).
std::string checkProjectConfinement(const Project &project, const std::string &projectPath,
                                    const std::string &source);

} // namespace cuwb
