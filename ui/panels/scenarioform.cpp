// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/scenarioform.h"

#include "core/evaluation/layoutrefit.h"
#include "core/model/frameworkrules.h"
#include "core/model/gpucatalog.h"
#include "core/model/modelmath.h"
#include "core/model/modelpresets.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/columnflow.h"
#include "ui/panels/formbinder.h"
#include "ui/panels/wheelguard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <string_view>

namespace clusterplanner::ui {

namespace {

/// The bf16 item of the optimizer-states field: plain where it applies, else the reason fp32 states apply.
QString bf16OptimizerStatesLabel(const core::TrainingConfig& asked, const core::FrameworkCapabilities& caps)
{
    using O = core::OptimizerStatesObstacle;
    const auto tr = [](const char* text) { return ScenarioForm::tr(text); };
    switch (core::optimizerStatesObstacle(asked, caps)) {
    case O::None:
    case O::NotAsked:
        break;
    case O::NotOffered:
        return tr("BF16: %1 has none, FP32 applies").arg(enumLabel(asked.framework));
    case O::NotAdam:
        return tr("BF16: needs Adam, FP32 applies");
    case O::NotSharded:
        return tr("BF16: needs the distributed optimizer, FP32 applies");
    case O::PureBf16:
        return tr("BF16: pure BF16 keeps 16-bit states already");
    case O::NoBf16Master:
        return tr("BF16: needs mixed BF16 or delayed-scaling FP8, FP32 applies");
    }
    return enumLabel(core::OptimizerStates::Bf16);
}

constexpr int kColumnWidthPx = 430; // a form column is readable from about this width

/// The switch of an optional part of the model (model.moe, model.mla), named and explained by its field row.
QCheckBox* addPartSwitch(QFormLayout* form, std::string_view path)
{
    const FieldInfo info = fieldInfo(path);
    auto* enabled = new QCheckBox(info.label);
    enabled->setObjectName(QString::fromLatin1(info.objectName));
    enabled->setToolTip(info.toolTip);
    form->addRow(enabled);
    return enabled;
}

/// Greys out an optional part's fields while the part is off; its switch stays live.
void enablePartFields(QGroupBox* group, std::string_view switchName, bool on)
{
    for (QWidget* child : group->findChildren<QWidget*>())
        if (child->objectName() != QLatin1String(switchName.data(), qsizetype(switchName.size())))
            child->setEnabled(on);
}

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
    createLatentAttentionGroup();
    createMoeGroup();
    createClusterGroup();
    createTrainingGroup();
    createLayoutGroup();
    createEconomicsGroup();
    createNotesGroup();
    addDerivedRefreshers();
    WheelGuard::install(m_content);
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
    // Each preset says where its dimensions come from and what the engine leaves out (GPT-OSS's attention sinks).
    const auto& sources = core::modelPresetSources();
    for (int i = 0; i < int(sources.size()) && i < preset->count(); ++i)
        preset->setItemData(i, QString::fromStdString(sources[std::size_t(i)]), Qt::ToolTipRole);
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
    m_binder->textField(form, "model.name", [](core::Scenario& s) -> std::string& { return s.model.name; });
    m_binder->intField(form, "model.layers", [](core::Scenario& s) -> int& { return s.model.layers; });
    m_binder->intField(form, "model.hidden", [](core::Scenario& s) -> int& { return s.model.hidden; });
    // Every latent-attention head has its own key and value: the KV heads follow the heads while MLA is on.
    m_binder->intField(
        form, "model.heads", [](core::Scenario& s) -> int& { return s.model.heads; },
        [this](core::Scenario& s) {
            if (m_document->scenario().model.mla.enabled())
                s.model.kvHeads = s.model.heads;
        });
    QSpinBox* kvHeads
        = m_binder->intField(form, "model.kv_heads", [](core::Scenario& s) -> int& { return s.model.kvHeads; });
    QSpinBox* headDim
        = m_binder->intField(form, "model.head_dim", [](core::Scenario& s) -> int& { return s.model.headDim; });
    headDim->setSpecialValueText(tr("hidden / heads"));
    m_binder->intField(form, "model.ffn_hidden", [](core::Scenario& s) -> int& { return s.model.ffnHidden; });
    m_binder->intField(form, "model.vocab", [](core::Scenario& s) -> int& { return s.model.vocab; });
    m_binder->intField(form, "model.seq_len", [](core::Scenario& s) -> int& { return s.model.seqLen; });
    m_binder->enumField<core::MlpKind>(
        form, "model.mlp", [](core::Scenario& s) -> core::MlpKind& { return s.model.mlp; });
    m_binder->enumField<core::NormKind>(
        form, "model.norm", [](core::Scenario& s) -> core::NormKind& { return s.model.norm; });
    m_binder->boolField(
        form, "model.tied_embeddings", [](core::Scenario& s) -> bool& { return s.model.tiedEmbeddings; });
    QCheckBox* qkNorm
        = m_binder->boolField(form, "model.qk_norm", [](core::Scenario& s) -> bool& { return s.model.qkNorm; });
    QCheckBox* parallelBlock = m_binder->boolField(
        form, "model.parallel_block", [](core::Scenario& s) -> bool& { return s.model.parallelBlock; });
    QSpinBox* mtp
        = m_binder->intField(form, "model.mtp_layers", [](core::Scenario& s) -> int& { return s.model.mtpLayers; });
    mtp->setSpecialValueText(tr("none"));
    m_binder->numberField(
        form, "model.rope_base", [](core::Scenario& s) -> double& { return s.model.ropeBase; }, 0);
    m_binder->addRefresher([this, kvHeads, headDim, qkNorm, parallelBlock](core::Scenario&) {
        // Latent attention sets its own head widths, gives every head its own key and value and normalises its
        // latents, not its heads. Parallel blocks are modelled for dense layers of standard attention only.
        const core::ModelConfig& model = m_document->scenario().model;
        const bool latent = model.mla.enabled();
        kvHeads->setEnabled(!latent);
        headDim->setEnabled(!latent);
        qkNorm->setEnabled(!latent);
        parallelBlock->setEnabled(!latent && !model.moe);
    });
}

void ScenarioForm::createLatentAttentionGroup()
{
    QFormLayout* form = addGroup(tr("Latent attention"), "group.mla");
    m_mlaGroup = m_lastGroup;
    m_lastMla = shownLatentAttention();
    QCheckBox* enabled = addPartSwitch(form, "model.mla");
    connect(enabled, &QCheckBox::toggled, this, &ScenarioForm::setLatentAttentionEnabled);
    m_binder->addRefresher([this, enabled](core::Scenario&) {
        const QSignalBlocker blocker(enabled);
        const core::MlaConfig& mla = m_document->scenario().model.mla;
        enabled->setChecked(mla.enabled());
        if (mla.enabled())
            m_lastMla = mla;
    });
    m_binder->intField(
        form, "model.mla.kv_lora_rank", [](core::Scenario& s) -> int& { return s.model.mla.kvLoraRank; });
    m_binder->intField(form, "model.mla.q_lora_rank", [](core::Scenario& s) -> int& { return s.model.mla.qLoraRank; })
        ->setSpecialValueText(tr("none (from the hidden state)"));
    m_binder->intField(
        form, "model.mla.qk_nope_head_dim", [](core::Scenario& s) -> int& { return s.model.mla.qkNopeHeadDim; });
    m_binder->intField(
        form, "model.mla.qk_rope_head_dim", [](core::Scenario& s) -> int& { return s.model.mla.qkRopeHeadDim; });
    m_binder->intField(form, "model.mla.v_head_dim", [](core::Scenario& s) -> int& { return s.model.mla.vHeadDim; });
}

void ScenarioForm::createMoeGroup()
{
    QFormLayout* form = addGroup(tr("Mixture of experts"), "group.moe");
    m_moeGroup = m_lastGroup;
    QCheckBox* enabled = addPartSwitch(form, "model.moe");
    connect(enabled, &QCheckBox::toggled, this, &ScenarioForm::setMoeEnabled);
    m_binder->addRefresher([this, enabled](core::Scenario&) {
        const QSignalBlocker blocker(enabled);
        const auto& moe = m_document->scenario().model.moe;
        enabled->setChecked(moe.has_value());
        if (moe)
            m_lastMoe = *moe;
    });
    m_binder->intField(form, "model.moe.experts", [](core::Scenario& s) -> int& { return s.model.moe->experts; });
    m_binder->intField(form, "model.moe.top_k", [](core::Scenario& s) -> int& { return s.model.moe->topK; });
    m_binder->intField(
        form, "model.moe.expert_ffn_hidden", [](core::Scenario& s) -> int& { return s.model.moe->expertFfnHidden; });
    m_binder->intField(
        form, "model.moe.shared_experts", [](core::Scenario& s) -> int& { return s.model.moe->sharedExperts; });
    m_binder->intField(form, "model.moe.moe_layers", [](core::Scenario& s) -> int& { return s.model.moe->moeLayers; });
    m_binder->numberField(
        form, "model.moe.capacity_factor", [](core::Scenario& s) -> double& { return s.model.moe->capacityFactor; }, 2);
    // 0 routes freely: say so rather than show a count of nothing.
    m_binder
        ->intField(form, "model.moe.expert_groups", [](core::Scenario& s) -> int& { return s.model.moe->expertGroups; })
        ->setSpecialValueText(tr("none"));
    m_binder
        ->intField(
            form, "model.moe.groups_per_token", [](core::Scenario& s) -> int& { return s.model.moe->groupsPerToken; })
        ->setSpecialValueText(tr("unlimited"));
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
    m_binder->choiceField(form, fieldInfo("cluster.gpu"), labels, read, write);
    // A new GPU count takes the nearest valid layout along, in the same undo step (layoutrefit.h); the value is
    // committed on Enter or focus loss, so typing "512" does not refit through 5 and 51 first.
    QSpinBox* gpuCount = m_binder->intField(
        form, "cluster.gpu_count", [](core::Scenario& s) -> int& { return s.cluster.gpuCount; },
        [](core::Scenario& s) {
            if (auto layout = core::nearestValidLayout(s, s.cluster.gpuCount))
                s.training.layout = *layout;
        });
    gpuCount->setKeyboardTracking(false);
    m_binder->intField(form, "cluster.gpus_per_node", [](core::Scenario& s) -> int& { return s.cluster.gpusPerNode; });
    m_nodeCountLabel = new QLabel;
    m_binder->addRow(form, {"cluster.node_count", tr("Nodes"), tr("Servers needed: GPUs / GPUs per node, rounded up")},
        m_nodeCountLabel);
    m_binder->numberField(
        form, "cluster.nic_gbps", [](core::Scenario& s) -> double& { return s.cluster.nicGbps; }, 1);
    m_binder->numberField(
        form, "cluster.oversubscription", [](core::Scenario& s) -> double& { return s.cluster.oversubscription; }, 2);
}

void ScenarioForm::createTrainingGroup()
{
    QFormLayout* form = addGroup(tr("Training"), "group.training");
    m_binder->intField(form, "training.global_batch", [](core::Scenario& s) -> int& { return s.training.globalBatch; });
    m_binder->intField(form, "training.micro_batch", [](core::Scenario& s) -> int& { return s.training.microBatch; });
    QComboBox* precision = m_binder->enumField<core::Precision>(
        form, "training.precision", [](core::Scenario& s) -> core::Precision& { return s.training.precision; });
    const auto precisions = core::allValues<core::Precision>();
    const int bf16Item
        = int(std::find(precisions.begin(), precisions.end(), core::Precision::Bf16) - precisions.begin());
    const int mixedBf16Item
        = int(std::find(precisions.begin(), precisions.end(), core::Precision::AmpBf16) - precisions.begin());
    const int fp8Item = int(std::find(precisions.begin(), precisions.end(), core::Precision::Fp8) - precisions.begin());
    m_binder->addRefresher([this, precision, fp8Item](core::Scenario&) {
        // FP8 on a GPU without FP8 tensor cores is refused by the engine; the item says so before it is chosen.
        const core::GpuSpec* gpu = core::GpuCatalog::builtin().find(m_document->scenario().cluster.gpuId);
        precision->setItemText(fp8Item,
            gpu && !gpu->hasFp8TensorCores()
                ? tr("FP8: the %1 has no FP8 tensor cores").arg(QString::fromStdString(gpu->id))
                : enumLabel(core::Precision::Fp8));
    });
    m_binder->addRefresher([this, precision, bf16Item, mixedBf16Item](core::Scenario&) {
        // Pure bf16 is a Hugging Face mode; elsewhere the engine plans the framework's own bf16 (fp32 master
        // weights), and the item says so rather than letting the figures quietly disagree with the label. Mixed
        // bf16 with 16-bit optimizer states in effect has no fp32 master copy, and its item says that instead.
        const core::TrainingConfig& t = m_document->scenario().training;
        const core::FrameworkCapabilities& caps = core::frameworkCapabilities(t.framework);
        precision->setItemText(bf16Item,
            caps.pureBf16 ? enumLabel(core::Precision::Bf16)
                          : tr("Pure BF16: not a %1 mode, planned as mixed BF16").arg(enumLabel(t.framework)));
        core::TrainingConfig mixed = t;
        mixed.precision = core::Precision::AmpBf16;
        const bool sixteenBitStates = core::optimizerStatesInEffect(mixed, caps) == core::OptimizerStates::Bf16;
        precision->setItemText(mixedBf16Item,
            sixteenBitStates ? tr("Mixed BF16 (16-bit optimizer states)") : enumLabel(core::Precision::AmpBf16));
    });
    QComboBox* fp8Recipe = m_binder->enumField<core::Fp8Recipe>(
        form, "training.fp8_recipe", [](core::Scenario& s) -> core::Fp8Recipe& { return s.training.fp8Recipe; });
    m_binder->addRefresher([this, fp8Recipe](core::Scenario&) {
        // Only FP8 reads a recipe; the default item says which one the framework would use.
        const core::TrainingConfig& t = m_document->scenario().training;
        fp8Recipe->setEnabled(t.precision == core::Precision::Fp8);
        core::TrainingConfig asDefault = t;
        asDefault.fp8Recipe = core::Fp8Recipe::FrameworkDefault;
        const auto fallback = core::fp8RecipeInEffect(asDefault, core::frameworkCapabilities(t.framework));
        fp8Recipe->setItemText(0, tr("Framework default: %1").arg(enumLabel(fallback)));
    });
    m_binder->enumField<core::Optimizer>(
        form, "training.optimizer", [](core::Scenario& s) -> core::Optimizer& { return s.training.optimizer; });
    QComboBox* optimizerStates = m_binder->enumField<core::OptimizerStates>(form, "training.optimizer_states",
        [](core::Scenario& s) -> core::OptimizerStates& { return s.training.optimizerStates; });
    m_binder->addRefresher([this, optimizerStates](core::Scenario&) {
        // The bf16 item names the one thing that leaves fp32 states in effect instead, if any.
        core::TrainingConfig asked = m_document->scenario().training;
        asked.optimizerStates = core::OptimizerStates::Bf16;
        optimizerStates->setItemText(int(core::OptimizerStates::Bf16), // items follow the enum's order
            bf16OptimizerStatesLabel(asked, core::frameworkCapabilities(asked.framework)));
    });
    m_binder->enumField<core::Recompute>(
        form, "training.recompute", [](core::Scenario& s) -> core::Recompute& { return s.training.recompute; });
    QSpinBox* offload = m_binder->intField(form, "training.activation_offload_layers",
        [](core::Scenario& s) -> int& { return s.training.activationOffloadLayers; });
    offload->setSpecialValueText(tr("auto (fewest that fit)")); // shown at the minimum, kActivationOffloadAuto
    m_binder->addRefresher([this, offload](core::Scenario&) {
        // Megatron-Core keeps one layer on the GPU; only frameworks that offer offload read the field.
        const core::Scenario& s = m_document->scenario();
        offload->setMaximum(std::max(0, s.model.layers - 1));
        offload->setEnabled(core::frameworkCapabilities(s.training.framework).activationOffload);
    });
    m_binder->intField(form, "training.zero_stage", [](core::Scenario& s) -> int& { return s.training.zeroStage; });
    m_binder->boolField(form, "training.distributed_optimizer",
        [](core::Scenario& s) -> bool& { return s.training.distributedOptimizer; });
    m_binder->enumField<core::AttentionKind>(
        form, "training.attention", [](core::Scenario& s) -> core::AttentionKind& { return s.training.attention; });
    m_binder->enumField<core::Framework>(
        form, "training.framework", [](core::Scenario& s) -> core::Framework& { return s.training.framework; });
    m_binder->enumField<core::PipelineSchedule>(
        form, "training.schedule", [](core::Scenario& s) -> core::PipelineSchedule& { return s.training.schedule; });
    QCheckBox* compile
        = m_binder->boolField(form, "training.compile", [](core::Scenario& s) -> bool& { return s.training.compile; });
    // The two loss switches share a row: the column stays short enough for a 1000 px window to show every field.
    // Compiling the loss is read only by frameworks whose fusion comes from torch.compile, like the switch above;
    // a fused cross-entropy only by eager ones (their tooltips say so).
    auto* lossRow = new QHBoxLayout;
    QCheckBox* compileLoss = m_binder->boolField(
        nullptr, "training.compile_loss", [](core::Scenario& s) -> bool& { return s.training.compileLoss; });
    QCheckBox* fusedLoss = m_binder->boolField(
        nullptr, "training.fused_loss", [](core::Scenario& s) -> bool& { return s.training.fusedLoss; });
    lossRow->addWidget(compileLoss);
    lossRow->addWidget(fusedLoss);
    lossRow->addStretch();
    form->addRow(QString(), lossRow);
    m_binder->addRefresher([this, compile, compileLoss, fusedLoss](core::Scenario&) {
        // Greyed out where the framework, its compile switch or the layout leave the setting unread.
        const core::TrainingConfig& t = m_document->scenario().training;
        const core::FrameworkCapabilities& caps = core::frameworkCapabilities(t.framework);
        compile->setEnabled(caps.compileFuses); // hand-fused stacks (Megatron, NeMo) do not compile
        compileLoss->setEnabled(core::compileLossIsRead(t, caps));
        fusedLoss->setEnabled(core::fusedLossIsRead(t, caps));
    });
}

void ScenarioForm::createLayoutGroup()
{
    QFormLayout* form = addGroup(tr("Parallel layout"), "group.layout");
    m_binder->intField(form, "training.layout.dp", [](core::Scenario& s) -> int& { return s.training.layout.dp; });
    m_binder->intField(form, "training.layout.tp", [](core::Scenario& s) -> int& { return s.training.layout.tp; });
    m_binder->intField(form, "training.layout.pp", [](core::Scenario& s) -> int& { return s.training.layout.pp; });
    m_binder->intField(form, "training.layout.cp", [](core::Scenario& s) -> int& { return s.training.layout.cp; });
    m_binder->intField(form, "training.layout.ep", [](core::Scenario& s) -> int& { return s.training.layout.ep; });
    QSpinBox* expertTp = m_binder->intField(
        form, "training.layout.expert_tp", [](core::Scenario& s) -> int& { return s.training.layout.expertTp; });
    m_binder->addRefresher([this, expertTp](core::Scenario&) {
        // Only routed experts read it; the default's text says what Megatron-Core would take for this layout.
        const core::Scenario& s = m_document->scenario();
        core::ParallelLayout asDefault = s.training.layout;
        asDefault.expertTp = core::kExpertTpDefault;
        expertTp->setSpecialValueText(tr("default: %1").arg(core::expertTensorParallel(asDefault)));
        expertTp->setEnabled(s.model.moe.has_value());
    });
    QSpinBox* dpShard = m_binder->intField(
        form, "training.layout.dp_shard", [](core::Scenario& s) -> int& { return s.training.layout.dpShard; });
    m_binder->addRefresher([this, dpShard](core::Scenario&) {
        // Only sharded states can be hybrid-sharded; the special value says how many ranks "all of DP" is now.
        const core::TrainingConfig& t = m_document->scenario().training;
        dpShard->setSpecialValueText(tr("all of DP (%1)").arg(t.layout.dp));
        dpShard->setEnabled(t.shardsOptimizerStates());
    });
    m_binder->intField(form, "training.layout.virtual_stages",
        [](core::Scenario& s) -> int& { return s.training.layout.virtualStages; });
    m_binder->boolField(form, "training.layout.sequence_parallel",
        [](core::Scenario& s) -> bool& { return s.training.layout.sequenceParallel; });
    m_binder->boolField(
        form, "training.cp_load_balance", [](core::Scenario& s) -> bool& { return s.training.cpLoadBalance; });
    m_binder->boolField(form, "training.async_tp", [](core::Scenario& s) -> bool& { return s.training.asyncTp; });
    QComboBox* dispatcher = m_binder->enumField<core::MoeDispatcher>(form, "training.moe_dispatcher",
        [](core::Scenario& s) -> core::MoeDispatcher& { return s.training.moeDispatcher; });
    QCheckBox* moeOverlap = m_binder->boolField(
        form, "training.moe_overlap", [](core::Scenario& s) -> bool& { return s.training.moeOverlap; });
    m_binder->addRefresher([this, dispatcher, moeOverlap](core::Scenario&) {
        // Only a MoE model reads them.
        const bool moe = m_document->scenario().model.moe.has_value();
        dispatcher->setEnabled(moe);
        moeOverlap->setEnabled(moe);
    });
    m_binder->enumField<core::RankOrdering>(form, "training.layout.rank_order",
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
        form, "economics.training_tokens", [](core::Scenario& s) -> double& { return s.economics.trainingTokens; }, 1,
        1e9, tr(" billion tokens"));
    m_binder->numberField(
        form, "economics.gpu_hour_usd", [](core::Scenario& s) -> double& { return s.economics.gpuHourUsd; }, 2);
    m_binder->numberField(
        form, "economics.electricity_usd_per_kwh",
        [](core::Scenario& s) -> double& { return s.economics.electricityUsdPerKwh; }, 4);
    m_binder->numberField(
        form, "economics.pue", [](core::Scenario& s) -> double& { return s.economics.pue; }, 2);
}

void ScenarioForm::createNotesGroup()
{
    QFormLayout* form = addGroup(tr("Scenario"), "group.scenario");
    m_binder->textField(form, "name", [](core::Scenario& s) -> std::string& { return s.name; });
    QPlainTextEdit* notes = m_binder->longTextField("notes", [](core::Scenario& s) -> std::string& { return s.notes; });
    notes->setMinimumHeight(80);
    notes->setPlaceholderText(tr("Assumptions, sources, open questions…"));
    form->addRow(new QLabel(tr("Notes:")));
    form->addRow(notes);
}

void ScenarioForm::addDerivedRefreshers()
{
    m_binder->addRefresher([this](core::Scenario&) {
        const core::Scenario& s = m_document->scenario();
        enablePartFields(m_moeGroup, "model.moe", s.model.moe.has_value());
        enablePartFields(m_mlaGroup, "model.mla", s.model.mla.enabled());
        const int nodes = s.cluster.nodeCount();
        const QString nodeText = nodes == 1 ? tr("1 node") : tr("%1 nodes").arg(nodes);
        const bool partial = s.cluster.gpuCount % s.cluster.gpusPerNode != 0;
        m_nodeCountLabel->setText(partial ? tr("%1, the last one partly used").arg(nodeText) : nodeText);
        const auto& l = s.training.layout;
        const bool matches = l.gpuCount() == s.cluster.gpuCount;
        const QString product
            = tr("dp×tp×pp×cp = %1×%2×%3×%4 = %5").arg(l.dp).arg(l.tp).arg(l.pp).arg(l.cp).arg(l.gpuCount());
        m_layoutCheckLabel->setText(matches ? tr("%1, all GPUs").arg(product) : layoutMismatchText(s, product));
        m_layoutCheckLabel->setStyleSheet(matches ? QString() : QStringLiteral("color: #d0342c; font-weight: bold;"));
        const QString problem = ScenarioDocument::validationError(s);
        m_problemLabel->setText(tr("This scenario cannot be saved as it is: %1").arg(problem));
        m_problemLabel->setVisible(!problem.isEmpty());
    });
}

QString ScenarioForm::layoutMismatchText(const core::Scenario& s, const QString& product) const
{
    const QString text = tr("%1, but the cluster has %2 GPUs").arg(product).arg(s.cluster.gpuCount);
    if (core::nearestValidLayout(s, s.cluster.gpuCount))
        return text; // the user set the layout apart from the count; a valid one exists
    const auto [below, above] = core::nearestValidGpuCounts(s, s.cluster.gpuCount);
    QStringList counts;
    for (int count : {below, above})
        if (count > 0)
            counts << QLocale().toString(count);
    return counts.isEmpty() ? tr("%1. No layout is valid for %2 GPUs.").arg(text).arg(s.cluster.gpuCount)
                            : tr("%1. No layout is valid for %2 GPUs; the nearest counts with one: %3.")
                                  .arg(text)
                                  .arg(s.cluster.gpuCount)
                                  .arg(counts.join(tr(" or ")));
}

void ScenarioForm::setMoeEnabled(bool enabled)
{
    core::Scenario next = m_document->scenario();
    if (enabled) {
        next.model.moe = m_lastMoe;
        next.model.parallelBlock = false; // modelled for dense layers only
    } else
        next.model.moe.reset();
    m_document->edit(next, enabled ? tr("Enable mixture of experts") : tr("Disable mixture of experts"));
}

void ScenarioForm::setLatentAttentionEnabled(bool enabled)
{
    core::Scenario next = m_document->scenario();
    if (enabled) {
        next.model.mla = m_lastMla;
        next.model.kvHeads = next.model.heads; // every latent-attention head has its own key and value
        next.model.headDim = 0; // its own widths set the heads
        next.model.qkNorm = false; // it normalises its latents, not its heads
        next.model.parallelBlock = false; // modelled for standard attention only
    } else {
        next.model.mla = {};
    }
    m_document->edit(next, enabled ? tr("Enable latent attention") : tr("Disable latent attention"));
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
