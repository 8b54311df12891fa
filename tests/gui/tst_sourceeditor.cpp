#include "gui/editor/cudacompletions.h"
#include "gui/editor/cudalexer.h"
#include "gui/editor/findreplacebar.h"
#include "gui/editor/ptxlexer.h"
#include "gui/editor/resourcelists.h"
#include "gui/editor/sourceeditor.h"

#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sourceeditor {

namespace {

Diagnostic at(Severity severity, int line, int column, const char *message,
              const char *file = "k.cu")
{
    Diagnostic d;
    d.file = file;
    d.line = line;
    d.column = column;
    d.severity = severity;
    d.message = message;
    return d;
}

const char *const Source = "__global__ void k(float *x)\n"
                           "{\n"
                           "    x[0] = count + 1.0f;\n"
                           "    int unused = 42;\n"
                           "}\n";

} // namespace

class TestSourceEditor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cudaWordListsComeFromResources()
    {
        const ResourceLists &lists = ResourceLists::instance();
        QVERIFY(lists.qualifiers.contains(QStringLiteral("__global__")));
        QVERIFY(lists.qualifiers.contains(QStringLiteral("__restrict__")));
        QVERIFY(lists.builtins.contains(QStringLiteral("threadIdx")));
        QVERIFY(lists.intrinsics.contains(QStringLiteral("__shfl_down_sync")));
        QVERIFY(lists.types.contains(QStringLiteral("float4")));
        QVERIFY(lists.types.contains(QStringLiteral("__nv_bfloat16")));
        QVERIFY(!lists.completions.isEmpty());
        QVERIFY(!lists.qualifiers.contains(QStringLiteral("#"))); // comments are skipped
    }

    void completionOffersCudaBuiltins()
    {
        CudaLexer lexer;
        CudaCompletions completions(&lexer);
        QStringList list;
        completions.updateAutoCompletionList({QStringLiteral("__shfl")}, list);
        QVERIFY(list.contains(QStringLiteral("__shfl_down_sync")));
        QVERIFY(list.contains(QStringLiteral("__shfl_xor_sync")));
        QVERIFY(!list.contains(QStringLiteral("atomicAdd")));
        list.clear();
        completions.updateAutoCompletionList({QStringLiteral("thread")}, list);
        QCOMPARE(list, QStringList{QStringLiteral("threadIdx")});

        QList<int> shifts;
        const QStringList tips = completions.callTips({QStringLiteral("atomicAdd"), QString()}, 0,
                                                      QsciScintilla::CallTipsNoContext, shifts);
        QCOMPARE(tips, QStringList{QStringLiteral("atomicAdd(T *address, T val)")});
        QVERIFY(QByteArray(lexer.keywords(1)).contains("__global__"));
        QVERIFY(QByteArray(lexer.keywords(1)).contains("while")); // C++ keywords stay
        QVERIFY(QByteArray(lexer.keywords(2)).contains("__syncthreads"));
        QVERIFY(QByteArray(lexer.keywords(4)).contains("float4"));
    }

    void diagnosticsAreDrawnAtTheirColumn()
    {
        SourceEditor editor;
        editor.setText(QString::fromLatin1(Source));
        editor.setDiagnostics({at(Severity::Error, 3, 12, "identifier \"count\" is undefined"),
                               at(Severity::Warning, 4, 9, "variable \"unused\" was declared"),
                               at(Severity::Error, 1, 1, "in a header", "other.cuh")},
                              QStringLiteral("k.cu"));
        QCOMPARE(editor.diagnosticCount(), 2); // the header's diagnostic is not ours

        // "count" spans columns 12..16 of line 3 (index 11..15).
        QCOMPARE(editor.diagnosticIndicatorAt(2, 10), -1);
        for (int index = 11; index <= 15; ++index)
            QCOMPARE(editor.diagnosticIndicatorAt(2, index), int(SourceEditor::ErrorIndicator));
        QCOMPARE(editor.diagnosticIndicatorAt(2, 16), -1);
        QCOMPARE(editor.diagnosticIndicatorAt(3, 8), int(SourceEditor::WarningIndicator));
        QCOMPARE(editor.diagnosticIndicatorAt(0, 0), -1);

        QVERIFY(editor.markersAtLine(2) & (1u << SourceEditor::ErrorMarker));
        QVERIFY(editor.markersAtLine(3) & (1u << SourceEditor::WarningMarker));
        QCOMPARE(editor.markersAtLine(0), 0u);
        QVERIFY(editor.annotation(2).contains(QStringLiteral("identifier \"count\" is undefined")));
        QVERIFY(editor.annotation(3).contains(QStringLiteral("warning")));

        editor.clearDiagnostics();
        QCOMPARE(editor.diagnosticCount(), 0);
        QCOMPARE(editor.diagnosticIndicatorAt(2, 11), -1);
        QVERIFY(editor.annotation(2).isEmpty());
        QCOMPARE(editor.markersAtLine(2), 0u);
    }

    void byteColumnsOfNonAsciiLinesLandOnTheRightCharacter()
    {
        // NVRTC's column counts bytes: "é" and "µ" are two bytes each in UTF-8, so "count"
        // starts at byte column 23 but at character 21 (index 20).
        SourceEditor editor;
        editor.setText(QStringLiteral("__global__ void k(float *x)\n"
                                      "{\n"
                                      "    /* \u00e9\u00b5 */ x[0] = count;\n"
                                      "}\n"));
        editor.setDiagnostics({at(Severity::Error, 3, 23, "identifier \"count\" is undefined")},
                              QStringLiteral("k.cu"));
        QCOMPARE(editor.diagnosticIndicatorAt(2, 19), -1);
        for (int index = 20; index <= 24; ++index)
            QCOMPARE(editor.diagnosticIndicatorAt(2, index), int(SourceEditor::ErrorIndicator));
        QCOMPARE(editor.diagnosticIndicatorAt(2, 25), -1);

        editor.goToLocation(3, 23);
        int line = -1;
        int index = -1;
        editor.getCursorPosition(&line, &index);
        QCOMPARE(line, 2);
        QCOMPARE(index, 20);
        QCOMPARE(editor.wordAtLineIndex(line, index), QStringLiteral("count"));
    }

    void severalDiagnosticsShareOneAnnotationWorstFirst()
    {
        SourceEditor editor;
        editor.setText(QString::fromLatin1(Source));
        Diagnostic withNote = at(Severity::Error, 3, 5, "first error");
        withNote.notes.push_back(at(Severity::Note, 9, 0, "detected during instantiation"));
        editor.setDiagnostics({at(Severity::Remark, 3, 1, "a remark"), withNote},
                              QStringLiteral("k.cu"));
        const QString annotation = editor.annotation(2);
        QVERIFY(annotation.indexOf(QStringLiteral("first error")) <
                annotation.indexOf(QStringLiteral("a remark")));
        QVERIFY(
            annotation.contains(QStringLiteral("note: detected during instantiation (line 9)")));
    }

    void outOfRangeLocationsDoNotCrash()
    {
        SourceEditor editor;
        editor.setText(QStringLiteral("int x;\n"));
        editor.setDiagnostics({at(Severity::Error, 1, 500, "past the end"),
                               at(Severity::Error, 1, 0, "no column"),
                               at(Severity::Error, 99, 1, "past the last line"),
                               at(Severity::Error, 0, 0, "no location")},
                              QStringLiteral("k.cu"));
        QCOMPARE(editor.diagnosticCount(), 2);
        QCOMPARE(editor.diagnosticIndicatorAt(0, 5), int(SourceEditor::ErrorIndicator));
    }

    void spillingKernelsGetAGutterMarker()
    {
        SourceEditor editor;
        editor.setText(QString::fromLatin1(Source));
        KernelInfo spills;
        spills.loweredName = "k";
        spills.sourceLine = 1;
        spills.resources.reported = true;
        spills.resources.spillStoreBytes = 8;
        KernelInfo clean = spills;
        clean.sourceLine = 2;
        clean.resources.spillStoreBytes = 0;
        editor.setKernels({spills, clean});
        QVERIFY(editor.markersAtLine(0) & (1u << SourceEditor::SpillMarker));
        QCOMPARE(editor.markersAtLine(1) & (1u << SourceEditor::SpillMarker), 0u);
        editor.setKernels({});
        QCOMPARE(editor.markersAtLine(0), 0u);
    }

    void goToLocationPlacesTheCursor()
    {
        SourceEditor editor;
        editor.setText(QString::fromLatin1(Source));
        editor.goToLocation(3, 12);
        int line = 0;
        int index = 0;
        editor.getCursorPosition(&line, &index);
        QCOMPARE(line, 2);
        QCOMPARE(index, 11);
        QCOMPARE(editor.cursorLine(), 3);
    }

    void findAndReplace()
    {
        SourceEditor editor;
        editor.setText(QStringLiteral("alpha beta Alpha alphabet\nalpha\n"));
        FindReplaceBar bar;
        bar.setEditor(&editor);
        bar.setFindText(QStringLiteral("alpha"));
        bar.setMatchCase(true);
        bar.setWholeWord(true);
        QVERIFY(bar.findNext());
        QCOMPARE(editor.selectedText(), QStringLiteral("alpha"));
        int lineFrom = 0, indexFrom = 0, lineTo = 0, indexTo = 0;
        QVERIFY(bar.findNext());
        editor.getSelection(&lineFrom, &indexFrom, &lineTo, &indexTo);
        QCOMPARE(lineFrom, 1); // "Alpha" and "alphabet" are skipped
        QVERIFY(bar.findPrevious());
        editor.getSelection(&lineFrom, &indexFrom, &lineTo, &indexTo);
        QCOMPARE(lineFrom, 0);
        QCOMPARE(indexFrom, 0);

        bar.setReplaceText(QStringLiteral("gamma"));
        QCOMPARE(bar.replaceAll(), 2);
        QCOMPARE(editor.text(), QStringLiteral("gamma beta Alpha alphabet\ngamma\n"));
        editor.undo(); // one undo step for the whole replacement
        QCOMPARE(editor.text(), QStringLiteral("alpha beta Alpha alphabet\nalpha\n"));

        bar.setMatchCase(false);
        bar.setWholeWord(false);
        bar.setRegularExpression(true);
        bar.setFindText(QStringLiteral("al[a-z]+"));
        bar.setReplaceText(QStringLiteral("x"));
        QCOMPARE(bar.replaceAll(), 4);
        QCOMPARE(editor.text(), QStringLiteral("x beta x x\nx\n"));
    }

    void ptxTokensAreStyled()
    {
        bool inComment = false;
        const QByteArray line = "\t@%p1 ld.global.f32 %f1, [%rd8+4]; // load";
        const QByteArray styles = PtxLexer::styleLine(line, inComment);
        QCOMPARE(styles.size(), line.size());
        auto styleAt = [&](const char *token) { return int(styles.at(line.indexOf(token))); };
        QCOMPARE(styleAt("@%p1"), int(PtxLexer::Predicate));
        QCOMPARE(styleAt("ld.global.f32"), int(PtxLexer::Instruction));
        QCOMPARE(styleAt("%f1"), int(PtxLexer::Register));
        QCOMPARE(styleAt("4]"), int(PtxLexer::Number));
        QCOMPARE(styleAt("// load"), int(PtxLexer::Comment));

        const QByteArray directive = ".visible .entry vector_add(";
        const QByteArray directiveStyles = PtxLexer::styleLine(directive, inComment);
        QCOMPARE(int(directiveStyles.at(0)), int(PtxLexer::Directive));
        QCOMPARE(int(directiveStyles.at(directive.indexOf(".entry"))), int(PtxLexer::Directive));

        const QByteArray label = "$L__BB0_2:";
        QCOMPARE(int(PtxLexer::styleLine(label, inComment).at(0)), int(PtxLexer::Label));
        const QByteArray literal = "mov.f32 %f2, 0f3F800000;";
        const QByteArray literalStyles = PtxLexer::styleLine(literal, inComment);
        QCOMPARE(int(literalStyles.at(literal.indexOf("0f3F"))), int(PtxLexer::Number));

        QByteArray open = "/* start";
        PtxLexer::styleLine(open, inComment);
        QVERIFY(inComment);
        const QByteArray close = "end */ ret;";
        const QByteArray closeStyles = PtxLexer::styleLine(close, inComment);
        QVERIFY(!inComment);
        QCOMPARE(int(closeStyles.at(0)), int(PtxLexer::Comment));
        QCOMPARE(int(closeStyles.at(close.indexOf("ret"))), int(PtxLexer::Instruction));
    }
};

CUWB_TEST_MAIN(TestSourceEditor)
} // namespace tst_sourceeditor
} // namespace

#include "tst_sourceeditor.moc"
