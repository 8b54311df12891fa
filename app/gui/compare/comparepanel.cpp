#include "gui/compare/comparepanel.h"

#include "gui/common/format.h"
#include "gui/common/theme.h"
#include "gui/compare/comparelinesmodel.h"
#include "gui/compare/comparemodel.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace cuwb {

namespace {

QTableView *makeTable(QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    // A few rows at least; the dock shares a small screen with the editor.
    view->setMinimumHeight(view->verticalHeader()->defaultSectionSize() * 3);
    return view;
}

QLabel *makeLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

ComparePanel::ComparePanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new CompareModel(this))
    , m_linesModel(new CompareLinesModel(this))
    , m_verdict(makeLabel(this))
    , m_message(makeLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_onlySignificant(new QCheckBox(tr("Show only significant differences"), this))
    , m_table(makeTable(this))
    , m_findings(makeLabel(this))
    , m_linesNote(makeLabel(this))
    , m_lines(makeTable(this))
    , m_notes(makeLabel(this))
{
    for (QLabel *&side : m_sides) {
        side = makeLabel(this);
        side->setTextFormat(Qt::RichText);
        side->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    }
    QFont big = m_verdict->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_verdict->setFont(big);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_findings->setTextFormat(Qt::RichText);

    m_table->setModel(m_model);
    // The figures stay in sight: the long metric names give way (elided in the middle, whole
    // in the tooltip), never the A, B and B/A columns.
    m_table->setTextElideMode(Qt::ElideMiddle);
    QHeaderView *header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(CompareModel::WhatColumn, QHeaderView::Stretch);
    m_lines->setModel(m_linesModel);
    m_lines->setToolTip(tr("Click a line to go there in the editor"));
    m_message->setText(tr("Nothing compared yet. Run \u25b8 Compare\u2026 measures, profiles and "
                          "inspects two variants; History and the sweep table compare what "
                          "they stored."));

    connect(m_onlySignificant, &QCheckBox::toggled, m_model, &CompareModel::setShowOnlySignificant);
    connect(m_onlySignificant, &QCheckBox::toggled, m_linesModel,
            &CompareLinesModel::setShowOnlySignificant);
    connect(m_cancel, &QPushButton::clicked, this, &ComparePanel::cancelRequested);
    connect(m_lines, &QTableView::clicked, this, [this](const QModelIndex &index) {
        const int line = index.data(CompareLinesModel::LineRole).toInt();
        if (line > 0)
            Q_EMIT lineActivated(line);
    });

    auto *sides = new QGridLayout;
    sides->addWidget(m_sides[0], 0, 0);
    sides->addWidget(m_sides[1], 0, 1);
    sides->setColumnStretch(0, 1);
    sides->setColumnStretch(1, 1);

    auto *progress = new QHBoxLayout;
    progress->addWidget(m_progress, 1);
    progress->addWidget(m_cancel);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_onlySignificant);
    leftLayout->addWidget(m_table, 1);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_findings);
    rightLayout->addWidget(m_linesNote);
    rightLayout->addWidget(m_lines, 1);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(sides);
    layout->addWidget(m_verdict);
    layout->addWidget(m_message);
    layout->addLayout(progress);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_notes);
    splitter->setVisible(false);
    m_verdict->setVisible(false);
    m_notes->setVisible(false);
    m_splitter = splitter;
}

QString ComparePanel::describeSide(const CompareSideInput &side, const QString &letter) const
{
    QString text =
        QStringLiteral("<b>%1: %2</b>").arg(letter, toQString(side.side.name).toHtmlEscaped());
    if (!side.origin.empty())
        text += QStringLiteral(" <span style='color:%1'>(%2)</span>")
                    .arg(Theme::comment.name(), toQString(side.origin).toHtmlEscaped());
    if (side.side.measurement && side.side.measurement->statistics.count > 0)
        text += tr("<br>median %1, %2 samples")
                    .arg(kernelTimeText(side.side.measurement->statistics.medianNs * 1e-6))
                    .arg(side.side.measurement->statistics.count);
    if (side.failed())
        text += QStringLiteral("<br><span style='color:%1'>%2</span>")
                    .arg(Theme::error.name(),
                         tr("Not collected: %1").arg(toQString(side.failure)).toHtmlEscaped());
    for (const std::string &missing : side.missing)
        text += QStringLiteral("<br><span style='color:%1'>%2</span>")
                    .arg(Theme::warning.name(),
                         tr("Absent: %1").arg(toQString(missing)).toHtmlEscaped());
    return text;
}

