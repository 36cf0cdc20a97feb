// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/gridexplorerpanel.h"

#include "core/sweep/layoutevaluator.h"
#include "core/validation/confidence.h"
#include "ui/charts/heatmapchart.h"
#include "ui/charts/scatterchart.h"
#include "ui/document/scenariodocument.h"
#include "ui/models/layouttablemodel.h"
#include "ui/panels/enumlabels.h"
#include "ui/sweep/sweeprunner.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace clusterplanner::ui {

namespace {

constexpr int kTopRows = 200;
constexpr std::size_t kMaxScatterPoints = 5000; // keeps the redraw after a sweep well under 50 ms

core::Scenario sweepKey(const core::Scenario& scenario)
{
    // Everything a sweep varies is reset, so two scenarios that differ only in the chosen layout share a key. The
    // layout's settings the sweep carries into every layout (core/sweep/layoutspace.cpp) stay: the expert TP and
    // the hybrid shard degree.
    core::Scenario key = core::applyCandidate(scenario, core::LayoutCandidate {});
    key.training.layout.expertTp = scenario.training.layout.expertTp;
    key.training.layout.dpShard = scenario.training.layout.dpShard;
    key.name.clear();
    key.notes.clear();
    return key;
}

QComboBox* enumCombo(const QString& objectName, const QStringList& items, int current)
{
    auto* combo = new QComboBox;
    combo->setObjectName(objectName);
    combo->addItems(items);
    combo->setCurrentIndex(current);
    return combo;
}

QStringList axisNames()
{
    QStringList names;
    for (int i = 0; i <= int(LayoutAxis::VirtualStages); ++i)
        names << axisName(LayoutAxis(i));
    return names;
}

QStringList metricNames()
{
    QStringList names;
    for (int i = 0; i <= int(GridMetric::CostPerMTokens); ++i)
        names << metricName(GridMetric(i));
    return names;
}

} // namespace

