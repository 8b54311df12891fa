// The small text helpers (core/util/text.h): user text quoted in a message is elided above its
// limit with its length, never cut inside a UTF-8 character.
#include "util/text.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_text {

class TestText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shortTextIsWhole()
    {
        QCOMPARE(elided("N * 4"), std::string("N * 4"));
        const std::string eighty(80, 'x');
        QCOMPARE(elided(eighty), eighty);
    }

    void longTextIsElidedWithItsLength()
    {
        const std::string value(200000, 'x');
        const std::string shown = elided(value);
        QCOMPARE(shown, std::string(80, 'x') + "\u2026 (200000 characters)");
        QCOMPARE(elided(value, 10), std::string(10, 'x') + "\u2026 (200000 characters)");
    }

    void neverCutsACharacter()
    {
        // "é" is two bytes: a cut at byte 5 would split the third one.
        const std::string text = "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9";
        const std::string shown = elided(text, 5);
        QCOMPARE(shown, std::string("\u00e9\u00e9") + "\u2026 (6 characters)");
    }
};

CUWB_TEST_GUILESS_MAIN(TestText)
} // namespace tst_text
} // namespace

#include "tst_text.moc"
