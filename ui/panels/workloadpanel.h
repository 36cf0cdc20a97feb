// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario's workload for the shared-cluster simulation: a trace file (Tiresias, Philly, PAI, Helios) or a
// synthetic job stream, edited as part of the scenario and previewed as histograms of GPU counts, run times and
// arrivals by hour of day.
#pragma once

#include "core/sched/workloadspec.h"
#include "core/sched/workloadsummary.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace clusterplanner::ui {

class ScenarioDocument;
class SimulationRunner;
class StackedBarChart;
enum class ScenarioChange : unsigned;

class WorkloadPanel : public QWidget
{
    Q_OBJECT
public:
    explicit WorkloadPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    /// The spec the form shows.
    core::sched::WorkloadSpec spec() const;
    /// The summary the histograms show (empty before the first preview or after an error).
    const std::optional<core::sched::WorkloadSummary>& summary() const { return m_summary; }
    SimulationRunner* previewRunner() const { return m_preview; }
    QComboBox* sourceBox() const { return m_source; }
    QSpinBox* jobsBox() const { return m_jobs; }
    QLineEdit* gpuMixEdit() const { return m_gpuMix; }
    StackedBarChart* gpuChart() const { return m_gpuChart; }
    QLabel* summaryLabel() const { return m_summaryLabel; }

private:
    QWidget* buildForm();
    void showSpec(const core::sched::WorkloadSpec& spec);
    void commit();
    void startPreview();
    void showSummary();
    void browse();

    ScenarioDocument* m_document;
    SimulationRunner* m_preview;
    bool m_updating = false;
    QComboBox* m_source;
    QGroupBox* m_traceGroup;
    QGroupBox* m_syntheticGroup;
    QLineEdit* m_tracePath;
    QComboBox* m_traceFormat;
    QSpinBox* m_jobs;
    QSpinBox* m_seed;
    QDoubleSpinBox* m_arrivals;
    QDoubleSpinBox* m_diurnal;
    QDoubleSpinBox* m_peakHour;
    QSpinBox* m_users;
    QSpinBox* m_groups;
    QDoubleSpinBox* m_fractional;
    QLineEdit* m_gpuMix;
    QLabel* m_mixError;
    QLabel* m_summaryLabel;
    StackedBarChart* m_gpuChart;
    StackedBarChart* m_durationChart;
    StackedBarChart* m_arrivalChart;
    std::optional<core::sched::WorkloadSummary> m_summary;
};

} // namespace clusterplanner::ui
