// CompileOptionsWidget: the Compile Options dock's content: target architecture (from NVRTC's
// list), optimisation level, -G, -lineinfo, --use_fast_math, -std, -maxrregcount, -D defines
// include folders and template instantiations (NVRTC name expressions). It shows the
// Workspace's compile options and writes the user's changes to it; the Workspace keeps them.
#pragma once

#include "compiler/compileoptions.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace cuwb {

class Workspace;

class CompileOptionsWidget : public QWidget
{
    Q_OBJECT

public:
    explicit CompileOptionsWidget(Workspace *workspace, QWidget *parent = nullptr);

    // "NAME=1; OTHER NAME2" -> {"NAME=1", "OTHER", "NAME2"}
    static QStringList splitDefines(const QString &text);
    // "scale<float>; tile<16, 8>" -> {"scale<float>", "tile<16, 8>"}: only ';' separates,
    // since template arguments hold commas and spaces.
    static QStringList splitNameExpressions(const QString &text);

private:
    // The options as the fields show them.
    [[nodiscard]] CompileOptions shownOptions() const;
    // Shows the Workspace's options.
    void showOptions();
    // The user changed a field: the Workspace takes the options the fields show.
    void edited();
    void addIncludeFolder();
    void removeIncludeFolder();

    Workspace *m_workspace = nullptr;

    QComboBox *m_compiler = nullptr;
    QComboBox *m_arch = nullptr;
    QComboBox *m_optLevel = nullptr;
    QComboBox *m_standard = nullptr;
    QSpinBox *m_maxRegisters = nullptr;
    QCheckBox *m_deviceDebug = nullptr;
    QCheckBox *m_lineInfo = nullptr;
    QCheckBox *m_fastMath = nullptr;
    QLineEdit *m_defines = nullptr;
    QLineEdit *m_nameExpressions = nullptr;
    QLineEdit *m_flags = nullptr;
    QListWidget *m_includeDirs = nullptr;
    QPushButton *m_removeInclude = nullptr;
    bool m_updating = false;
};

} // namespace cuwb
