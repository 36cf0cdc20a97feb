// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/scenarioform.h"

#include "core/model/gpucatalog.h"
#include "core/model/modelpresets.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/columnflow.h"
#include "ui/panels/formbinder.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace clusterplanner::ui {

namespace {

constexpr int kMaxDim = 1'000'000; // the file format's bound on widths (core/io/scenariojson.cpp)
constexpr int kMaxGpus = 10'000'000;
constexpr int kColumnWidthPx = 430; // a form column is readable from about this width

QString problemStyle()
{
    return QStringLiteral("color: palette(text); background: rgba(220, 50, 47, 40); border-radius: 3px; padding: 4px;");
}

} // namespace

ScenarioForm::ScenarioForm(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_binder(new FormBinder(document, this))
{
    createLayout();
    createModelGroup();
    createMoeGroup();
    createClusterGroup();
    createTrainingGroup();
    createLayoutGroup();
    createEconomicsGroup();
    createNotesGroup();
    addDerivedRefreshers();
    connect(m_document, &ScenarioDocument::scenarioChanged, m_binder, &FormBinder::refresh);
    m_binder->refresh();
    m_flow->setLastWidgetGrows(true); // the notes
    m_flow->setColumns(1);
}

ScenarioForm::~ScenarioForm() = default;

void ScenarioForm::createLayout()
{
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_content = new QWidget;
    auto* contentLayout = new QVBoxLayout(m_content);
    m_problemLabel = new QLabel;
    m_problemLabel->setObjectName(QStringLiteral("scenario.problem"));
    m_problemLabel->setWordWrap(true);
    m_problemLabel->setStyleSheet(problemStyle());
    contentLayout->addWidget(m_problemLabel);
    m_flow = new ColumnFlow;
    contentLayout->addWidget(m_flow, 1);
    scroll->setWidget(m_content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
}

QFormLayout* ScenarioForm::addGroup(const QString& title, const char* objectName)
{
    auto* group = new QGroupBox(title);
    group->setObjectName(QString::fromLatin1(objectName));
    auto* form = new QFormLayout(group);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    m_flow->addWidget(group);
    m_lastGroup = group;
    return form;
}

void ScenarioForm::createModelGroup()
{
    QFormLayout* form = addGroup(tr("Model"), "group.model");
    QStringList presetNames;
    for (const auto& preset : core::modelPresets())
        presetNames << QString::fromStdString(preset.name);
    auto* preset = new QComboBox;
    preset->addItems(presetNames);
    preset->addItem(tr("Custom"));
    m_binder->addRow(form,
        {"model.preset", tr("Preset"),
            tr("Fill in a published architecture; any edit below makes "
               "the model custom")},
        preset);
    connect(preset, &QComboBox::currentIndexChanged, this, &ScenarioForm::applyPreset);
    m_binder->addRefresher([this, preset](core::Scenario&) {
        const QSignalBlocker blocker(preset);
        const int index = core::findModelPreset(m_document->scenario().model);
        preset->setCurrentIndex(index >= 0 ? index : preset->count() - 1);
    });
    m_binder->textField(form, {"model.name", tr("Model name"), tr("Display name of the model architecture")},
        [](core::Scenario& s) -> std::string& { return s.model.name; });
    m_binder->intField(
        form, {"model.layers", tr("Layers"), tr("Number of transformer blocks (L)")},
        [](core::Scenario& s) -> int& { return s.model.layers; }, 1, 100'000);
    m_binder->intField(
        form, {"model.hidden", tr("Hidden size"), tr("Model width h; must be a multiple of the heads")},
        [](core::Scenario& s) -> int& { return s.model.hidden; }, 1, kMaxDim);
    m_binder->intField(
        form, {"model.heads", tr("Attention heads"), tr("Query heads a")},
        [](core::Scenario& s) -> int& { return s.model.heads; }, 1, 100'000);
    m_binder->intField(
        form, {"model.kvHeads", tr("KV heads"), tr("Key/value heads (grouped-query attention); must divide the heads")},
        [](core::Scenario& s) -> int& { return s.model.kvHeads; }, 1, 100'000);
    m_binder->intField(
        form, {"model.ffnHidden", tr("FFN size"), tr("Inner width of the dense MLP")},
        [](core::Scenario& s) -> int& { return s.model.ffnHidden; }, 1, kMaxDim * 8);
    m_binder->intField(
        form, {"model.vocab", tr("Vocabulary"), tr("Vocabulary size V (tokens)")},
        [](core::Scenario& s) -> int& { return s.model.vocab; }, 1, 100'000'000, tr(" tokens"));
    m_binder->intField(
        form, {"model.seqLen", tr("Sequence length"), tr("Training sequence length s")},
        [](core::Scenario& s) -> int& { return s.model.seqLen; }, 1, 100'000'000, tr(" tokens"));
    m_binder->enumField<core::MlpKind>(form, {"model.mlp", tr("MLP"), tr("Activation and number of MLP matrices")},
        [](core::Scenario& s) -> core::MlpKind& { return s.model.mlp; });
    m_binder->enumField<core::NormKind>(form, {"model.norm", tr("Normalisation"), tr("Normalisation layer type")},
        [](core::Scenario& s) -> core::NormKind& { return s.model.norm; });
    m_binder->boolField(form,
        {"model.tiedEmbeddings", tr("Tied embeddings"), tr("Input embedding and output layer share one matrix")},
        [](core::Scenario& s) -> bool& { return s.model.tiedEmbeddings; });
}

void ScenarioForm::createMoeGroup()
{
    QFormLayout* form = addGroup(tr("Mixture of experts"), "group.moe");
    m_moeGroup = m_lastGroup;
    auto* enabled = new QCheckBox(tr("Mixture-of-experts MLP"));
    enabled->setObjectName(QStringLiteral("model.moe.enabled"));
    enabled->setToolTip(tr("Replace the dense MLP by routed experts in some or all layers"));
    form->addRow(enabled);
    connect(enabled, &QCheckBox::toggled, this, &ScenarioForm::setMoeEnabled);
    m_binder->addRefresher([this, enabled](core::Scenario&) {
        const QSignalBlocker blocker(enabled);
        const auto& moe = m_document->scenario().model.moe;
        enabled->setChecked(moe.has_value());
        if (moe)
            m_lastMoe = *moe;
    });
    m_binder->intField(
        form, {"model.moe.experts", tr("Routed experts"), tr("Experts per MoE layer (E)")},
        [](core::Scenario& s) -> int& { return s.model.moe->experts; }, 1, 100'000);
    m_binder->intField(
        form, {"model.moe.topK", tr("Active experts"), tr("Experts each token is routed to (top-k)")},
        [](core::Scenario& s) -> int& { return s.model.moe->topK; }, 1, 100'000);
    m_binder->intField(
        form, {"model.moe.expertFfnHidden", tr("Expert FFN size"), tr("Inner width of one expert")},
        [](core::Scenario& s) -> int& { return s.model.moe->expertFfnHidden; }, 1, kMaxDim);
    m_binder->intField(
        form, {"model.moe.sharedExperts", tr("Shared experts"), tr("Experts every token goes through")},
        [](core::Scenario& s) -> int& { return s.model.moe->sharedExperts; }, 0, 1024);
    m_binder->intField(
        form,
        {"model.moe.moeLayers", tr("MoE layers"), tr("Layers with experts; the others are dense. 0 = every layer")},
        [](core::Scenario& s) -> int& { return s.model.moe->moeLayers; }, 0, 100'000);
    m_binder->numberField(
        form,
        {"model.moe.capacityFactor", tr("Capacity factor"), tr("Token slots per expert relative to a balanced load")},
        [](core::Scenario& s) -> double& { return s.model.moe->capacityFactor; }, 0.1, 64.0, 2);
}

void ScenarioForm::createClusterGroup()
{
    QFormLayout* form = addGroup(tr("Cluster"), "group.cluster");
    const auto& gpus = core::GpuCatalog::builtin().gpus();
    QStringList labels;
    for (const auto& gpu : gpus)
        labels << tr("%1 (%2 GB)").arg(QString::fromStdString(gpu.name)).arg(gpu.memoryGB);
    auto read = [&gpus](core::Scenario& s) {
        const auto it
            = std::find_if(gpus.begin(), gpus.end(), [&](const auto& gpu) { return gpu.id == s.cluster.gpuId; });
        return it == gpus.end() ? -1 : static_cast<int>(it - gpus.begin());
    };
    // A NIC still at the old GPU's reference figure follows the new GPU's (DGX A100 200 Gb/s, DGX H100 400 Gb/s):
    // one edit, so undo restores both; a NIC the user set stays.
    auto write = [&gpus](core::Scenario& s, int index) {
        const core::GpuSpec* old = core::GpuCatalog::builtin().find(s.cluster.gpuId);
        const core::GpuSpec& chosen = gpus.at(index);
        if (old && old->scaleoutGbpsPerGpu == s.cluster.nicGbps && chosen.scaleoutGbpsPerGpu > 0)
            s.cluster.nicGbps = chosen.scaleoutGbpsPerGpu;
        s.cluster.gpuId = chosen.id;
    };
    m_binder->choiceField(
        form, {"cluster.gpu", tr("GPU type"), tr("Accelerator from the built-in GPU catalog")}, labels, read, write);
    m_binder->intField(
        form, {"cluster.gpuCount", tr("GPUs"), tr("Total number of GPUs in the job")},
        [](core::Scenario& s) -> int& { return s.cluster.gpuCount; }, 1, kMaxGpus);
    m_binder->intField(
        form, {"cluster.gpusPerNode", tr("GPUs per node"), tr("GPUs sharing one server (NVLink domain)")},
        [](core::Scenario& s) -> int& { return s.cluster.gpusPerNode; }, 1, 1024);
    m_nodeCountLabel = new QLabel;
    m_binder->addRow(form, {"cluster.nodeCount", tr("Nodes"), tr("Servers needed: GPUs / GPUs per node, rounded up")},
        m_nodeCountLabel);
    m_binder->numberField(
        form,
        {"cluster.nicGbps", tr("Scale-out NIC"),
            tr("Network bandwidth per GPU, each way; follows the GPU type's reference system (DGX A100: "
               "200 Gb/s) until you set it")},
        [](core::Scenario& s) -> double& { return s.cluster.nicGbps; }, 0.1, 100'000, 1, tr(" Gbit/s"));
    m_binder->numberField(
        form,
        {"cluster.oversubscription", tr("Oversubscription"), tr("Fabric oversubscription ratio (1 = non-blocking)")},
        [](core::Scenario& s) -> double& { return s.cluster.oversubscription; }, 1.0, 64.0, 2, tr(" : 1"));
}

void ScenarioForm::createTrainingGroup()
{
    QFormLayout* form = addGroup(tr("Training"), "group.training");
    m_binder->intField(
        form, {"training.globalBatch", tr("Global batch"), tr("Sequences per optimizer step")},
        [](core::Scenario& s) -> int& { return s.training.globalBatch; }, 1, 100'000'000, tr(" seq"));
    m_binder->intField(
        form, {"training.microBatch", tr("Micro-batch"), tr("Sequences per forward/backward pass")},
        [](core::Scenario& s) -> int& { return s.training.microBatch; }, 1, 100'000'000, tr(" seq"));
    m_binder->enumField<core::Precision>(form,
        {"training.precision", tr("Precision"), tr("Numeric format of training")},
        [](core::Scenario& s) -> core::Precision& { return s.training.precision; });
    m_binder->enumField<core::Optimizer>(form, {"training.optimizer", tr("Optimizer"), tr("Optimizer and its states")},
        [](core::Scenario& s) -> core::Optimizer& { return s.training.optimizer; });
    m_binder->enumField<core::Recompute>(form,
        {"training.recompute", tr("Recomputation"), tr("Activation checkpointing: what is recomputed in backward")},
        [](core::Scenario& s) -> core::Recompute& { return s.training.recompute; });
    m_binder->intField(
        form, {"training.zeroStage", tr("ZeRO stage"), tr("0 none, 1 optimizer states, 2 + gradients, 3 + parameters")},
        [](core::Scenario& s) -> int& { return s.training.zeroStage; }, 0, 3);
    m_binder->boolField(form,
        {"training.distributedOptimizer", tr("Distributed optimizer"),
            tr("Shard optimizer states across data-parallel ranks (Megatron)")},
        [](core::Scenario& s) -> bool& { return s.training.distributedOptimizer; });
    m_binder->enumField<core::AttentionKind>(form,
        {"training.attention", tr("Attention kernel"), tr("Whether attention scores are materialised")},
        [](core::Scenario& s) -> core::AttentionKind& { return s.training.attention; });
    m_binder->enumField<core::Framework>(form,
        {"training.framework", tr("Framework"),
            tr("Training stack: decides which schedules, recompute modes and ZeRO stages the explorer offers, fused "
               "kernels vs eager PyTorch, and how gradients and ZeRO-3 traffic move")},
        [](core::Scenario& s) -> core::Framework& { return s.training.framework; });
    m_binder->enumField<core::PipelineSchedule>(form,
        {"training.schedule", tr("Pipeline schedule"), tr("Order of micro-batches across pipeline stages")},
        [](core::Scenario& s) -> core::PipelineSchedule& { return s.training.schedule; });
}

void ScenarioForm::createLayoutGroup()
{
    QFormLayout* form = addGroup(tr("Parallel layout"), "group.layout");
    m_binder->intField(
        form, {"training.layout.dp", tr("Data parallel"), tr("Model replicas (dp)")},
        [](core::Scenario& s) -> int& { return s.training.layout.dp; }, 1, kMaxGpus);
    m_binder->intField(
        form, {"training.layout.tp", tr("Tensor parallel"), tr("GPUs splitting each matrix (tp)")},
        [](core::Scenario& s) -> int& { return s.training.layout.tp; }, 1, 4096);
    m_binder->intField(
        form, {"training.layout.pp", tr("Pipeline parallel"), tr("Pipeline stages (pp)")},
        [](core::Scenario& s) -> int& { return s.training.layout.pp; }, 1, 4096);
    m_binder->intField(
        form, {"training.layout.cp", tr("Context parallel"), tr("GPUs splitting each sequence (cp)")},
        [](core::Scenario& s) -> int& { return s.training.layout.cp; }, 1, 4096);
    m_binder->intField(
        form,
        {"training.layout.ep", tr("Expert parallel"), tr("GPUs the experts are spread over (ep); folds into dp×tp×cp")},
        [](core::Scenario& s) -> int& { return s.training.layout.ep; }, 1, 100'000);
    m_binder->intField(
        form, {"training.layout.virtualStages", tr("Virtual stages"), tr("Interleaved model chunks per pipeline rank")},
        [](core::Scenario& s) -> int& { return s.training.layout.virtualStages; }, 1, 1024);
    m_binder->boolField(form,
        {"training.layout.sequenceParallel", tr("Sequence parallel"),
            tr("Split norm and dropout activations across the tensor-parallel group")},
        [](core::Scenario& s) -> bool& { return s.training.layout.sequenceParallel; });
    m_binder->enumField<core::RankOrdering>(form,
        {"training.layout.rankOrder", tr("Rank order"),
            tr("How ranks map to nodes: TP innermost, then either DP or PP neighbours closer (Megatron's default "
               "vs its tp-pp-dp mapping)")},
        [](core::Scenario& s) -> core::RankOrdering& { return s.training.layout.rankOrder; });
    m_layoutCheckLabel = new QLabel;
    m_layoutCheckLabel->setWordWrap(true);
    m_binder->addRow(form, {"training.layout.check", tr("GPUs used"), tr("dp × tp × pp × cp must equal the GPU count")},
        m_layoutCheckLabel);
}

void ScenarioForm::createEconomicsGroup()
{
    QFormLayout* form = addGroup(tr("Economics"), "group.economics");
    m_binder->numberField(
        form, {"economics.trainingTokens", tr("Training tokens"), tr("Token budget of the whole run, in billions")},
        [](core::Scenario& s) -> double& { return s.economics.trainingTokens; }, 0, 1e18, 1, tr(" billion"), 1e9);
    m_binder->numberField(
        form, {"economics.gpuHourUsd", tr("GPU price"), tr("Price per GPU-hour, US dollars")},
        [](core::Scenario& s) -> double& { return s.economics.gpuHourUsd; }, 0, 10'000, 2, tr(" $/GPU·h"));
    m_binder->numberField(
        form, {"economics.electricityUsdPerKwh", tr("Electricity"), tr("Electricity price, US dollars per kWh")},
        [](core::Scenario& s) -> double& { return s.economics.electricityUsdPerKwh; }, 0, 100, 4, tr(" $/kWh"));
    m_binder->numberField(
        form, {"economics.pue", tr("PUE"), tr("Facility power usage effectiveness (≥ 1)")},
        [](core::Scenario& s) -> double& { return s.economics.pue; }, 1.0, 5.0, 2);
}

void ScenarioForm::createNotesGroup()
{
    QFormLayout* form = addGroup(tr("Scenario"), "group.scenario");
    m_binder->textField(form, {"scenario.name", tr("Name"), tr("Name of this planning scenario")},
        [](core::Scenario& s) -> std::string& { return s.name; });
    QPlainTextEdit* notes
        = m_binder->longTextField({"notes", tr("Notes"), tr("Free-form notes saved with the scenario")},
            [](core::Scenario& s) -> std::string& { return s.notes; });
    notes->setMinimumHeight(80);
    notes->setPlaceholderText(tr("Assumptions, sources, open questions…"));
    form->addRow(new QLabel(tr("Notes:")));
    form->addRow(notes);
}

void ScenarioForm::addDerivedRefreshers()
{
    m_binder->addRefresher([this](core::Scenario&) {
        const core::Scenario& s = m_document->scenario();
        for (QWidget* child : m_moeGroup->findChildren<QWidget*>())
            if (child->objectName() != QLatin1String("model.moe.enabled"))
                child->setEnabled(s.model.moe.has_value());
        const int nodes = s.cluster.nodeCount();
        const QString nodeText = nodes == 1 ? tr("1 node") : tr("%1 nodes").arg(nodes);
        const bool partial = s.cluster.gpuCount % s.cluster.gpusPerNode != 0;
        m_nodeCountLabel->setText(partial ? tr("%1, the last one partly used").arg(nodeText) : nodeText);
        const auto& l = s.training.layout;
        const bool matches = l.gpuCount() == s.cluster.gpuCount;
        const QString product
            = tr("dp×tp×pp×cp = %1×%2×%3×%4 = %5").arg(l.dp).arg(l.tp).arg(l.pp).arg(l.cp).arg(l.gpuCount());
        m_layoutCheckLabel->setText(matches
                ? tr("%1, all GPUs").arg(product)
                : tr("%1, but the cluster has %2 GPUs").arg(product).arg(s.cluster.gpuCount));
        m_layoutCheckLabel->setStyleSheet(matches ? QString() : QStringLiteral("color: #d0342c; font-weight: bold;"));
        const QString problem = ScenarioDocument::validationError(s);
        m_problemLabel->setText(tr("This scenario cannot be saved as it is: %1").arg(problem));
        m_problemLabel->setVisible(!problem.isEmpty());
    });
}

void ScenarioForm::setMoeEnabled(bool enabled)
{
    core::Scenario next = m_document->scenario();
    if (enabled)
        next.model.moe = m_lastMoe;
    else
        next.model.moe.reset();
    m_document->edit(next, enabled ? tr("Enable mixture of experts") : tr("Disable mixture of experts"));
}

void ScenarioForm::applyPreset(int index)
{
    const auto& presets = core::modelPresets();
    if (index < 0 || index >= static_cast<int>(presets.size()))
        return; // "Custom" keeps the current model
    core::Scenario next = m_document->scenario();
    next.model = presets[index];
    m_document->edit(next, tr("Apply preset %1").arg(QString::fromStdString(presets[index].name)));
}

void ScenarioForm::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_flow->setColumns(std::min(event->size().width() / kColumnWidthPx, 3));
}

} // namespace clusterplanner::ui
