// Expressions: values, the C operators muparser lacks, variables with dots, and errors with
// their positions.
#include "compilertesthelpers.h"

#include "launch/expression.h"

#include <QtTest>

#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_expression {

class TestExpression : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void values_data();
    void values();
    void errors_data();
    void errors();
    void lengthHasALimit();
    void variablesInOrder();
    void variableErrorNamesTheVariable();
    void onlyTheNamedVariablesCount();
    void longChainOfVariables();
    void evaluationsDoNotLeakIntoEachOther();
};

void TestExpression::values_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<double>("expected");
    QTest::newRow("literal") << QStringLiteral("42") << 42.0;
    QTest::newRow("shift") << QStringLiteral("1 << 24") << 16777216.0;
    QTest::newRow("shift 40") << QStringLiteral("1 << 40") << 1099511627776.0;
    QTest::newRow("shift below add") << QStringLiteral("1 << 20 + 1") << 2097152.0;
    QTest::newRow("right shift") << QStringLiteral("1000 >> 3") << 125.0;
    QTest::newRow("modulo") << QStringLiteral("17 % 5") << 2.0;
    QTest::newRow("modulo precedence") << QStringLiteral("1 + 17 % 5 * 2") << 5.0;
    QTest::newRow("hex") << QStringLiteral("0x100 + 0XfF") << 511.0;
    QTest::newRow("ceil") << QStringLiteral("ceil(1000 / 256)") << 4.0;
    QTest::newRow("floor") << QStringLiteral("floor(7 / 2)") << 3.0;
    QTest::newRow("min max") << QStringLiteral("min(3, max(1, 2), 7)") << 2.0;
    QTest::newRow("abs") << QStringLiteral("abs(-5)") << 5.0;
    QTest::newRow("dotted variable") << QStringLiteral("ceil(N / block.x)") << 4096.0;
    QTest::newRow("exponent") << QStringLiteral("5e9") << 5e9;
    QTest::newRow("power") << QStringLiteral("2^10") << 1024.0;
    // The logical operators, C's and Python's (Kernel Tuner's restrictions).
    QTest::newRow("and") << QStringLiteral("N > 1 && block.x == 256") << 1.0;
    QTest::newRow("and false") << QStringLiteral("N > 1 && block.x == 128") << 0.0;
    QTest::newRow("or") << QStringLiteral("N < 1 || block.x == 256") << 1.0;
    QTest::newRow("not") << QStringLiteral("!(block.x == 256)") << 0.0;
    QTest::newRow("not below comparison") << QStringLiteral("!block.x == 0") << 1.0;
    QTest::newRow("not equal still") << QStringLiteral("block.x != 256") << 0.0;
    QTest::newRow("python and") << QStringLiteral("N > 1 and block.x == 256") << 1.0;
    QTest::newRow("python or") << QStringLiteral("N < 1 or block.x == 128") << 0.0;
    // Python's `not` takes the comparison after it; C's `!` only its operand.
    QTest::newRow("python not") << QStringLiteral("not block.x == 128") << 1.0;
    QTest::newRow("c not") << QStringLiteral("!block.x == 128") << 0.0;
    QTest::newRow("python not before and") << QStringLiteral("not N < 1 and block.x == 256") << 1.0;
    QTest::newRow("python not in parentheses") << QStringLiteral("(not N) + 2") << 2.0;
    QTest::newRow("python not not") << QStringLiteral("not not N") << 1.0;
    QTest::newRow("python not before choice") << QStringLiteral("not N ? 5 : 6") << 6.0;
    QTest::newRow("python mixed") << QStringLiteral(
                                         "block.x >= 32 and not (block.x % 64) or N == 0")
                                  << 1.0;
    QTest::newRow("python power") << QStringLiteral("2 ** 10") << 1024.0;
    QTest::newRow("python power right to left") << QStringLiteral("2 ** 3 ** 2") << 512.0;
    QTest::newRow("python floor division") << QStringLiteral("7 // 2") << 3.0;
    QTest::newRow("python floor division negative") << QStringLiteral("-7 // 2") << -4.0;
    QTest::newRow("ternary") << QStringLiteral("N > 1 ? 3 : 4") << 3.0;
    // Found by fuzz/fuzz_expression under UBSan: a shift count beyond int's range was converted
    // to int (undefined behaviour).
    QTest::newRow("right shift past int") << QStringLiteral("3 >> 1e42") << 0.0;
    QTest::newRow("left shift by minus past int") << QStringLiteral("3 << -1e42") << 0.0;
    QTest::newRow("right shift by 5000") << QStringLiteral("2^1000 >> 5000") << 0.0;
}

void TestExpression::values()
{
    QFETCH(QString, expression);
    QFETCH(double, expected);
    const Variables variables{{"N", 1 << 20}, {"block.x", 256}};
    const ExpressionValue value = evaluateExpression(expression.toStdString(), variables);
    QVERIFY2(value.ok(), value.error ? value.error->message.c_str() : "");
    QCOMPARE(value.value, expected);
}

