// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/mainwindow/panelregistry.h"

#include "ui/panels/scenarioform.h"

#include <QtGlobal>

namespace clusterplanner::ui {

namespace {

template <typename Panel>
QWidget* make(ScenarioDocument* document, QWidget* parent)
{
    return new Panel(document, parent);
}

} // namespace

const std::vector<PanelInfo>& panels()
{
    static const std::vector<PanelInfo> table = {
        {"scenario", QT_TRANSLATE_NOOP("Panel", "Scenario"), Qt::LeftDockWidgetArea, &make<ScenarioForm>},
    };
    return table;
}

QStringList panelNames()
{
    QStringList names;
    for (const auto& panel : panels())
        names << QString::fromLatin1(panel.name);
    return names;
}

} // namespace clusterplanner::ui
