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
#pragma once

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

struct Lesson
{
    std::string title;
    std::string intro;   // Markdown
    std::string tryText; // Markdown
    std::vector<Prediction> predictions;
    LessonExperiment experiment = LessonExperiment::Sweep;
    std::vector<std::string> questions;
};

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
