// SPDX-License-Identifier: GPL-3.0-or-later
// "This machine": the NVIDIA GPUs probed here as cards, their topology, the catalog match, a button that plans
// with them and micro-benchmarks whose results can become the GPU family's efficiency override.
#pragma once

#include "core/model/scenario.h"
#include "core/probe/catalogmatch.h"
#include "core/probe/gpuprobe.h"
#include "core/probe/microbench.h"

#include <QWidget>

#include <memory>

class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;

namespace clusterplanner::ui {

class LocalCatalogFile;
class MachineBenchRunner;
class MachineTopologyView;
class ScenarioDocument;

/// before with gpuCount GPUs of gpuId in one node; the layout's TP shrinks to a power of two dividing the count
/// (PP and CP to 1) and DP takes the rest, so that dp·tp·pp·cp equals the GPUs.
core::Scenario scenarioForMachine(const core::Scenario& before, const std::string& gpuId, int gpuCount);

class MachinePanel : public QWidget
{
    Q_OBJECT
public:
    MachinePanel(ScenarioDocument* document, QWidget* parent = nullptr);
    ~MachinePanel() override;

    /// Probes again (the first probe runs when the panel is first shown).
    void probe();
    const core::probe::ProbeResult& result() const { return m_result; }
    /// Sets the scenario's GPU type, count and GPUs per node from the probe, as one undo step.
    void useGpus();
    void runBenchmarks();
    /// Where the local catalog and overrides are kept; tests pass a temporary folder.
    void setStorageFolder(const QString& folder);
    MachineBenchRunner* benchRunner() const { return m_runner; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void createWidgets();
    void createLayout();
    void connectActions();
    void populate();
    void populateCards();
    void showNoGpu();
    void addToLocalCatalog(int gpuIndex);
    void showBenchResults(const std::vector<core::probe::BenchResult>& results, bool cancelled);
    void saveOverride();
    void revertOverride();
    void showOverride();
    std::string firstMatchedId() const;

    ScenarioDocument* m_document;
    core::probe::ProbeOptions m_options;
    core::probe::ProbeResult m_result;
    core::probe::ProbeCatalog m_catalog;
    std::vector<core::probe::BenchResult> m_bench;
    std::unique_ptr<LocalCatalogFile> m_storage;
    MachineBenchRunner* m_runner;
    bool m_probed = false;

    QLabel* m_summary;
    QLabel* m_help;
    QWidget* m_cardsBox;
    QGridLayout* m_cards;
    MachineTopologyView* m_topology;
    QLabel* m_topologySummary;
    QLabel* m_benchText;
    QLabel* m_overrideText;
    QPushButton* m_probeButton;
    QPushButton* m_useButton;
    QPushButton* m_benchButton;
    QPushButton* m_cancelButton;
    QPushButton* m_saveOverrideButton;
    QPushButton* m_revertOverrideButton;
    QProgressBar* m_progress;
};

} // namespace clusterplanner::ui
