// A lesson: the lesson.md beside a sample project. It says what to try, asks for predictions
// before the experiment runs, names the experiment (a sweep, a measurement or a run) and asks
// the questions that make the point. The format, every section required and in this order:
//
//   # <title>
//   <paragraphs>                     (the intro, Markdown)
//   ## Try
//   <text>                           (Markdown)
//   ## Predict
//   - [best-block] <question>        (one or more; the id names what is compared)
//   ## Experiment
//   sweep                            (one word: sweep, measure or run)
//   ## Questions
//   - <question>                     (one or more)
//   ## Inspect                       (optional)
//   compare <A.cuwb> <B.cuwb>        (optional: two projects beside lesson.md to compare)
//   <text>                           (Markdown)
//   - [id] <question> = <answer> | <another accepted answer>
//                                    (answered by what Inspect or Compare shows)
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

struct Prediction
{
    std::string id;       // "best-block", "speedup"
    std::string question; // "Which block size gives the highest bandwidth?"
};

enum class LessonExperiment { Sweep, Measure, Run };
const char *lessonExperimentName(LessonExperiment experiment); // "sweep", "measure", "run"

// A question that Inspect or the Compare view answers, with the answers it accepts.
struct InspectQuestion
{
    std::string id;
    std::string question;
    std::vector<std::string> answers;
};

// Whether `given` is one of the question's answers; case, spaces and a final full stop aside.
bool checkAnswer(const InspectQuestion &question, std::string_view given);

// Two projects of the lesson's folder, to open side by side in the Compare view.
struct LessonComparison
{
    std::string a; // "transpose.cuwb", relative to lesson.md
    std::string b;
};

struct Lesson
{
    std::string title;
    std::string intro;   // Markdown
    std::string tryText; // Markdown
    std::vector<Prediction> predictions;
    LessonExperiment experiment = LessonExperiment::Sweep;
    std::vector<std::string> questions;
    // ## Inspect, when present.
    std::optional<LessonComparison> comparison;
    std::string inspectText; // Markdown
    std::vector<InspectQuestion> inspectQuestions;
};

// A lesson's limits, checked before anything is shown (a lesson is a page of text, and one
// that is not must not freeze or stretch the window).
inline constexpr std::size_t kMaxLessonBytes = 1u << 20; // lesson.md
inline constexpr std::size_t kMaxLessonLineChars = 2000;
inline constexpr std::size_t kMaxLessonPredictions = 20;
inline constexpr std::size_t kMaxLessonQuestions = 50;
inline constexpr std::size_t kMaxLessonInspectQuestions = 20;

struct LessonParse
{
    std::optional<Lesson> lesson;
    std::string error; // "line 12: a prediction needs an id in brackets: - [id] question"
    [[nodiscard]] bool ok() const { return lesson.has_value(); }
};

LessonParse parseLesson(std::string_view markdown);

// The lesson.md beside `projectPath` when there is one.
std::optional<std::string> lessonPathFor(const std::string &projectPath);

} // namespace cuwb
