// The verification editor: an aggregate check (sum, min or max of the output against an input
// or a value) and the count of elements that matter, shown from and written to the spec.
#include "gui/launch/verificationwidget.h"

#include "launch/launchjson.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace cuwb;

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
};

QTEST_MAIN(TestVerificationWidget)
#include "tst_verificationwidget.moc"