GridExplorerPanel::GridExplorerPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_runner(new SweepRunner([](const core::Scenario& s) { return core::makeLayoutEvaluator(s); }, this))
{
    setObjectName(QStringLiteral("gridExplorerPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(createControls());
    layout->addWidget(createViews(), 1);
    layout->addStretch(0); // with the views hidden (a failed sweep) the controls and the reason stay at the top
    connectSignals();
    rebuildGrid();
    onScenarioChanged();
}

GridExplorerPanel::~GridExplorerPanel() = default;

QWidget* GridExplorerPanel::createControls()
{
    m_xAxis = enumCombo(QStringLiteral("grid.xAxis"), axisNames(), int(LayoutAxis::Tp));
    m_yAxis = enumCombo(QStringLiteral("grid.yAxis"), axisNames(), int(LayoutAxis::Pp));
    m_metric = enumCombo(QStringLiteral("grid.metric"), metricNames(), int(GridMetric::TokensPerGpu));
    m_otherDims
        = enumCombo(QStringLiteral("grid.otherDimensions"), {tr("optimized per cell"), tr("fixed to the scenario")}, 0);
    m_otherDims->setToolTip(tr("Optimized: each cell shows its best layout over all other dimensions.\n"
                               "Fixed: the other dimensions keep the scenario's values."));
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(160);
    m_cancel = new QPushButton(tr("Cancel"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("grid.status"));
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // long texts must not widen the window
    m_status->setWordWrap(true); // ...and wrap instead of being cut (a failed sweep's message is a sentence)
    // How far the figures below may be off: the validated error of the nearest family (core/validation/confidence.h),
    // shown, not hovered, since it qualifies every number in the panel.
    m_confidence = new QLabel;
    m_confidence->setObjectName(QStringLiteral("grid.confidence"));
    m_confidence->setWordWrap(true);
    m_confidence->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* controls = new QWidget;
    auto* rows = new QVBoxLayout(controls);
    rows->setContentsMargins(0, 0, 0, 0);
    auto* choices = new QHBoxLayout;
    for (auto [label, widget] : {std::pair {tr("X:"), m_xAxis}, {tr("Y:"), m_yAxis}, {tr("Colour:"), m_metric},
             {tr("Other dimensions:"), m_otherDims}}) {
        choices->addWidget(new QLabel(label));
        choices->addWidget(widget, 1);
    }
    auto* progress = new QHBoxLayout;
    progress->addWidget(m_progress);
    progress->addWidget(m_cancel);
    progress->addWidget(m_status, 1);
    rows->addLayout(choices);
    rows->addLayout(progress);
    rows->addWidget(m_confidence);
    return controls;
}

QWidget* GridExplorerPanel::createViews()
{
    m_heatmap = new HeatmapChart;
    m_heatmap->setObjectName(QStringLiteral("grid-heatmap"));
    m_scatter = new ScatterChart;
    m_scatter->setObjectName(QStringLiteral("memory-vs-throughput"));
    m_scatter->setAxisTitles(tr("memory headroom (GiB)"), tr("tokens/s per GPU"));
    m_scatter->setTooltipProvider([this](int index) {
        const auto& r = m_scatterResults.at(std::size_t(index));
        return tr("%1\n%2 tokens/s per GPU · %3 GiB headroom")
            .arg(layoutSummary(r.candidate))
            .arg(r.tokensPerSPerGpu, 0, 'f', 0)
            .arg(r.headroomGiB(), 0, 'f', 1);
    });
    m_model = new LayoutTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(LayoutTableModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("grid.topLayouts"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->sortByColumn(LayoutTableModel::TokensPerGpu, Qt::DescendingOrder);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_filter = new QLineEdit;
    m_filter->setPlaceholderText(tr("Filter the layouts (any column, e.g. \"selective\" or \"1f1b\")"));
    auto* tablePage = new QWidget;
    auto* tableLayout = new QVBoxLayout(tablePage);
    tableLayout->addWidget(m_filter);
    tableLayout->addWidget(m_table);
    auto* tabs = new QTabWidget;
    tabs->addTab(tablePage, tr("Top layouts"));
    tabs->addTab(m_scatter, tr("Memory vs throughput"));
    auto* splitter = new QSplitter(Qt::Horizontal);
    m_views = splitter;
    splitter->addWidget(m_heatmap);
    splitter->addWidget(tabs);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    return splitter;
}

void GridExplorerPanel::connectSignals()
{
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &GridExplorerPanel::onScenarioChanged);
    connect(m_runner, &SweepRunner::resultsAvailable, this, &GridExplorerPanel::onBatch);
    connect(m_runner, &SweepRunner::finished, this, &GridExplorerPanel::onFinished);
    connect(m_runner, &SweepRunner::progress, m_progress, [this](int permille) { m_progress->setValue(permille); });
    connect(m_runner, &SweepRunner::failed, this, [this](const QString& message) {
        m_status->setText(tr("Sweep failed: %1").arg(message));
        m_views->setVisible(false); // an empty heatmap would show a colour scale of nothing
        m_confidence->clear(); // no figures for an error band to qualify
        m_cancel->setEnabled(false);
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_runner->cancel();
        m_cancel->setEnabled(false);
        m_status->setText(tr("Cancelled after %1 layouts").arg(m_results.size()));
    });
    for (QComboBox* combo : {m_xAxis, m_yAxis, m_metric, m_otherDims})
        connect(combo, &QComboBox::currentIndexChanged, this, &GridExplorerPanel::rebuildGrid);
    connect(m_heatmap, &HeatmapChart::cellClicked, this, &GridExplorerPanel::selectCell);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) {
        selectLayout(m_model->resultAt(m_proxy->mapToSource(index).row()).candidate);
    });
    connect(m_scatter, &ScatterChart::pointClicked, this,
        [this](int index) { selectLayout(m_scatterResults.at(std::size_t(index)).candidate); });
}

void GridExplorerPanel::onScenarioChanged()
{
    const core::Scenario key = sweepKey(m_document->scenario());
    if (!m_haveKey || !(key == m_sweptKey)) {
        m_sweptKey = key;
        m_haveKey = true;
        restartSweep();
        return;
    }
    rebuildGrid(); // only the selected layout changed: the results stand
}

void GridExplorerPanel::restartSweep()
{
    m_results.clear();
    m_grid.clear();
    m_progress->setValue(0);
    m_cancel->setEnabled(true);
    m_status->setText(tr("Sweeping…"));
    m_views->setVisible(true);
    // The framework bounds the free dimensions; say which, so a missing schedule or ZeRO stage is explained.
    m_status->setToolTip(frameworkOptionsText(m_document->scenario().training.framework));
    const auto bands = core::confidenceBands(m_document->scenario()); // throughput first, then memory
    m_confidence->setText(bands.empty() ? QString() : QString::fromStdString(bands.front().statement));
    core::SweepSpec spec;
    spec.keepAll = false; // the panel keeps what streams in; the final result needs only the top and the front
    m_runner->start(m_document->scenario(), spec, m_document->revision());
    refreshHeatmap();
}

void GridExplorerPanel::onBatch(const QVector<core::LayoutResult>& batch, quint64 revision)
{
    if (revision != m_runner->revision())
        return; // a superseded sweep
    m_results.insert(m_results.end(), batch.begin(), batch.end());
    m_grid.add({batch.data(), std::size_t(batch.size())});
    refreshHeatmap();
}

void GridExplorerPanel::onFinished(quint64 revision)
{
    if (revision != m_runner->revision())
        return;
    const auto& summary = m_runner->lastResult().summary;
    m_cancel->setEnabled(false);
    m_progress->setValue(1000);
    m_status->setText(tr("%1 layouts, %2 valid, %3 fit · %4 s (%5 layouts/s)")
                          .arg(summary.evaluated)
                          .arg(summary.valid)
                          .arg(summary.fitting)
                          .arg(summary.seconds, 0, 'f', 2)
                          .arg(summary.layoutsPerS, 0, 'f', 0));
    refreshTableAndScatter();
    Q_EMIT sweepFinished();
}

void GridExplorerPanel::rebuildGrid()
{
    const bool fixed = m_otherDims->currentIndex() == 1;
    m_grid.configure(LayoutAxis(m_xAxis->currentIndex()), LayoutAxis(m_yAxis->currentIndex()),
        GridMetric(m_metric->currentIndex()),
        fixed ? std::optional(core::candidateOf(m_document->scenario())) : std::nullopt);
    m_grid.add(m_results);
    refreshHeatmap();
    if (!m_runner->isRunning() && !m_results.empty())
        refreshTableAndScatter();
}

void GridExplorerPanel::refreshHeatmap()
{
    const auto xs = m_grid.xValues();
    const auto ys = m_grid.yValues();
    const auto selected = core::candidateOf(m_document->scenario());
    QStringList xLabels, yLabels;
    for (int x : xs)
        xLabels << QString::number(x);
    for (int y : ys)
        yLabels << QString::number(y);
    QVector<HeatmapCell> cells;
    std::optional<QPoint> selectedCell;
    for (int iy = 0; iy < ys.size(); ++iy) {
        for (int ix = 0; ix < xs.size(); ++ix) {
            const GridCell* cell = m_grid.cell(xs[ix], ys[iy]);
            HeatmapCell shown;
            if (cell) {
                if (cell->best)
                    shown.value = metricValue(*cell->best, m_grid.metric());
                shown.tooltip = m_grid.describe(*cell);
            }
            cells << shown;
            if (axisValue(selected, m_grid.xAxis()) == xs[ix] && axisValue(selected, m_grid.yAxis()) == ys[iy])
                selectedCell = QPoint(ix, iy);
        }
    }
    m_heatmap->setHigherIsBetter(higherIsBetter(m_grid.metric()));
    m_heatmap->setAxisTitles(axisName(m_grid.xAxis()), axisName(m_grid.yAxis()), metricName(m_grid.metric()));
    m_heatmap->setGrid(xLabels, yLabels, std::move(cells));
    m_heatmap->setSelectedCell(selectedCell);
}

void GridExplorerPanel::refreshTableAndScatter()
{
    std::vector<core::LayoutResult> fitting;
    for (const auto& r : m_results)
        if (r.valid && r.fits)
            fitting.push_back(r);
    const GridMetric metric = m_grid.metric();
    const auto order = [metric](const core::LayoutResult& a, const core::LayoutResult& b) {
        return higherIsBetter(metric) ? metricValue(a, metric) > metricValue(b, metric)
                                      : metricValue(a, metric) < metricValue(b, metric);
    };
    const std::size_t top = std::min<std::size_t>(kTopRows, fitting.size());
    std::partial_sort(fitting.begin(), fitting.begin() + long(top), fitting.end(), order);
    m_model->setResults({fitting.begin(), fitting.begin() + long(top)});
    // The scatter shows an even sample of all fitting layouts plus the whole Pareto front.
    m_scatterResults = core::paretoFront(fitting);
    const std::size_t stride = std::max<std::size_t>(1, fitting.size() / kMaxScatterPoints);
    for (std::size_t i = 0; i < fitting.size(); i += stride)
        m_scatterResults.push_back(fitting[i]);
    includeSelected(fitting);
    QVector<ScatterPoint> points;
    points.reserve(qsizetype(m_scatterResults.size()));
    for (const auto& r : m_scatterResults)
        points.push_back(
            {r.headroomGiB(), r.tokensPerSPerGpu, {}}); // tooltips are built on hover: 20k strings cost 100 ms
    m_scatter->setPoints(std::move(points));
    m_scatter->setSelected(selectedScatterIndex());
}

void GridExplorerPanel::includeSelected(const std::vector<core::LayoutResult>& fitting)
{
    // The even sample may skip the scenario's own layout; the scatter marks it, so it must be among the points.
    if (selectedScatterIndex())
        return;
    const core::LayoutCandidate selected = core::candidateOf(m_document->scenario());
    const auto it = std::find_if(
        fitting.begin(), fitting.end(), [&](const core::LayoutResult& r) { return r.candidate == selected; });
    if (it != fitting.end())
        m_scatterResults.push_back(*it);
}

std::optional<int> GridExplorerPanel::selectedScatterIndex() const
{
    const core::LayoutCandidate selected = core::candidateOf(m_document->scenario());
    const auto it = std::find_if(m_scatterResults.begin(), m_scatterResults.end(),
        [&](const core::LayoutResult& r) { return r.candidate == selected; });
    if (it == m_scatterResults.end())
        return std::nullopt; // not a fitting layout of this sweep: nothing to mark
    return int(it - m_scatterResults.begin());
}

void GridExplorerPanel::selectCell(int xIndex, int yIndex)
{
    const auto xs = m_grid.xValues();
    const auto ys = m_grid.yValues();
    if (xIndex < 0 || yIndex < 0 || xIndex >= xs.size() || yIndex >= ys.size())
        return;
    const GridCell* cell = m_grid.cell(xs[xIndex], ys[yIndex]);
    if (cell && cell->best)
        selectLayout(cell->best->candidate);
}

void GridExplorerPanel::selectLayout(const core::LayoutCandidate& candidate)
{
    m_document->edit(
        core::applyCandidate(m_document->scenario(), candidate), tr("Select layout %1").arg(layoutSummary(candidate)));
}

} // namespace clusterplanner::ui
