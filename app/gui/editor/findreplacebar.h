// FindReplaceBar: the find/replace strip under the editor: next/previous, match case, whole
// word, regular expression, replace and replace all (one undo step).
#pragma once

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QsciScintilla;
class QToolButton;

namespace cuwb {

class FindReplaceBar : public QWidget
{
    Q_OBJECT

public:
    explicit FindReplaceBar(QWidget *parent = nullptr);

    void setEditor(QsciScintilla *editor);
    // Shows the bar with the editor's selection as the search text.
    void showFind();
    void showReplace();

    void setFindText(const QString &text);
    void setReplaceText(const QString &text);
    void setMatchCase(bool on);
    void setWholeWord(bool on);
    void setRegularExpression(bool on);

    bool findNext();
    bool findPrevious();
    bool replaceCurrent();
    int replaceAll();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    bool find(bool forward);
    void setReplaceVisible(bool visible);
    void showResult(bool found);

    QPointer<QsciScintilla> m_editor;
    QLineEdit *m_findEdit = nullptr;
    QLineEdit *m_replaceEdit = nullptr;
    QCheckBox *m_matchCase = nullptr;
    QCheckBox *m_wholeWord = nullptr;
    QCheckBox *m_regex = nullptr;
    QPushButton *m_replaceButton = nullptr;
    QPushButton *m_replaceAllButton = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace cuwb
