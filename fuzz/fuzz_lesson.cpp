// Fuzzes the lesson.md reader: any text gives a lesson or an error, never a crash, and a
// lesson keeps to the limits the Lesson dock relies on.
#include "fuzzinput.h"
#include "lesson/lesson.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const cuwb::LessonParse parse = cuwb::parseLesson(cuwb::fuzz::asText(data, size));
    if (!parse.lesson)
        return 0;
    const cuwb::Lesson &lesson = *parse.lesson;
    if (lesson.predictions.size() > cuwb::kMaxLessonPredictions ||
        lesson.questions.size() > cuwb::kMaxLessonQuestions ||
        lesson.inspectQuestions.size() > cuwb::kMaxLessonInspectQuestions)
        std::abort();
    for (const cuwb::InspectQuestion &question : lesson.inspectQuestions)
        (void)cuwb::checkAnswer(question, "42");
    return 0;
}
