#include "lesson/lesson.h"

#include <filesystem>
#include <string>

namespace cuwb {

namespace {

std::string_view trim(std::string_view text)
{
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

std::string trimmedBlock(const std::vector<std::string_view> &lines)
{
    std::string text;
    for (std::string_view line : lines) {
        if (line.size() && line.back() == '\r')
            line.remove_suffix(1);
        text.append(line);
        text.push_back('\n');
    }
    return std::string(trim(text));
}

std::string at(std::size_t line, const std::string &message)
{
    return "line " + std::to_string(line) + ": " + message;
}

// Predictions and questions are one line of text beside an edit box: an image there would be
// loaded by the label itself, from wherever it points.
bool hasImage(std::string_view text)
{
    return text.find("![") != std::string_view::npos ||
           text.find("<img") != std::string_view::npos ||
           text.find("<IMG") != std::string_view::npos;
}

// "  Line 35. " -> "line35": case, spaces and a final full stop do not make an answer wrong.
std::string normalisedAnswer(std::string_view text)
{
    std::string out;
    for (char c : trim(text)) {
        if (c == ' ' || c == '\t')
            continue;
        out.push_back(c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c);
    }
    while (!out.empty() && out.back() == '.')
        out.pop_back();
    return out;
}

// ## Inspect: an optional "compare A.cuwb B.cuwb" line, "- [id] question = answer | other"
// items, and text (Markdown) around them. Returns an empty string or the error with its line.
std::string parseInspectSection(const std::vector<std::string_view> &body, std::size_t heading,
                                Lesson &lesson)
{
    std::vector<std::string_view> text;
    for (std::size_t k = 0; k < body.size(); ++k) {
        const std::size_t lineNo = heading + 1 + k;
        const std::string_view line = trim(body[k]);
        if (line.substr(0, 8) == "compare ") {
            if (lesson.comparison)
                return at(lineNo, "## Inspect has one compare line");
            const std::string_view rest = trim(line.substr(8));
            const std::size_t space = rest.find(' ');
            if (space == std::string_view::npos)
                return at(lineNo, "compare names two projects: compare A.cuwb B.cuwb");
            const std::string_view a = trim(rest.substr(0, space));
            const std::string_view b = trim(rest.substr(space + 1));
            if (b.empty() || b.find(' ') != std::string_view::npos)
                return at(lineNo, "compare names two projects: compare A.cuwb B.cuwb");
            lesson.comparison = LessonComparison{std::string(a), std::string(b)};
            continue;
        }
        if (line.substr(0, 2) != "- ") {
            text.push_back(body[k]);
            continue;
        }
        const std::string_view item = trim(line.substr(2));
        const std::size_t close = item.find(']');
        if (item.empty() || item.front() != '[' || close == std::string_view::npos)
            return at(lineNo, "an Inspect question needs an id: - [id] question = answer");
        const std::string_view id = trim(item.substr(1, close - 1));
        const std::string_view rest = item.substr(close + 1);
        const std::size_t equals = rest.rfind(" = ");
        if (id.empty() || id.find(' ') != std::string_view::npos)
            return at(lineNo, "an Inspect question's id is one word in brackets");
        if (equals == std::string_view::npos)
            return at(lineNo, "the Inspect question [" + std::string(id) +
                                  "] has no answer: - [id] question = answer");
        InspectQuestion question;
        question.id = std::string(id);
        question.question = std::string(trim(rest.substr(0, equals)));
        std::string_view answers = rest.substr(equals + 3);
        for (std::size_t bar; !answers.empty();) {
            bar = answers.find('|');
            const std::string_view one = trim(answers.substr(0, bar));
            if (!one.empty())
                question.answers.emplace_back(one);
            if (bar == std::string_view::npos)
                break;
            answers.remove_prefix(bar + 1);
        }
        if (question.question.empty() || question.answers.empty())
            return at(lineNo,
                      "the Inspect question [" + question.id + "] needs a question and an answer");
        if (hasImage(question.question))
            return at(lineNo, "an Inspect question has no images (they belong in the text)");
        if (lesson.inspectQuestions.size() == kMaxLessonInspectQuestions)
            return at(lineNo, "a lesson may ask at most " +
                                  std::to_string(kMaxLessonInspectQuestions) +
                                  " Inspect questions");
        for (const InspectQuestion &other : lesson.inspectQuestions)
            if (other.id == question.id)
                return at(lineNo, "the Inspect question id [" + question.id + "] is used twice");
        lesson.inspectQuestions.push_back(std::move(question));
    }
    lesson.inspectText = trimmedBlock(text);
    if (hasImage(lesson.inspectText))
        return at(heading, "the Inspect text has no images (they belong in the lesson's text)");
    if (!lesson.comparison && lesson.inspectQuestions.empty())
        return at(heading, "## Inspect needs a compare line or a question");
    return {};
}

} // namespace

bool checkAnswer(const InspectQuestion &question, std::string_view given)
{
    const std::string answer = normalisedAnswer(given);
    if (answer.empty())
        return false;
    for (const std::string &accepted : question.answers) {
        if (normalisedAnswer(accepted) == answer)
            return true;
    }
    return false;
}

const char *lessonExperimentName(LessonExperiment experiment)
{
    switch (experiment) {
    case LessonExperiment::Sweep:
        return "sweep";
    case LessonExperiment::Measure:
        return "measure";
    case LessonExperiment::Run:
        return "run";
    }
    return "sweep";
}

namespace {

// The lesson's lines, each checked for its length, the whole for its size.
std::string readLines(std::string_view markdown, std::vector<std::string_view> &lines)
{
    if (markdown.size() > kMaxLessonBytes)
        return at(1, "the lesson is " + std::to_string(markdown.size()) +
                         " bytes; a lesson.md may have at most " + std::to_string(kMaxLessonBytes) +
                         " bytes");

    for (std::size_t start = 0; start <= markdown.size();) {
        const std::size_t end = markdown.find('\n', start);
        if (end == std::string_view::npos) {
            if (start < markdown.size())
                lines.push_back(markdown.substr(start));
            break;
        }
        lines.push_back(markdown.substr(start, end - start));
        start = end + 1;
    }
    for (std::size_t k = 0; k < lines.size(); ++k)
        if (lines[k].size() > kMaxLessonLineChars)
            return at(k + 1, "the line has " + std::to_string(lines[k].size()) +
                                 " characters; a lesson's lines may have at most " +
                                 std::to_string(kMaxLessonLineChars));
    return {};
}

// The title, then each section's lines (0: the intro) and the line of its heading, in the
// order a lesson has them; `section` the number of headings met.
std::string readOutline(const std::vector<std::string_view> &lines, Lesson &lesson,
                        std::vector<std::string_view> (&body)[6], std::size_t (&headingLine)[6],
                        int &section)
{
    std::size_t i = 0;
    while (i < lines.size() && trim(lines[i]).empty())
        ++i;
    if (i == lines.size())
        return at(1, "a lesson starts with its title: # title");
    {
        const std::string_view first = trim(lines[i]);
        if (first.size() < 2 || first.substr(0, 2) != "# ")
            return at(i + 1, "a lesson starts with its title: # title");
        lesson.title = std::string(trim(first.substr(2)));
        if (lesson.title.empty())
            return at(i + 1, "the title is empty");
        ++i;
    }

    // The sections, in order; each collects its lines until the next "## ".
    // ## Inspect, the fifth, is optional.
    static const char *const kSections[] = {"Try", "Predict", "Experiment", "Questions", "Inspect"};
    for (; i < lines.size(); ++i) {
        const std::string_view line = trim(lines[i]);
        if (line.substr(0, 3) == "## " || line == "##") {
            const std::string_view name = trim(line.substr(2));
            if (section == 5)
                return at(i + 1, "unexpected section `" + std::string(name) + "` after ## Inspect");
            if (section == 4 && name != "Inspect")
                return at(i + 1, "unexpected section `" + std::string(name) +
                                     "` after ## Questions (only ## Inspect may follow)");
            const std::string expected = kSections[section];
            if (name != expected)
                return at(i + 1, "expected ## " + expected + ", found ## " + std::string(name));
            ++section;
            headingLine[section] = i + 1;
            continue;
        }
        if (line.substr(0, 2) == "# ")
            return at(i + 1, "a lesson has one title; sections start with ##");
        body[section].push_back(lines[i]);
    }
    if (section < 4)
        return at(lines.size(),
                  std::string("the lesson has no ## ") + kSections[section] + " section");
    return {};
}

std::string readPredictions(const std::vector<std::string_view> &body, std::size_t headingLine,
                            Lesson &lesson)
{
    // ## Predict: "- [id] question" lines.
    for (std::size_t k = 0; k < body.size(); ++k) {
        const std::size_t lineNo = headingLine + 1 + k;
        const std::string_view line = trim(body[k]);
        if (line.empty())
            continue;
        if (line.substr(0, 2) != "- ")
            return at(lineNo, "a prediction is a list item: - [id] question");
        const std::string_view item = trim(line.substr(2));
        const std::size_t close = item.find(']');
        if (item.empty() || item.front() != '[' || close == std::string_view::npos)
            return at(lineNo, "a prediction needs an id in brackets: - [id] question");
        const std::string_view id = trim(item.substr(1, close - 1));
        const std::string_view question = trim(item.substr(close + 1));
        if (id.empty())
            return at(lineNo, "a prediction needs an id in brackets: - [id] question");
        if (id.find(' ') != std::string_view::npos)
            return at(lineNo, "a prediction's id is one word: [" + std::string(id) + "]");
        if (question.empty())
            return at(lineNo, "the prediction [" + std::string(id) + "] has no question");
        if (hasImage(question))
            return at(lineNo, "a prediction's question has no images (they belong in the "
                              "lesson's text)");
        if (lesson.predictions.size() == kMaxLessonPredictions)
            return at(lineNo, "a lesson may ask for at most " +
                                  std::to_string(kMaxLessonPredictions) + " predictions");
        for (const Prediction &other : lesson.predictions)
            if (other.id == id)
                return at(lineNo, "the prediction id [" + std::string(id) + "] is used twice");
        lesson.predictions.push_back({std::string(id), std::string(question)});
    }
    if (lesson.predictions.empty())
        return at(headingLine, "## Predict has no predictions: - [id] question");
    return {};
}

std::string readExperiment(const std::vector<std::string_view> &body, std::size_t headingLine,
                           Lesson &lesson)
{
    // ## Experiment: one word.
    std::optional<std::size_t> experimentLine;
    for (std::size_t k = 0; k < body.size(); ++k) {
        const std::size_t lineNo = headingLine + 1 + k;
        const std::string_view word = trim(body[k]);
        if (word.empty())
            continue;
        if (experimentLine)
            return at(lineNo, "## Experiment is one word: sweep, measure or run");
        if (word == "sweep")
            lesson.experiment = LessonExperiment::Sweep;
        else if (word == "measure")
            lesson.experiment = LessonExperiment::Measure;
        else if (word == "run")
            lesson.experiment = LessonExperiment::Run;
        else
            return at(lineNo,
                      "unknown experiment `" + std::string(word) + "`: sweep, measure or run");
        experimentLine = lineNo;
    }
    if (!experimentLine)
        return at(headingLine, "## Experiment is empty: sweep, measure or run");
    return {};
}

std::string readQuestions(const std::vector<std::string_view> &body, std::size_t headingLine,
                          Lesson &lesson)
{
    // ## Questions: "- question" lines; a line that is not an item continues the one above.
    for (std::size_t k = 0; k < body.size(); ++k) {
        const std::size_t lineNo = headingLine + 1 + k;
        const std::string_view line = trim(body[k]);
        if (line.empty())
            continue;
        if (line.substr(0, 2) == "- ") {
            const std::string_view question = trim(line.substr(2));
            if (question.empty())
                return at(lineNo, "the question is empty");
            if (lesson.questions.size() == kMaxLessonQuestions)
                return at(lineNo, "a lesson may ask at most " +
                                      std::to_string(kMaxLessonQuestions) + " questions");
            lesson.questions.emplace_back(question);
        } else if (!lesson.questions.empty()) {
            lesson.questions.back() += ' ';
            lesson.questions.back() += line;
        } else {
            return at(lineNo, "a question is a list item: - question");
        }
    }
    if (lesson.questions.empty())
        return at(headingLine, "## Questions has no questions: - question");
    return {};
}

} // namespace

LessonParse parseLesson(std::string_view markdown)
{
    LessonParse parse;
    const auto fail = [&parse](std::size_t line, const std::string &message) {
        parse.lesson.reset();
        parse.error = at(line, message);
        return parse;
    };
    // Each step's error names its line.
    const auto failed = [&parse](std::string error) {
        parse.lesson.reset();
        parse.error = std::move(error);
        return !parse.error.empty();
    };
    std::vector<std::string_view> lines;
    if (failed(readLines(markdown, lines)))
        return parse;
    Lesson lesson;
    std::vector<std::string_view> body[6]; // 0: intro
    std::size_t headingLine[6] = {0, 0, 0, 0, 0, 0};
    int section = 0;
    if (failed(readOutline(lines, lesson, body, headingLine, section)))
        return parse;
    lesson.intro = trimmedBlock(body[0]);
    lesson.tryText = trimmedBlock(body[1]);
    if (lesson.tryText.empty())
        return fail(headingLine[1], "## Try is empty: say what to try");

    if (failed(readPredictions(body[2], headingLine[2], lesson)) ||
        failed(readExperiment(body[3], headingLine[3], lesson)) ||
        failed(readQuestions(body[4], headingLine[4], lesson)))
        return parse;
    if (section == 5) {
        const std::string error = parseInspectSection(body[5], headingLine[5], lesson);
        if (!error.empty()) {
            parse.error = error; // it names its line
            return parse;
        }
    }

    parse.lesson = std::move(lesson);
    return parse;
}

std::optional<std::string> lessonPathFor(const std::string &projectPath)
{
    if (projectPath.empty())
        return std::nullopt;
    std::error_code error;
    const std::filesystem::path path =
        std::filesystem::path(projectPath).parent_path() / "lesson.md";
    if (std::filesystem::is_regular_file(path, error))
        return path.string();
    return std::nullopt;
}

} // namespace cuwb