void ComparePanel::showComparison(const CompareData &data)
{
    m_data = data;
    m_hasData = true;
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_message->setVisible(false);
    m_sides[0]->setText(describeSide(data.a, tr("A")));
    m_sides[1]->setText(describeSide(data.b, tr("B")));
    const Comparison &c = data.comparison;
    m_verdict->setText(c.verdict.empty() ? tr("No verdict: the two times cannot be compared.")
                                         : toQString(c.verdict));
    QPalette palette = m_verdict->palette();
    palette.setColor(QPalette::WindowText,
                     c.time && c.time->significant
                         ? (c.time->b < c.time->a ? Theme::string : Theme::error)
                         : Theme::text);
    m_verdict->setPalette(palette);
    m_verdict->setVisible(true);
    m_model->setData(data);

    QStringList findings;
    for (const FindingDelta &f : c.findings)
        findings << tr("Only in %1, line %2: %3")
                        .arg(f.inA ? tr("A") : tr("B"))
                        .arg(f.line)
                        .arg(toQString(f.message).toHtmlEscaped());
    m_findings->setText(findings.isEmpty() ? tr("<b>Findings:</b> none that only one side has.")
                                           : tr("<b>Findings on one side only:</b><br>") +
                                                 findings.join(QStringLiteral("<br>")));
    m_linesModel->setLines(data.lines);
    m_linesNote->setText(
        data.linesSkipped.empty()
            ? tr("Per line of %1 (click a line to go there):")
                  .arg(toQString(data.a.sourceFile.empty() ? data.b.sourceFile : data.a.sourceFile))
            : toQString(data.linesSkipped));
    m_lines->setVisible(data.linesSkipped.empty());
    // Columns of a kind of memory neither kernel used say nothing.
    bool global = false;
    bool shared = false;
    for (const LineDelta &l : data.lines) {
        global = global || l.a.globalRequests > 0 || l.b.globalRequests > 0;
        shared = shared || l.a.sharedRequests > 0 || l.b.sharedRequests > 0;
    }
    for (int column :
         {int(CompareLinesModel::SectorsAColumn), int(CompareLinesModel::SectorsBColumn)})
        m_lines->setColumnHidden(column, !global);
    for (int column :
         {int(CompareLinesModel::WavefrontsAColumn), int(CompareLinesModel::WavefrontsBColumn)})
        m_lines->setColumnHidden(column, !shared);
    m_lines->resizeColumnsToContents();

    QStringList notes;
    for (const std::string &note : c.notes)
        notes << toQString(note);
    if (!data.mixSkipped.empty())
        notes << toQString(data.mixSkipped);
    notes << tr("Bold and coloured: a difference that counts (a time beyond three times the "
                "noise, any other figure by 10 % or more).");
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setVisible(true);
    m_splitter->setVisible(true);
}

void ComparePanel::showProgress(const QString &text, int step, int steps)
{
    m_message->setText(text);
    m_message->setVisible(true);
    m_progress->setRange(0, steps);
    m_progress->setValue(step);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
}

void ComparePanel::showMessage(const QString &message)
{
    m_message->setText(message);
    m_message->setVisible(true);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
}

QString ComparePanel::verdictText() const
{
    return m_verdict->text();
}

QString ComparePanel::sideText(int side) const
{
    return m_sides[side == 0 ? 0 : 1]->text();
}

QString ComparePanel::findingsText() const
{
    return m_findings->text();
}

QString ComparePanel::linesNoteText() const
{
    return m_linesNote->text();
}

QString ComparePanel::messageText() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}

} // namespace cuwb
