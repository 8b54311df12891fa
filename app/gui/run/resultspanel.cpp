#include "gui/run/resultspanel.h"

#include "gui/common/format.h"

#include "gui/common/qtconvert.h"
#include "gui/run/bufferpagemodel.h"
#include "gui/run/buffersummarymodel.h"
#include "gui/run/buffervaluesview.h"
#include "gui/run/mismatchesmodel.h"
#include "run/runoutcome.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace cuwb {

namespace {

enum class Tone { Neutral, Good, Bad, Warning };

QString toneStyle(Tone tone)
{
    QString background;
    QString border;
    switch (tone) {
    case Tone::Good:
        background = QStringLiteral("#e3f3e5");
        border = QStringLiteral("#2e7d32");
        break;
    case Tone::Bad:
        background = QStringLiteral("#fbe4e4");
        border = QStringLiteral("#c62828");
        break;
    case Tone::Warning:
        background = QStringLiteral("#fff4dc");
        border = QStringLiteral("#b7791f");
        break;
    case Tone::Neutral:
        background = QStringLiteral("palette(alternate-base)");
        border = QStringLiteral("palette(mid)");
        break;
    }
    return QStringLiteral("QLabel { background: %1; border-left: 4px solid %2; padding: 6px 8px; "
                          "color: #1d1d1d; }")
        .arg(background, border);
}

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

} // namespace