void TestExpression::errors_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("position");
    QTest::newRow("unknown variable")
        << QStringLiteral("N + M") << QStringLiteral("unknown variable 'M'") << 4;
    QTest::newRow("unknown dotted")
        << QStringLiteral("grid.w * 2") << QStringLiteral("unknown variable 'grid.w'") << 0;
    QTest::newRow("position after and")
        << QStringLiteral("N and M") << QStringLiteral("unknown variable 'M'") << 6;
    QTest::newRow("position after not")
        << QStringLiteral("not not_a_name") << QStringLiteral("unknown variable 'not_a_name'") << 4;
    QTest::newRow("position after two nots")
        << QStringLiteral("not not M > 1") << QStringLiteral("unknown variable 'M'") << 8;
    QTest::newRow("and as part of a name")
        << QStringLiteral("band + 1") << QStringLiteral("unknown variable 'band'") << 0;
    QTest::newRow("ends early") << QStringLiteral("1 +")
                                << QStringLiteral("the expression ends too early") << 3;
    QTest::newRow("unclosed") << QStringLiteral("(1 + 2")
                              << QStringLiteral("a parenthesis is not closed") << 6;
    QTest::newRow("empty") << QStringLiteral("  ") << QStringLiteral("the expression is empty")
                           << 0;
    QTest::newRow("division by zero")
        << QStringLiteral("1 / 0") << QStringLiteral("the result is infinite (division by zero?)")
        << -1;
    QTest::newRow("left shift past int")
        << QStringLiteral("1 << 1e42")
        << QStringLiteral("the result is infinite (division by zero?)") << -1;
    QTest::newRow("bad operator") << QStringLiteral("2 * * 3") << QStringLiteral("unexpected '*'")
                                  << 4;
}

void TestExpression::errors()
{
    QFETCH(QString, expression);
    QFETCH(QString, message);
    QFETCH(int, position);
    const ExpressionValue value = evaluateExpression(expression.toStdString(), {{"N", 10}});
    QVERIFY(!value.ok());
    QCOMPARE(QString::fromStdString(value.error->message), message);
    QCOMPARE(value.error->position, position);
}

void TestExpression::variablesInOrder()
{
    const VariablesResult result =
        evaluateVariables({{"N", "1 << 10"}, {"M", "N * 2"}, {"bytes", "M * 4"}});
    QVERIFY(!result.error);
    QCOMPARE(result.values.at("N"), 1024.0);
    QCOMPARE(result.values.at("M"), 2048.0);
    QCOMPARE(result.values.at("bytes"), 8192.0);
}

void TestExpression::variableErrorNamesTheVariable()
{
    // A later variable may not be used before it is defined.
    const VariablesResult result = evaluateVariables({{"M", "N * 2"}, {"N", "4"}});
    QVERIFY(result.error);
    QCOMPARE(result.failedName, std::string("M"));
    QCOMPARE(result.error->message, std::string("unknown variable 'N'"));
    QCOMPARE(result.error->position, 0);
    const VariablesResult badName = evaluateVariables({{"2x", "1"}});
    QVERIFY(badName.error);
    QCOMPARE(badName.failedName, std::string("2x"));
}

void TestExpression::onlyTheNamedVariablesCount()
{
    // Names are whole runs of name characters: N is not Nx's prefix, and 0x1F is a number even
    // with a variable x1F defined. A variable named like a function is harmless unless used.
    const Variables variables{{"N", 3}, {"Nx", 5}, {"x1F", 100}, {"ceil", 9}, {"block.x", 2}};
    const auto value = [&](const char *expression) {
        const ExpressionValue v = evaluateExpression(expression, variables);
        return v.ok() ? v.value : -1.0;
    };
    QCOMPARE(value("Nx - N"), 2.0);
    QCOMPARE(value("0x1F + N"), 34.0);
    QCOMPARE(value("block.x*N"), 6.0);
    QCOMPARE(value("N+N+N"), 9.0);
    const ExpressionValue unknown = evaluateExpression("block.y + N", variables);
    QVERIFY(!unknown.ok());
    QCOMPARE(unknown.error->unknownName, std::string("block.y"));
}

void TestExpression::longChainOfVariables()
{
    // Each expression defines only what it names, so a chain's cost grows with its length.
    std::vector<std::pair<std::string, std::string>> chain{{"v0", "1"}};
    for (int k = 1; k < 10000; ++k)
        chain.emplace_back("v" + std::to_string(k), "v" + std::to_string(k - 1) + " + 1");
    const VariablesResult result = evaluateVariables(chain);
    QVERIFY(!result.error);
    QCOMPARE(result.values.at("v9999"), 10000.0);
}

void TestExpression::evaluationsDoNotLeakIntoEachOther()
{
    // The parser is reused on a thread: a variable of one evaluation is unknown to the next,
    // also after an evaluation that failed.
    QVERIFY(evaluateExpression("M * 2", {{"M", 4}}).ok());
    QVERIFY(!evaluateExpression("M +", {{"M", 4}}).ok());
    const ExpressionValue later = evaluateExpression("M * 2", {});
    QVERIFY(!later.ok());
    QCOMPARE(later.error->message, std::string("unknown variable 'M'"));
    // And a thread of its own gets a parser of its own.
    double fromThread = 0.0;
    std::thread([&] { fromThread = evaluateExpression("K + 1", {{"K", 41}}).value; }).join();
    QCOMPARE(fromThread, 42.0);
}

void TestExpression::lengthHasALimit()
{
    // "1+1+...+1" of exactly 10,000 characters is evaluated; one more character is refused
    // with the limit named, before muparser sees it.
    std::string sum = "1";
    while (sum.size() + 2 <= 10000)
        sum += "+1";
    sum += std::string(10000 - sum.size(), ' ');
    QCOMPARE(sum.size(), std::size_t(10000));
    const ExpressionValue atLimit = evaluateExpression(sum, {});
    QVERIFY2(atLimit.ok(), atLimit.error ? atLimit.error->message.c_str() : "");
    QCOMPARE(atLimit.value, 5000.0);
    const ExpressionValue over = evaluateExpression(sum + " ", {});
    QVERIFY(!over.ok());
    QCOMPARE(over.error->message,
             std::string("the expression has 10,001 characters; the limit is 10,000"));
}

CUWB_TEST_GUILESS_MAIN(TestExpression)
} // namespace tst_expression
} // namespace

#include "tst_expression.moc"
