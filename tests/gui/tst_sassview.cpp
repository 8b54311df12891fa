// The SASS view with the real nvdisasm on NVRTC's CUBIN of the transpose sample (skipped, with
// the reason, only when findNvdisasm() finds no nvdisasm; CI installs one): SassController
// disassembles off the GUI thread, once per CUBIN; the view shows one kernel with its mix, is
// linked both ways with the source (a source line highlights its instructions and switches to
// the kernel that has them; an instruction gives its source line), marks local memory, shows an
// inspection's figures beside the instructions when they fit, and says plainly why there is no
// listing when there is none.
#include "gui/inspect/sasscontroller.h"
#include "gui/inspect/sassview.h"

#include "compiler/kernelcompiler.h"
#include "inspect/instructioncountersjson.h"

#include <Qsci/qsciscintilla.h>

#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <memory>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sassview {

namespace {

constexpr int kDisassembleTimeoutMs = 60000;

QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    return QString::fromUtf8(file.readAll());
}

InspectResult recorded(const char *name)
{
    return nlohmann::json::parse(
               readText(QStringLiteral(CUWB_TEST_DATA_DIR "/inspect/") + QLatin1String(name))
                   .toStdString())
        .get<InspectResult>();
}

// 0-based line of the listing whose text contains `needle`, or -1.
int listingLine(const SassView &view, const QString &needle)
{
    for (int line = 0; line < view.listing()->lines(); ++line) {
        if (view.listing()->text(line).contains(needle))
            return line;
    }
    return -1;
}

} // namespace

class TestSassView : public QObject
{
    Q_OBJECT

private:
    KernelCompiler m_compiler;
    QString m_source;
    CompileResult m_compiled;
    std::shared_ptr<const SassDocument> m_document;

    // The document of a compile through a fresh controller, or null on a timeout.
    static std::shared_ptr<const SassDocument>
    disassembled(SassController &controller, const CompileResult &result, const QString &source)
    {
        QSignalSpy ready(&controller, &SassController::documentReady);
        controller.setActive(true);
        controller.setCompile(result, source);
        if (!ready.wait(kDisassembleTimeoutMs) && ready.isEmpty())
            return nullptr;
        return controller.document();
    }

private Q_SLOTS:
    void initTestCase()
    {
        const NvdisasmTool tool = findNvdisasm();
        if (!tool.found())
            QSKIP(qPrintable(QStringLiteral("no nvdisasm to run: %1")
                                 .arg(QString::fromStdString(tool.problem))));
        m_source = readText(QStringLiteral(CUWB_SAMPLES_DIR "/transpose/transpose.cu"));
        m_compiled = m_compiler.compile(m_source.toStdString(), "transpose.cu", CompileOptions{});
        QVERIFY(m_compiled.success);
        SassController controller;
        m_document = disassembled(controller, m_compiled, m_source);
        QVERIFY(m_document);
        QVERIFY2(m_document->ok(), m_document->disassembly->message.c_str());
        QVERIFY(!m_document->mainFile.empty());
    }

    void controllerDisassemblesEachCubinOnce()
    {
        SassController controller;
        QSignalSpy started(&controller, &SassController::disassemblyStarted);
        // Inactive (the SASS tab is not shown): nothing runs yet.
        controller.setCompile(m_compiled, m_source);
        QTest::qWait(50);
        QCOMPARE(started.count(), 0);
        QVERIFY(!controller.document());
        auto document = disassembled(controller, m_compiled, m_source);
        QVERIFY(document && document->ok());
        QCOMPARE(controller.disassemblyCount(), 1);
        // The same CUBIN with another text around it (an edit in a comment elsewhere would
        // change the CUBIN's line table; here only the shown source changes): formatted
        // again, not disassembled again.
        QString edited = m_source;
        edited.replace(QStringLiteral("three ways"), QStringLiteral("three ways!"));
        document = disassembled(controller, m_compiled, edited);
        QVERIFY(document && document->ok());
        QCOMPARE(controller.disassemblyCount(), 1);
        // Back to the first text: still one run of nvdisasm.
        document = disassembled(controller, m_compiled, m_source);
        QCOMPARE(controller.disassemblyCount(), 1);
        QVERIFY(controller.isCurrent());
    }

    void showsOneKernelWithItsMix()
    {
        SassView view;
        QSignalSpy shown(&view, &SassView::documentShown);
        view.setDocument(m_document);
        QCOMPARE(shown.count(), 1);
        QVERIFY(view.hasListing());
        QVERIFY(view.functionChooser()->count() >= 3);
        QVERIFY(view.mixText().contains(QStringLiteral("instructions: memory")));
        QVERIFY(view.mixText().contains(QStringLiteral("local memory: none")));
        QVERIFY(listingLine(view, QStringLiteral(" EXIT")) >= 0);
    }

