#include "gui/inspect/inspectoverlay.h"

#include "gui/common/qtconvert.h"
#include "inspect/sasslisting.h"

#include <QCoreApplication>

#include <algorithm>

namespace cuwb {

namespace {

QString trOverlay(const char *text)
{
    return QCoreApplication::translate("InspectOverlay", text);
}

} // namespace

bool isMainSourceLine(const LineCounters &line, const std::string &fileName)
{
    return line.line > 0 &&
           (line.file.empty() || line.file == fileName || isMainSourceFile(line.file, fileName));
}

double heatShare(const LineCounters &line, const InspectSummary &summary)
{
    return summary.stallSamples > 0 ? line.stallShare : line.share;
}

InspectOverlay makeInspectOverlay(const InspectSummary &summary, const std::string &fileName)
{
    InspectOverlay overlay;
    overlay.bySamples = summary.stallSamples > 0;
    double hottest = 0.0;
    for (const LineCounters &line : summary.lines) {
        if (isMainSourceLine(line, fileName))
            hottest = std::max(hottest, heatShare(line, summary));
    }
    std::vector<std::pair<double, int>> hot;
    for (const LineCounters &line : summary.lines) {
        if (!isMainSourceLine(line, fileName))
            continue;
        const double share = heatShare(line, summary);
        if (hottest > 0.0 && share > 0.0)
            overlay.heat.emplace_back(line.line, share / hottest);
        if (share >= kHotShare)
            hot.emplace_back(share, line.line);

        QStringList notes;
        for (const Finding &finding : line.findings)
            notes << toQString(finding.message);
        if (line.stallSamples > 0 && line.stallShare >= kStallShareToAnnotate)
            notes << trOverlay("where warps wait: %1 % of the samples \u2014 %2")
                         .arg(100.0 * line.stallShare, 0, 'f', 1)
                         .arg(toQString(topReasons(line.stallReasons, 3)));
        if (!notes.isEmpty())
            overlay.annotations[line.line] = notes.join(QLatin1Char('\n'));
    }
    std::stable_sort(hot.begin(), hot.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });
    for (const auto &[share, line] : hot)
        overlay.hotLines.push_back(line);
    return overlay;
}

} // namespace cuwb
