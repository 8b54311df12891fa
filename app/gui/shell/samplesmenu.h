// SamplesMenu: one entry per folder under samples/, opening the folder's main .cu file, and the
// classroom entries: a project opened and swept in one click.
// The samples folder is found from --samples-dir, beside the build tree, or the source tree
// the program was built from.
#pragma once

#include <QMenu>

namespace cuwb {

class SamplesMenu : public QMenu
{
    Q_OBJECT

public:
    explicit SamplesMenu(const QString &samplesDir, QWidget *parent = nullptr);

    // The first existing folder of: override, <exe>/../../samples, <exe>/../share/
    // cuda-workbench/samples, the source tree's samples/. Empty when none exists.
    static QString findSamplesDir(const QString &override = {});
    // samples/<name>/<name>.cu, or the first .cu file in the folder.
    static QString mainSourceOf(const QString &sampleDir);

Q_SIGNALS:
    void fileRequested(const QString &path);
    // Open the project and run the sweep preset `presetId` on it.
    void sweepRequested(const QString &projectPath, const QString &presetId);

private:
    QString m_samplesDir;
};

} // namespace cuwb