    void sourceLineHighlightsItsInstructionsAndSwitchesKernels()
    {
        SassView view;
        view.resize(800, 600);
        view.setDocument(m_document);
        // Line 19: the naive kernel's load and store.
        view.showSourceLine(19);
        QCOMPARE(view.functionChooser()->currentText(), QStringLiteral("transpose_naive"));
        QVERIFY(!view.highlightedLines().empty());
        bool load = false;
        bool store = false;
        for (int line : view.highlightedLines()) {
            const QString text = view.listing()->text(line - 1);
            load |= text.contains(QStringLiteral("LDG"));
            store |= text.contains(QStringLiteral("STG"));
        }
        QVERIFY(load && store);
        // Line 37 belongs to the shared-memory kernel: the view switches to it.
        view.showSourceLine(37);
        QCOMPARE(view.functionChooser()->currentText(), QStringLiteral("transpose_shared"));
        QVERIFY(!view.highlightedLines().empty());
        bool sharedLoad = false;
        for (int line : view.highlightedLines())
            sharedLoad |= view.listing()->text(line - 1).contains(QStringLiteral("LDS"));
        QVERIFY(sharedLoad);
        // A comment line has no instructions.
        view.showSourceLine(2);
        QVERIFY(view.highlightedLines().empty());
    }

    void anInstructionGivesItsSourceLine()
    {
        SassView view;
        view.resize(800, 600);
        view.setDocument(m_document);
        // QScintilla reports cursor moves when it next updates the view on screen.
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showSourceLine(19);
        QSignalSpy activated(&view, &SassView::sourceLineActivated);
        const int store = listingLine(view, QStringLiteral("STG"));
        QVERIFY(store >= 0);
        view.listing()->setCursorPosition(store, 8);
        QTRY_VERIFY(!activated.isEmpty());
        QCOMPARE(activated.last().front().toInt(), 19);
    }

    void figuresOfAMatchingInspection()
    {
        SassView view;
        view.setDocument(m_document);
        view.showSourceLine(19);
        const ListingCounters counters =
            placeOnListing(recorded("transpose.json"), m_document->listing());
        QVERIFY2(counters.matches(), counters.mismatch.c_str());
        view.setCounters(counters);
        QVERIFY(view.countersShown());
        QVERIFY(view.countersText().contains(QStringLiteral("warp instructions executed")));
        const int store = listingLine(view, QStringLiteral("STG"));
        QVERIFY2(view.countersAt(store + 1).contains(QStringLiteral("32.0/4.0")),
                 qPrintable(view.countersAt(store + 1)));
        const int load = listingLine(view, QStringLiteral("LDG"));
        QVERIFY(view.countersAt(load + 1).contains(QStringLiteral("4.0/4.0")));

        // Another kernel shown: the figures wait for theirs.
        view.showSourceLine(37);
        QVERIFY(!view.countersShown());
        QVERIFY(view.countersText().contains(QStringLiteral("transpose_naive")));

        // Figures counted on other code are not shown, and the view says why.
        InspectResult other = recorded("transpose.json");
        other.instructions.front().pcOffset = 0x0008;
        view.setCounters(placeOnListing(other, m_document->listing()));
        view.showSourceLine(19);
        QVERIFY(!view.countersShown());
        QVERIFY(view.countersText().contains(QStringLiteral("not shown")));
        view.clearCounters();
        QVERIFY(view.countersText().isEmpty());
    }

    void localMemoryIsMarked()
    {
        const QString path = QStringLiteral(CUWB_TEST_DATA_DIR "/../../core/data/sass/spills.cu");
        const QString source = readText(path);
        CompileOptions options;
        options.maxRegisters = 24; // as the recorded listing: forces spills
        const CompileResult compiled =
            m_compiler.compile(source.toStdString(), "spills.cu", options);
        QVERIFY(compiled.success);
        SassController controller;
        const auto document = disassembled(controller, compiled, source);
        QVERIFY(document && document->ok());
        SassView view;
        view.setDocument(document);
        bool spillMarked = false;
        for (int f = 0; f < view.functionChooser()->count() && !spillMarked; ++f) {
            view.setCurrentFunction(f);
            for (int line = 0; line < view.listing()->lines(); ++line) {
                const unsigned mask = view.listing()->markersAtLine(line);
                if (mask & (1u << SassView::SpillMarker)) {
                    spillMarked = true;
                    QVERIFY(view.listing()->text(line).contains(QStringLiteral("spill")));
                    QVERIFY(view.mixText().contains(QStringLiteral("spill store")));
                }
            }
        }
        QVERIFY(spillMarked);
    }

    void withoutAListingItSaysWhy()
    {
        SassView view;
        // nvdisasm found nowhere: what to install.
        const NvdisasmTool none = findNvdisasm(NvdisasmSearch{});
        QVERIFY(!none.found());
        SassDocument missing;
        missing.disassembly =
            std::make_shared<const SassDisassembly>(disassemble(m_compiled, none));
        view.setDocument(std::make_shared<const SassDocument>(missing));
        QVERIFY(!view.hasListing());
        QVERIFY2(view.messageText().contains(QStringLiteral("./workbench build")),
                 qPrintable(view.messageText()));
        QVERIFY(
            view.messageText().startsWith(QStringLiteral("No SASS: nvdisasm is not available")));

        // A source that did not compile has no machine code.
        CompileResult failed;
        failed.fileName = "broken.cu";
        SassController controller;
        const auto document = disassembled(controller, failed, QStringLiteral("broken"));
        QVERIFY(document);
        view.setDocument(document);
        QVERIFY2(view.messageText().contains(QStringLiteral("did not compile")),
                 qPrintable(view.messageText()));
    }
};

CUWB_TEST_MAIN(TestSassView)
} // namespace tst_sassview
} // namespace

#include "tst_sassview.moc"
