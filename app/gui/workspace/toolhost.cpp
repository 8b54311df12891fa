#include "gui/workspace/toolhost.h"

#include "gui/common/qtconvert.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/workspace/workspace.h"

#include <QDockWidget>
#include <QMainWindow>

namespace cuwb {

ToolHost::ToolHost(QObject *parent)
    : QObject(parent)
{}

ToolHost::~ToolHost() = default;

QDockWidget *ToolHost::addDock(const QString &title, const QString &objectName, QWidget *widget,
                               Qt::DockWidgetArea area, const QString &tabbedWith)
{
    auto *dock = new QDockWidget(title, window());
    dock->setObjectName(objectName);
    dock->setWidget(widget);
    placeDock(dock, area, tabbedWith);
    return dock;
}

QAction *ToolHost::action(const QString &id) const
{
    return m_actions.value(id);
}

void ToolHost::registerAction(const QString &id, QAction *action)
{
    m_actions.insert(id, action);
}

void ToolHost::addTool(QObject *tool)
{
    if (!m_tools.contains(tool))
        m_tools.append(tool);
}

Document *ToolHost::currentDocument() const
{
    return documents()->currentDocument();
}

QString ToolHost::currentKernel() const
{
    return toQString(workspace()->launch().loweredName());
}

void ToolHost::goToSourceLine(int line) const
{
    if (Document *document = currentDocument())
        document->editor()->goToLocation(line, 1);
}

} // namespace cuwb
