#include "gui/editor/findreplacebar.h"

#include <Qsci/qsciscintilla.h>

#include <QCheckBox>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>

namespace cuwb {

FindReplaceBar::FindReplaceBar(QWidget *parent)
    : QWidget(parent)
    , m_findEdit(new QLineEdit(this))
    , m_replaceEdit(new QLineEdit(this))
    , m_matchCase(new QCheckBox(tr("Match case"), this))
    , m_wholeWord(new QCheckBox(tr("Whole word"), this))
    , m_regex(new QCheckBox(tr("Regex"), this))
    , m_replaceButton(new QPushButton(tr("Replace"), this))
    , m_replaceAllButton(new QPushButton(tr("Replace All"), this))
    , m_status(new QLabel(this))
{
    m_findEdit->setPlaceholderText(tr("Find"));
    m_findEdit->setClearButtonEnabled(true);
    m_replaceEdit->setPlaceholderText(tr("Replace with"));
    auto *previousButton = new QPushButton(tr("Previous"), this);
    auto *nextButton = new QPushButton(tr("Next"), this);
    auto *closeButton = new QToolButton(this);
    closeButton->setText(QStringLiteral("\u2715"));
    closeButton->setToolTip(tr("Close (Esc)"));
    closeButton->setAutoRaise(true);

    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setHorizontalSpacing(6);
    layout->setVerticalSpacing(4);
    layout->addWidget(m_findEdit, 0, 0);
    layout->addWidget(previousButton, 0, 1);
    layout->addWidget(nextButton, 0, 2);
    layout->addWidget(m_matchCase, 0, 3);
    layout->addWidget(m_wholeWord, 0, 4);
    layout->addWidget(m_regex, 0, 5);
    layout->addWidget(m_status, 0, 6);
    layout->addWidget(closeButton, 0, 7);
    layout->addWidget(m_replaceEdit, 1, 0);
    layout->addWidget(m_replaceButton, 1, 1);
    layout->addWidget(m_replaceAllButton, 1, 2);
    layout->setColumnStretch(0, 1);
    layout->setColumnStretch(6, 1);

    connect(m_findEdit, &QLineEdit::returnPressed, this, &FindReplaceBar::findNext);
    connect(m_replaceEdit, &QLineEdit::returnPressed, this, &FindReplaceBar::replaceCurrent);
    connect(nextButton, &QPushButton::clicked, this, &FindReplaceBar::findNext);
    connect(previousButton, &QPushButton::clicked, this, &FindReplaceBar::findPrevious);
    connect(m_replaceButton, &QPushButton::clicked, this, &FindReplaceBar::replaceCurrent);
    connect(m_replaceAllButton, &QPushButton::clicked, this, &FindReplaceBar::replaceAll);
    connect(closeButton, &QToolButton::clicked, this, &QWidget::hide);
    setReplaceVisible(false);
    hide();
}

void FindReplaceBar::setEditor(QsciScintilla *editor)
{
    m_editor = editor;
    m_status->clear();
}

void FindReplaceBar::showFind()
{
    setReplaceVisible(false);
    if (m_editor && m_editor->hasSelectedText() &&
        !m_editor->selectedText().contains(QLatin1Char('\n')))
        m_findEdit->setText(m_editor->selectedText());
    show();
    m_findEdit->setFocus();
    m_findEdit->selectAll();
}

void FindReplaceBar::showReplace()
{
    showFind();
    setReplaceVisible(true);
}

void FindReplaceBar::setFindText(const QString &text)
{
    m_findEdit->setText(text);
}

void FindReplaceBar::setReplaceText(const QString &text)
{
    m_replaceEdit->setText(text);
}

void FindReplaceBar::setMatchCase(bool on)
{
    m_matchCase->setChecked(on);
}

void FindReplaceBar::setWholeWord(bool on)
{
    m_wholeWord->setChecked(on);
}

void FindReplaceBar::setRegularExpression(bool on)
{
    m_regex->setChecked(on);
}

void FindReplaceBar::setReplaceVisible(bool visible)
{
    m_replaceEdit->setVisible(visible);
    m_replaceButton->setVisible(visible);
    m_replaceAllButton->setVisible(visible);
}

bool FindReplaceBar::find(bool forward)
{
    if (!m_editor || m_findEdit->text().isEmpty())
        return false;
    int line = -1;
    int index = -1;
    if (!forward && m_editor->hasSelectedText()) {
        // Searching backwards starts before the current match, not inside it.
        int lineTo = 0;
        int indexTo = 0;
        m_editor->getSelection(&line, &index, &lineTo, &indexTo);
    }
    const bool found = m_editor->findFirst(m_findEdit->text(), m_regex->isChecked(),
                                           m_matchCase->isChecked(), m_wholeWord->isChecked(), true,
                                           forward, line, index, true, false, m_regex->isChecked());
    showResult(found);
    return found;
}

bool FindReplaceBar::findNext()
{
    return find(true);
}

bool FindReplaceBar::findPrevious()
{
    return find(false);
}

bool FindReplaceBar::replaceCurrent()
{
    if (!m_editor || m_editor->isReadOnly())
        return false;
    // Replace the current match if the selection is one, then move to the next.
    if (m_editor->hasSelectedText()) {
        int lineFrom = 0, indexFrom = 0, lineTo = 0, indexTo = 0;
        m_editor->getSelection(&lineFrom, &indexFrom, &lineTo, &indexTo);
        const bool isMatch =
            m_editor->findFirst(m_findEdit->text(), m_regex->isChecked(), m_matchCase->isChecked(),
                                m_wholeWord->isChecked(), false, true, lineFrom, indexFrom, true,
                                false, m_regex->isChecked());
        int l0 = 0, i0 = 0, l1 = 0, i1 = 0;
        m_editor->getSelection(&l0, &i0, &l1, &i1);
        if (isMatch && l0 == lineFrom && i0 == indexFrom && l1 == lineTo && i1 == indexTo)
            m_editor->replace(m_replaceEdit->text());
    }
    return findNext();
}

int FindReplaceBar::replaceAll()
{
    if (!m_editor || m_editor->isReadOnly() || m_findEdit->text().isEmpty())
        return 0;
    int count = 0;
    m_editor->beginUndoAction();
    bool found = m_editor->findFirst(m_findEdit->text(), m_regex->isChecked(),
                                     m_matchCase->isChecked(), m_wholeWord->isChecked(), false,
                                     true, 0, 0, false, false, m_regex->isChecked());
    // The cap guards against a pattern that matches the empty string forever.
    const int limit = m_editor->length() + 1;
    while (found && count < limit) {
        m_editor->replace(m_replaceEdit->text());
        ++count;
        found = m_editor->findNext();
    }
    m_editor->endUndoAction();
    m_status->setText(count == 1 ? tr("1 replacement") : tr("%1 replacements").arg(count));
    return count;
}

void FindReplaceBar::showResult(bool found)
{
    m_status->setText(found ? QString() : tr("Not found"));
}

void FindReplaceBar::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        if (m_editor)
            m_editor->setFocus();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace cuwb
