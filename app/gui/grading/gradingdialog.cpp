#include "gui/grading/gradingdialog.h"

#include "gui/common/qtconvert.h"
#include "gui/grading/classtablemodel.h"
#include "gui/grading/gradingrun.h"
#include "util/format.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace cuwb {

GradingDialog::GradingDialog(QWidget *parent)
    : QDialog(parent)
    , m_run(new GradingRun(this))
    , m_model(new ClassTableModel(this))
{
    setWindowTitle(tr("Grade a Folder"));
    auto *layout = new QVBoxLayout(this);

    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(new QLabel(tr("Submissions:"), this));
    m_folder = new QLineEdit(this);
    m_folder->setPlaceholderText(tr("a folder with one project (*.cuwb) per student"));
    folderRow->addWidget(m_folder, 1);
    auto *browse = new QPushButton(tr("Browse\u2026"), this);
    folderRow->addWidget(browse);
    layout->addLayout(folderRow);

    m_measure = new QCheckBox(tr("Measure each submission that passes, and rank the class"), this);
    m_measure->setChecked(true);
    layout->addWidget(m_measure);

    auto *explanation = new QLabel(
        tr("Each submission is read in a process confined to its folder, compiled by nvcc in a "
           "sandbox and run in a worker of its own, as <tt>cuwb run FOLDER</tt> grades it. "
           "Submissions whose times do not differ beyond the noise share a rank (=)."),
        this);
    explanation->setWordWrap(true);
    layout->addWidget(explanation);

    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    layout->addWidget(m_table, 1);

    m_status = new QLabel(tr("Choose a folder and grade it."), this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    m_messages = new QPlainTextEdit(this);
    m_messages->setReadOnly(true);
    m_messages->setMaximumBlockCount(200);
    m_messages->setMaximumHeight(fontMetrics().lineSpacing() * 5);
    m_messages->setPlaceholderText(tr("What cuwb says while it grades"));
    layout->addWidget(m_messages);

    auto *buttons = new QDialogButtonBox(this);
    m_grade = buttons->addButton(tr("&Grade"), QDialogButtonBox::ActionRole);
    m_cancel = buttons->addButton(tr("Cancel Grading"), QDialogButtonBox::ActionRole);
    m_save = buttons->addButton(tr("&Save Report\u2026"), QDialogButtonBox::ActionRole);
    buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(buttons);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString folder =
            QFileDialog::getExistingDirectory(this, tr("Folder of Submissions"), m_folder->text());
        if (!folder.isEmpty())
            setFolder(folder);
    });
    connect(m_folder, &QLineEdit::textChanged, this, &GradingDialog::updateButtons);
    connect(m_grade, &QPushButton::clicked, this, &GradingDialog::startGrading);
    connect(m_cancel, &QPushButton::clicked, m_run, &GradingRun::cancel);
    connect(m_save, &QPushButton::clicked, this, [this] {
        const QString folder =
            QFileDialog::getExistingDirectory(this, tr("Save the Class Report In"));
        if (!folder.isEmpty())
            saveReportTo(folder);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::hide);
    connect(m_run, &GradingRun::message, m_messages, &QPlainTextEdit::appendPlainText);
    connect(m_run, &GradingRun::finished, this, &GradingDialog::onFinished);
    resize(820, 520);
    updateButtons();
}

void GradingDialog::setFolder(const QString &folder)
{
    m_folder->setText(QDir::toNativeSeparators(folder));
}

void GradingDialog::setMeasure(bool measure)
{
    m_measure->setChecked(measure);
}

QString GradingDialog::statusText() const
{
    return m_status->text();
}

void GradingDialog::startGrading()
{
    const QString folder = QDir::fromNativeSeparators(m_folder->text().trimmed());
    if (folder.isEmpty() || !QFileInfo(folder).isDir()) {
        m_status->setText(tr("%1 is not a folder.").arg(folder.isEmpty() ? tr("Nothing") : folder));
        return;
    }
    m_model->setEntries({});
    m_messages->clear();
    m_status->setText(tr("Grading %1\u2026").arg(QDir::toNativeSeparators(folder)));
    m_run->start(folder, m_measure->isChecked());
    updateButtons();
}

void GradingDialog::onFinished(const QString &error)
{
    if (!error.isEmpty()) {
        m_status->setText(tr("Grading did not finish: %1").arg(error));
    } else {
        std::vector<ClassEntry> entries = classEntries(m_run->summary());
        const auto passed = std::count_if(entries.begin(), entries.end(),
                                          [](const ClassEntry &e) { return e.passed; });
        const auto ranked = std::count_if(entries.begin(), entries.end(),
                                          [](const ClassEntry &e) { return e.rank > 0; });
        QString text = tr("%1: %2 passed, %3 failed.")
                           .arg(toQString(plural(entries.size(), "submission")))
                           .arg(passed)
                           .arg(qsizetype(entries.size()) - passed);
        if (ranked > 0)
            text += QLatin1Char(' ') + tr("%1 ranked by median time.").arg(ranked);
        m_status->setText(text);
        m_model->setEntries(std::move(entries));
        m_table->resizeColumnsToContents();
    }
    updateButtons();
    Q_EMIT gradingFinished();
}

void GradingDialog::saveReportTo(const QString &folder)
{
    if (const std::string problem = writeClassReport(m_run->summary(), toStdString(folder));
        !problem.empty()) {
        QMessageBox::warning(this, tr("Save Report"),
                             tr("The report could not be written: %1").arg(toQString(problem)));
        return;
    }
    m_status->setText(tr("The report is in %1 (class.html, class.csv, class.json, students/).")
                          .arg(QDir::toNativeSeparators(folder)));
}

void GradingDialog::updateButtons()
{
    const bool running = m_run->isRunning();
    m_grade->setEnabled(!running && !m_folder->text().trimmed().isEmpty());
    m_cancel->setEnabled(running);
    m_save->setEnabled(!running && !m_run->summary().is_null());
    m_folder->setEnabled(!running);
    m_measure->setEnabled(!running);
}

void addGradeFolderAction(QMenu *menu, QWidget *window)
{
    menu->addAction(QObject::tr("&Grade a Folder\u2026"), window, [window] {
        auto *dialog = window->findChild<GradingDialog *>(QString(), Qt::FindDirectChildrenOnly);
        if (!dialog)
            dialog = new GradingDialog(window);
        dialog->show();
        dialog->raise();
        dialog->activateWindow();
    });
}

} // namespace cuwb
