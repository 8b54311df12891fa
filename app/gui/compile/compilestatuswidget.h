// CompileStatusWidget: the status bar's compile summary ("2 errors, 1 warning — 48 ms",
// "(cached)") with a busy indicator while a compile runs.
#pragma once

#include "compiler/compileresult.h"

#include <QWidget>

class QLabel;
class QProgressBar;

namespace cuwb {

class CompileStatusWidget : public QWidget
{
    Q_OBJECT

public:
    explicit CompileStatusWidget(QWidget *parent = nullptr);

    void setBusy(bool busy);
    void showResult(const CompileResult &result);
    void clear();
    [[nodiscard]] QString text() const;

    static QString summary(const CompileResult &result);

private:
    QLabel *m_icon = nullptr;
    QLabel *m_label = nullptr;
    QProgressBar *m_busy = nullptr;
};

} // namespace cuwb
