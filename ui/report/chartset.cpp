// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/report/chartset.h"

#include "ui/charts/chartwidget.h"
#include "ui/document/scenariodocument.h"
#include "ui/mainwindow/panelregistry.h"
#include "ui/panels/gridexplorerpanel.h"
#include "ui/report/chartkinds.h"
#include "ui/sweep/sweeprunner.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>
#include <QWidget>

namespace clusterplanner::ui {

namespace {

// The panels lay out as in a docked window of this size; exports choose their own size independently.
constexpr int kHostWidthPx = 960;
constexpr int kHostHeightPx = 600;

} // namespace

ChartSet::ChartSet(const core::Scenario& scenario, QObject* parent)
    : QObject(parent)
    , m_document(new ScenarioDocument(this))
    , m_host(std::make_unique<QWidget>())
{
    m_document->newDocument(scenario);
    m_host->resize(kHostWidthPx, kHostHeightPx);
}

ChartSet::~ChartSet() = default;

void ChartSet::setPalette(const QPalette& palette)
{
    m_host->setPalette(palette);
}

QWidget* ChartSet::panel(const char* name)
{
    const QString key = QString::fromLatin1(name);
    if (const auto it = m_panels.find(key); it != m_panels.end())
        return it->second;
    for (const PanelInfo& info : panels()) {
        if (key != QLatin1String(info.name))
            continue;
        QWidget* created = info.create(PanelContext {m_document, nullptr}, m_host.get());
        if (auto* explorer = qobject_cast<GridExplorerPanel*>(created))
            connect(explorer, &GridExplorerPanel::sweepFinished, this, [this] { m_sweepDone = true; });
        m_panels[key] = created;
        return created;
    }
    return nullptr;
}

ChartWidget* ChartSet::chart(const ChartKind& kind)
{
    QWidget* owner = panel(kind.panel);
    ChartWidget* chart = owner ? kind.find(owner) : nullptr;
    if (chart) {
        chart->setDisplayTitle(QCoreApplication::translate("ChartKind", kind.title));
        chart->setExportCaption(chartCaption(m_document->scenario()));
    }
    return chart;
}

GridExplorerPanel* ChartSet::grid()
{
    return qobject_cast<GridExplorerPanel*>(panel("grid"));
}

bool ChartSet::waitForSweep(int timeoutMs)
{
    grid();
    if (m_sweepDone)
        return true;
    // The sweep runs on a worker thread and reports through queued signals, so the loop must run until it ends.
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(grid(), &GridExplorerPanel::sweepFinished, &loop, &QEventLoop::quit);
    // A sweep that fails never finishes: stop waiting at once (the caller reports what it has).
    connect(grid()->runner(), &SweepRunner::failed, &loop, &QEventLoop::quit);
    timeout.start(timeoutMs);
    loop.exec();
    return m_sweepDone;
}

} // namespace clusterplanner::ui
