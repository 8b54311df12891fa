// The verification editor: an aggregate check (sum, min or max of the output against an input
// or a value) and the count of elements that matter, shown from and written to the spec;
// several checks added, chosen and removed; allclose's atol and rtol.
#include "gui/launch/verificationwidget.h"

#include "launch/launchjson.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_verificationwidget {

class TestVerificationWidget : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsAnAggregateCheck()
    {
        VerificationWidget widget;
        widget.setChoices({QStringLiteral("in"), QStringLiteral("partial")}, {});
        // Through a JSON document, as a project file gives it (direct assignments of short
        // literals here trip GCC 12's -Wmaybe-uninitialized, a known false positive).
        const VerificationSpec spec = nlohmann::json::parse(R"({"kind": "aggregate",
            "output": "partial", "reduce": "max", "of": "in", "count": "grid.x"})")
                                          .get<VerificationSpec>();
        widget.setSpec(spec);
        QCOMPARE(widget.referenceKindCombo()->currentText(), QStringLiteral("Sum, min or max"));
        QCOMPARE(widget.countEdit()->text(), QStringLiteral("grid.x"));
        QCOMPARE(widget.againstCombo()->currentText(), QStringLiteral("in"));
        QCOMPARE(widget.spec(), spec);
    }

    void editsBecomeTheSpec()
    {
        VerificationWidget widget;
        widget.setChoices({QStringLiteral("in"), QStringLiteral("partial")}, {});
        QSignalSpy edited(&widget, &VerificationWidget::specEdited);
        widget.referenceKindCombo()->setCurrentIndex(int(ReferenceKind::Aggregate));
        QCOMPARE(widget.spec().kind, ReferenceKind::Aggregate);
        QCOMPARE(widget.spec().reduce, Reduction::Sum);
        QVERIFY(widget.spec().of.empty()); // "a value" until an input is chosen

        QComboBox *against = widget.againstCombo();
        against->setCurrentIndex(against->findText(QStringLiteral("in")));
        QCOMPARE(widget.spec().of, std::string("in"));
        QVERIFY(widget.spec().expected.empty());
        QVERIFY(edited.size() >= 2);
        widget.countEdit()->setText(QStringLiteral("grid.x"));
        Q_EMIT widget.countEdit()->textEdited(QStringLiteral("grid.x"));
        QCOMPARE(widget.spec().count, std::string("grid.x"));

        QVERIFY(!widget.maskEdit()->isEnabled()); // a reduction sums, it does not select

        // An element-wise kind drops the reduction, so the check stays element-wise, and
        // takes a mask.
        widget.referenceKindCombo()->setCurrentIndex(int(ReferenceKind::Expression));
        QCOMPARE(widget.spec().kind, ReferenceKind::Expression);
        QCOMPARE(widget.spec().reduce, Reduction::None);
        QCOMPARE(widget.spec().count, std::string("grid.x"));
        QVERIFY(widget.maskEdit()->isEnabled());
        widget.maskEdit()->setText(QStringLiteral("i % 32 == 0"));
        Q_EMIT widget.maskEdit()->textEdited(QStringLiteral("i % 32 == 0"));
        QCOMPARE(widget.spec().mask, std::string("i % 32 == 0"));
    }

    void keepsAReducedKernelCheck()
    {
        VerificationWidget widget;
        widget.setChoices({QStringLiteral("in"), QStringLiteral("partial")},
                          {QStringLiteral("reference")});
        VerificationSpec spec;
        spec.kind = ReferenceKind::Kernel;
        spec.output = "partial";
        spec.referenceKernel = "reference";
        spec.reduce = Reduction::Sum;
        widget.setSpec(spec);
        widget.countEdit()->setText(QStringLiteral("grid.x"));
        Q_EMIT widget.countEdit()->textEdited(QStringLiteral("grid.x"));
        QCOMPARE(widget.spec().reduce, Reduction::Sum);
        QCOMPARE(widget.spec().count, std::string("grid.x"));
    }

    void severalChecks()
    {
        VerificationWidget widget;
        widget.setChoices({QStringLiteral("a"), QStringLiteral("c"), QStringLiteral("d")}, {});
        QCOMPARE(widget.checkCount(), 1);
        QVERIFY(!widget.verification().configured());
        QSignalSpy edited(&widget, &VerificationWidget::verificationEdited);
        // The first check replaces "none"; the next are added after it.
        widget.addCheck();
        QCOMPARE(widget.checkCount(), 1);
        QCOMPARE(widget.verification().checks.size(), std::size_t(1));
        widget.expressionEdit()->setText(QStringLiteral("a[i] + 1"));
        Q_EMIT widget.expressionEdit()->textEdited(QStringLiteral("a[i] + 1"));
        widget.addCheck();
        QCOMPARE(widget.checkCount(), 2);
        QCOMPARE(widget.currentCheck(), 1);
        QCOMPARE(widget.checksCombo()->count(), 2);
        widget.expressionEdit()->setText(QStringLiteral("2 * a[i]"));
        Q_EMIT widget.expressionEdit()->textEdited(QStringLiteral("2 * a[i]"));
        QVERIFY(!edited.isEmpty());
        Verification checks = edited.last().at(0).value<Verification>();
        QCOMPARE(checks.checks.size(), std::size_t(2));
        QCOMPARE(checks.checks[0].expression, std::string("a[i] + 1"));
        QCOMPARE(checks.checks[1].expression, std::string("2 * a[i]"));
        // Choosing the first shows it again.
        widget.checksCombo()->setCurrentIndex(0);
        QCOMPARE(widget.expressionEdit()->text(), QStringLiteral("a[i] + 1"));
        QVERIFY(widget.checksCombo()->currentText().contains(QStringLiteral("(expression)")));
        // Removing it leaves the second.
        widget.removeCheck();
        QCOMPARE(widget.checkCount(), 1);
        QCOMPARE(widget.verification().checks[0].expression, std::string("2 * a[i]"));
        // Removing the last leaves no check.
        widget.removeCheck();
        QVERIFY(!widget.verification().configured());
        // A project's list is shown check by check, and kept a list.
        Verification list;
        list.listForm = true;
        list.checks = checks.checks;
        widget.setVerification(list);
        QCOMPARE(widget.checkCount(), 2);
        QVERIFY(widget.verification().listForm);
        QVERIFY(widget.verification() == list);
    }

    void allCloseTakesBothBounds()
    {
        VerificationWidget widget;
        widget.setChoices({QStringLiteral("c")}, {});
        widget.addCheck();
        QVERIFY(!widget.atolEdit()->isVisibleTo(&widget));
        widget.toleranceCombo()->setCurrentIndex(int(ToleranceKind::AllClose));
        QCOMPARE(widget.spec().tolerance, ToleranceKind::AllClose);
        QVERIFY(widget.atolEdit()->isVisibleTo(&widget));
        QVERIFY(widget.rtolEdit()->isVisibleTo(&widget));
        widget.atolEdit()->setText(QStringLiteral("1e-6"));
        Q_EMIT widget.atolEdit()->textEdited(QStringLiteral("1e-6"));
        widget.rtolEdit()->setText(QStringLiteral("0.001"));
        Q_EMIT widget.rtolEdit()->textEdited(QStringLiteral("0.001"));
        QCOMPARE(widget.spec().atol, 1e-6);
        QCOMPARE(widget.spec().rtol, 1e-3);
        const nlohmann::json json = widget.verification();
        QVERIFY(json["tolerance"] == "allclose");
        QVERIFY(json["atol"] == 1e-6);
        // Read back, as a project would be.
        QCOMPARE(json.get<Verification>().checks[0].rtol, 1e-3);
    }
};

CUWB_TEST_MAIN(TestVerificationWidget)
} // namespace tst_verificationwidget
} // namespace

#include "tst_verificationwidget.moc"
