// CompileOptionsWidget: the Compile Options dock's content: target architecture (from NVRTC's
// list), optimisation level, -G, -lineinfo, --use_fast_math, -std, -maxrregcount, -D defines
// include folders and template instantiations (NVRTC name expressions). Every change emits
// optionsChanged(); the values persist in QSettings.
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

class CompileOptionsWidget : public QWidget
{
    Q_OBJECT

public:
    explicit CompileOptionsWidget(QWidget *parent = nullptr);

    [[nodiscard]] CompileOptions options() const;
    void setOptions(const CompileOptions &options);

    // Restores the options saved by saveSettings(); returns false when none were saved.
    bool loadSettings();
    void saveSettings() const;

    // The architecture of the first GPU found; it becomes the target unless the user chose
    // one (now or in an earlier session).
    void setDeviceArchitecture(const QString &arch);

    // "NAME=1; OTHER NAME2" -> {"NAME=1", "OTHER", "NAME2"}
    static QStringList splitDefines(const QString &text);
    // "scale<float>; tile<16, 8>" -> {"scale<float>", "tile<16, 8>"}: only ';' separates,
    // since template arguments hold commas and spaces.
    static QStringList splitNameExpressions(const QString &text);

Q_SIGNALS:
    void optionsChanged();

private:
    void addIncludeFolder();
    void removeIncludeFolder();
    void selectArchitecture(const QString &arch);
    void onArchitectureChosen();

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
    bool m_userChoseArch = false;
    bool m_updating = false;
};

} // namespace cuwb