ResultsPanel::ResultsPanel(QWidget *parent)
    : QWidget(parent)
    , m_status(new QLabel(this))
    , m_details(new QLabel(this))
    , m_verification(new QLabel(this))
    , m_findings(new QLabel(this))
    , m_bufferChoice(new QComboBox(this))
    , m_goTo(new QLineEdit(this))
    , m_export(new QPushButton(tr("Export\u2026"), this))
    , m_exportStatus(new QLabel(this))
    , m_valuesView(new BufferValuesView(this))
    , m_pageModel(new BufferPageModel(this))
    , m_summaryModel(new BufferSummaryModel(this))
    , m_mismatchesModel(new MismatchesModel(this))
{
    m_status->setObjectName(QStringLiteral("runStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_status->font();
    bold.setBold(true);
    m_status->setFont(bold);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verification->setObjectName(QStringLiteral("verificationStatus"));
    m_verification->setWordWrap(true);
    m_verification->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_findings->setWordWrap(true);
    m_findings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_findings->setTextFormat(Qt::PlainText);

    m_mismatchesView = makeTable(m_mismatchesModel, this);
    m_mismatchesView->setMaximumHeight(m_mismatchesView->fontMetrics().height() * 9);
    m_summaryView = makeTable(m_summaryModel, this);
    m_summaryView->horizontalHeader()->setStretchLastSection(false);

    // Left: the verdict and the buffers' summary.
    auto *summaryPane = new QWidget(this);
    auto *summaryLayout = new QVBoxLayout(summaryPane);
    summaryLayout->setContentsMargins(6, 6, 6, 6);
    summaryLayout->addWidget(m_status);
    summaryLayout->addWidget(m_details);
    summaryLayout->addWidget(m_verification);
    summaryLayout->addWidget(m_mismatchesView);
    auto *buffersTitle = new QLabel(tr("Buffers"), summaryPane);
    buffersTitle->setFont(bold);
    summaryLayout->addWidget(buffersTitle);
    summaryLayout->addWidget(m_summaryView, 1);
    summaryLayout->addWidget(m_findings);

    // Right: the values of one buffer.
    auto *valuesPane = new QWidget(this);
    auto *valuesLayout = new QVBoxLayout(valuesPane);
    valuesLayout->setContentsMargins(6, 6, 6, 6);
    auto *valuesBar = new QHBoxLayout;
    valuesBar->addWidget(new QLabel(tr("Values of"), valuesPane));
    valuesBar->addWidget(m_bufferChoice, 1);
    m_goTo->setPlaceholderText(tr("Go to index"));
    m_goTo->setClearButtonEnabled(true);
    m_goTo->setMaximumWidth(130);
    valuesBar->addWidget(m_goTo);
    m_export->setToolTip(tr("Write the buffer to a .npy, .bin or .csv file"));
    valuesBar->addWidget(m_export);
    valuesLayout->addLayout(valuesBar);
    valuesLayout->addWidget(m_valuesView, 1);
    m_exportStatus->setWordWrap(true);
    valuesLayout->addWidget(m_exportStatus);
    m_valuesView->setModel(m_pageModel);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(summaryPane);
    splitter->addWidget(valuesPane);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connectViews();
    clear();
}

void ResultsPanel::connectViews()
{
    connect(m_bufferChoice, &QComboBox::currentIndexChanged, this, &ResultsPanel::onBufferChosen);
    connect(m_summaryView, &QAbstractItemView::clicked, this, [this](const QModelIndex &index) {
        // A global's row has no values to page through.
        if (!m_summaryModel->isGlobal(index.row()))
            m_bufferChoice->setCurrentIndex(index.row());
    });
    connect(m_export, &QPushButton::clicked, this, &ResultsPanel::exportSelected);
    connect(m_goTo, &QLineEdit::returnPressed, this, &ResultsPanel::goToElement);
    // Said under the values, not only in the tooltips of rows that read "(unavailable)".
    connect(m_pageModel, &BufferPageModel::pageUnavailable, this, [this](const QString &message) {
        QString text = message;
        if (!text.endsWith(QLatin1Char('.')))
            text += QLatin1Char('.');
        m_exportStatus->setText(tr("Values unavailable: %1").arg(text));
    });
    connect(m_pageModel, &QAbstractItemModel::dataChanged, this, [this] {
        if (m_waitingForValues) {
            m_waitingForValues = false;
            Q_EMIT valuesShown();
        }
    });
}

void ResultsPanel::clear()
{
    m_hasResult = false;
    m_result = RunResult{};
    m_status->setText(tr("No run yet. Choose the arguments in the Launch panel and press Run "
                         "(Ctrl+R)."));
    m_status->setStyleSheet(toneStyle(Tone::Neutral));
    m_details->clear();
    m_details->hide();
    m_verification->clear();
    m_verification->hide();
    m_mismatchesView->hide();
    m_findings->hide();
    m_summaryModel->clear();
    m_mismatchesModel->clear();
    m_pageModel->clear();
    m_bufferChoice->clear();
    m_bufferChoice->setEnabled(false);
    m_export->setEnabled(false);
    m_goTo->setEnabled(false);
    m_exportStatus->clear();
}

void ResultsPanel::showRunning(const QString &kernel)
{
    m_status->setText(tr("Running %1\u2026").arg(kernel));
    m_status->setStyleSheet(toneStyle(Tone::Neutral));
}

void ResultsPanel::showResult(const RunResult &result, const QHash<QString, QString> &typeNames)
{
    m_result = result;
    m_typeNames = typeNames;
    m_hasResult = true;
    showStatus(result);
    showDetails(result);
    showVerification(result);
    showBuffers(result);
}

void ResultsPanel::showStatus(const RunResult &result)
{
    // Status line: the verdict with its reasons first, then what the kernel did and what the
    // checks found, in the words `cuwb run` uses (run/runoutcome.h).
    const RunOutcome outcome = describeRun(result);
    Tone tone = Tone::Good;
    QString status;
    if (outcome.passed) {
        status = tr("\u2714 PASSED");
    } else {
        tone = result.status == RunStatus::InvalidLaunch || result.status == RunStatus::NoDevice
                   ? Tone::Warning
                   : Tone::Bad;
        status = tr("\u2718 FAILED: %1").arg(toQString(outcome.reasons.front()));
        for (std::size_t k = 1; k < outcome.reasons.size(); ++k)
            status += QLatin1Char('\n') + tr("and %1").arg(toQString(outcome.reasons[k]));
    }
    switch (outcome.kernel) {
    case KernelOutcome::Ran:
        status +=
            QLatin1Char('\n') + tr("The kernel ran; %1.").arg(toQString(outcome.checksLine()));
        break;
    case KernelOutcome::Faulted:
        status += QLatin1Char('\n') + tr("The kernel faulted; nothing was checked.");
        break;
    case KernelOutcome::TimedOut:
        status += QLatin1Char('\n') + tr("The kernel timed out; nothing was checked.");
        break;
    case KernelOutcome::NotStarted:
        status += QLatin1Char('\n') + tr("The kernel could not start; nothing was checked.");
        break;
    }
    m_status->setText(status);
    m_status->setStyleSheet(toneStyle(tone));
}

void ResultsPanel::showDetails(const RunResult &result)
{
    QStringList details;
    if (result.status == RunStatus::Succeeded)
        details << tr("Kernel time %1").arg(kernelTimeText(result.kernelTimeMs));
    // A sequence: each kernel's part.
    for (const KernelRunTime &time : result.kernelTimes)
        details << tr("%1 %2").arg(toQString(time.kernel), kernelTimeText(time.timeMs));
    if (result.wallTimeMs > 0)
        details << tr("whole run %1").arg(kernelTimeText(result.wallTimeMs));
    if (!result.device.empty())
        details << tr("on %1").arg(toQString(result.device));
    m_details->setText(details.join(QStringLiteral(" \u00b7 ")));
    m_details->setVisible(!details.isEmpty());
}

QString ResultsPanel::checkText(const VerificationResult &check)
{
    QString text;
    if (!check.ran)
        text = tr("Verification did not run: %1").arg(toQString(check.message));
    else if (check.passed && !check.message.empty())
        // Says what was compared: the elements a mask selected, or the two reductions.
        text = tr("PASS \u2014 %1").arg(toQString(check.message));
    else if (check.passed)
        text = tr("PASS \u2014 %1 elements checked, largest error %2")
                   .arg(QLocale().toString(qulonglong(check.checked)),
                        BufferSummaryModel::formatNumber(check.maxError));
    else
        text = tr("FAIL \u2014 %1; largest error %2 at index %3")
                   .arg(check.message.empty() ? tr("%1 elements differ").arg(check.mismatches)
                                              : toQString(check.message),
                        BufferSummaryModel::formatNumber(check.maxError))
                   .arg(check.maxErrorIndex);
    if (const std::string errors = largestErrorText(check); !errors.empty() && check.ran)
        text += QLatin1Char('\n') + tr("largest |out - ref|: %1").arg(toQString(errors));
    return text;
}

void ResultsPanel::showVerification(const RunResult &result)
{
    // One line per check (the first line the overall verdict with several), each with its
    // largest absolute and relative errors and where they are.
    const VerificationResult &verification = result.verification;
    const QString tone = toneStyle(!verification.ran     ? Tone::Warning
                                   : verification.passed ? Tone::Good
                                                         : Tone::Bad);
    if (result.checks.size() > 1) {
        std::size_t passed = 0;
        for (const VerificationResult &check : result.checks)
            passed += check.ran && check.passed ? 1 : 0;
        QStringList lines{
            verification.passed
                ? tr("PASS \u2014 all %1 checks").arg(result.checks.size())
                : tr("FAIL \u2014 %1 of %2 checks passed").arg(passed).arg(result.checks.size())};
        for (const VerificationResult &check : result.checks)
            lines << tr("%1: %2").arg(toQString(check.label.empty() ? check.output : check.label),
                                      checkText(check));
        m_verification->setText(lines.join(QLatin1Char('\n')));
        m_verification->setStyleSheet(tone);
        m_verification->show();
    } else if (verification.ran || !verification.message.empty()) {
        m_verification->setText(checkText(verification));
        m_verification->setStyleSheet(tone);
        m_verification->show();
    } else {
        m_verification->clear();
        m_verification->hide();
    }
    m_mismatchesModel->setMismatches(verification.firstMismatches);
    m_mismatchesView->setVisible(!verification.firstMismatches.empty());
    if (!verification.firstMismatches.empty())
        m_mismatchesView->resizeColumnsToContents();
}

void ResultsPanel::showBuffers(const RunResult &result)
{
    // Buffers.
    m_summaryModel->setBuffers(result.buffers, result.globals);
    m_summaryView->resizeColumnsToContents();
    QStringList findings;
    for (const BufferReport &buffer : result.buffers) {
        for (const GuardViolation &violation : buffer.guardViolations)
            findings << tr("\u26a0 %1").arg(toQString(violation.message));
        if (buffer.unwritten > 0) {
            QString line = tr("\u26a0 %1 element(s) of `%2` were never written")
                               .arg(QLocale().toString(qulonglong(buffer.unwritten)),
                                    toQString(buffer.parameter));
            if (buffer.firstUnwritten >= 0)
                line += tr(", first at index %1").arg(buffer.firstUnwritten);
            findings << line;
        }
    }
    m_findings->setText(findings.join(QLatin1Char('\n')));
    m_findings->setVisible(!findings.isEmpty());
    m_findings->setStyleSheet(findings.isEmpty() ? QString() : toneStyle(Tone::Bad));

    const QSignalBlocker blocker(m_bufferChoice);
    m_bufferChoice->clear();
    int preferred = -1;
    for (std::size_t i = 0; i < result.buffers.size(); ++i) {
        const BufferReport &buffer = result.buffers[i];
        m_bufferChoice->addItem(toQString(buffer.parameter));
        if (preferred < 0 && !buffer.handle.empty() &&
            (buffer.unwritten > 0 || !buffer.guardViolations.empty()))
            preferred = int(i);
    }
    // A buffer with a problem, else the last (usually the output).
    if (preferred < 0)
        preferred = int(result.buffers.size()) - 1;
    m_bufferChoice->setEnabled(!result.buffers.empty());
    m_bufferChoice->setCurrentIndex(preferred);
    onBufferChosen(preferred);
}

void ResultsPanel::selectBuffer(int index)
{
    m_bufferChoice->setCurrentIndex(index);
}

int ResultsPanel::selectedBuffer() const
{
    return m_bufferChoice->currentIndex();
}

void ResultsPanel::onBufferChosen(int index)
{
    m_exportStatus->clear();
    if (index < 0 || std::size_t(index) >= m_result.buffers.size()) {
        m_pageModel->clear();
        m_export->setEnabled(false);
        m_goTo->setEnabled(false);
        return;
    }
    const BufferReport &buffer = m_result.buffers[std::size_t(index)];
    const QString parameter = toQString(buffer.parameter);
    m_waitingForValues = !buffer.handle.empty() && buffer.count > 0;
    m_pageModel->setBuffer(toQString(buffer.handle), buffer.handle.empty() ? 0 : buffer.count,
                           m_typeNames.value(parameter));
    m_export->setEnabled(!buffer.handle.empty());
    m_goTo->setEnabled(!buffer.handle.empty());
    if (buffer.handle.empty())
        m_exportStatus->setText(tr("The worker kept no values of this buffer."));
    m_summaryView->selectRow(index);
}

void ResultsPanel::goToElement()
{
    bool ok = false;
    const qlonglong element = m_goTo->text().trimmed().toLongLong(&ok);
    if (ok)
        m_valuesView->scrollToRow(element);
}

ExportFormat ResultsPanel::formatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return ExportFormat::Csv;
    if (suffix == QLatin1String("bin"))
        return ExportFormat::Bin;
    return ExportFormat::Npy;
}

void ResultsPanel::exportSelected()
{
    const int index = selectedBuffer();
    if (index < 0 || std::size_t(index) >= m_result.buffers.size())
        return;
    const BufferReport &buffer = m_result.buffers[std::size_t(index)];
    QString selectedFilter;
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export %1").arg(toQString(buffer.parameter)),
        QDir::home().filePath(toQString(buffer.parameter) + QStringLiteral(".npy")),
        tr("NumPy array (*.npy);;Raw binary (*.bin);;CSV (*.csv)"), &selectedFilter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty()) {
        if (selectedFilter.contains(QLatin1String("*.csv")))
            path += QStringLiteral(".csv");
        else if (selectedFilter.contains(QLatin1String("*.bin")))
            path += QStringLiteral(".bin");
        else
            path += QStringLiteral(".npy");
    }
    m_exportStatus->setText(tr("Exporting to %1\u2026").arg(QDir::toNativeSeparators(path)));
    Q_EMIT exportRequested(toQString(buffer.handle), path, formatForPath(path));
}

void ResultsPanel::showExportResult(const QString &path, bool ok, const QString &message)
{
    m_exportStatus->setText(
        ok ? message : tr("Export to %1 failed: %2").arg(QDir::toNativeSeparators(path), message));
}

QString ResultsPanel::statusText() const
{
    return m_status->text();
}

QString ResultsPanel::verificationText() const
{
    return m_verification->text();
}

QString ResultsPanel::detailsText() const
{
    return m_details->text();
}

QString ResultsPanel::findingsText() const
{
    return m_findings->text();
}

QString ResultsPanel::valuesStatusText() const
{
    return m_exportStatus->text();
}

} // namespace cuwb
