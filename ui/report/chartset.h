// SPDX-License-Identifier: GPL-3.0-or-later
// The panels of one scenario built off screen, so that charts can be exported without a window or a display.
#pragma once

#include "core/model/scenario.h"

#include <QObject>
#include <QString>

#include <map>
#include <memory>

class QPalette;
class QWidget;

namespace clusterplanner::ui {

class ChartWidget;
class GridExplorerPanel;
class ScenarioDocument;
struct ChartKind;

/// Owns a document holding the scenario and the panels that draw the requested charts, never shown. The panels are
/// the ones the main window uses, so an exported chart is drawn by the same code as on screen.
class ChartSet : public QObject
{
    Q_OBJECT
public:
    explicit ChartSet(const core::Scenario& scenario, QObject* parent = nullptr);
    ~ChartSet() override;

    ScenarioDocument* document() const { return m_document; }
    /// Palette of every panel and chart (the report prints in the light palette whatever the application uses).
    void setPalette(const QPalette& palette);
    /// The chart of `kind`, creating its panel on first use; charts of the sweep are complete once it finished.
    ChartWidget* chart(const ChartKind& kind);
    /// The layout explorer (created on first use).
    GridExplorerPanel* grid();
    /// Runs the event loop until the layout sweep has finished; false after `timeoutMs`.
    bool waitForSweep(int timeoutMs);
    /// The panel named as in panelregistry.h, created on first use; nullptr for an unknown name.
    QWidget* panel(const char* name);

private:
    ScenarioDocument* m_document;
    std::unique_ptr<QWidget> m_host; ///< parent of the panels, never shown
    std::map<QString, QWidget*> m_panels;
    bool m_sweepDone = false;
};

} // namespace clusterplanner::ui
