// BufferInitWidget: the fields of one buffer's initial contents, for the kind chosen in the
// Arguments table: a constant; a range's start and step; uniform random low, high and seed;
// normal random mean, deviation and seed; a file (.bin or .npy) with a browse button; or the
// buffer it copies.
#pragma once

#include "launch/launchspec.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace cuwb {

class BufferInitWidget : public QWidget
{
    Q_OBJECT

public:
    explicit BufferInitWidget(QWidget *parent = nullptr);

    // Shows `init` for buffer `name`; otherBuffers are offered for "copy of".
    void setInit(const QString &name, const BufferInit &init, const QStringList &otherBuffers);
    // Nothing to edit (a scalar, an output or no selection), with a hint why.
    void showHint(const QString &hint);
    [[nodiscard]] const BufferInit &init() const { return m_init; }

Q_SIGNALS:
    void initEdited(const cuwb::BufferInit &init);

private:
    QLineEdit *addField(QWidget *page, const QString &label, std::string BufferInit::*member);
    QSpinBox *addSeed(QWidget *page);
    void browse();
    void emitEdited();
    void fitToPage();

    QLabel *m_title = nullptr;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_hint = nullptr;
    QComboBox *m_copyOf = nullptr;
    QLineEdit *m_file = nullptr;
    QList<QPair<QLineEdit *, std::string BufferInit::*>> m_fields;
    QList<QSpinBox *> m_seeds;
    BufferInit m_init;
    bool m_updating = false;
};

} // namespace cuwb
