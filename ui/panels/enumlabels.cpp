// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/enumlabels.h"

#include "core/model/frameworks.h"

#include <QObject>
#include <QStringList>

#include <QCoreApplication>

namespace clusterplanner::ui {

namespace {

QString enumTr(const char* text)
{
    return QCoreApplication::translate("EnumLabel", text);
}

} // namespace

QString enumLabel(core::MlpKind value)
{
    return value == core::MlpKind::Gelu ? enumTr("GELU (2 matrices)") : enumTr("SwiGLU (3 matrices)");
}

QString enumLabel(core::NormKind value)
{
    return value == core::NormKind::LayerNorm ? enumTr("LayerNorm") : enumTr("RMSNorm");
}

QString enumLabel(core::Precision value)
{
    switch (value) {
    case core::Precision::Fp32:
        return enumTr("FP32");
    case core::Precision::AmpBf16:
        return enumTr("Mixed BF16 (FP32 master weights)");
    case core::Precision::Bf16:
        return enumTr("Pure BF16");
    case core::Precision::AmpFp16:
        return enumTr("Mixed FP16 (FP32 master weights)");
    case core::Precision::Fp8:
        return enumTr("FP8 mixed precision");
    }
    return {};
}

QString enumLabel(core::Optimizer value)
{
    switch (value) {
    case core::Optimizer::AdamW:
        return enumTr("AdamW");
    case core::Optimizer::Adam:
        return enumTr("Adam");
    case core::Optimizer::Sgd:
        return enumTr("SGD");
    case core::Optimizer::SgdMomentum:
        return enumTr("SGD with momentum");
    }
    return {};
}

QString enumLabel(core::Recompute value)
{
    switch (value) {
    case core::Recompute::None:
        return enumTr("None");
    case core::Recompute::Selective:
        return enumTr("Selective (attention)");
    case core::Recompute::Full:
        return enumTr("Full layers");
    case core::Recompute::Modules:
        return enumTr("Modules (MoE norm + activation, MLA up-projections)");
    }
    return {};
}

QString enumLabel(core::AttentionKind value)
{
    switch (value) {
    case core::AttentionKind::Flash:
        return enumTr("FlashAttention");
    case core::AttentionKind::Sdpa:
        return enumTr("PyTorch SDPA");
    case core::AttentionKind::Math:
        return enumTr("Plain (materialised scores)");
    case core::AttentionKind::Flash2:
        return enumTr("FlashAttention-2 generation (FA2, SDPA flash)");
    case core::AttentionKind::Triton:
        return enumTr("FlashAttention in Triton (2022)");
    }
    return {};
}

QString enumLabel(core::Fp8Recipe value)
{
    switch (value) {
    case core::Fp8Recipe::FrameworkDefault:
        return enumTr("Framework default");
    case core::Fp8Recipe::Delayed:
        return enumTr("Delayed scaling (Transformer Engine)");
    case core::Fp8Recipe::Tensorwise:
        return enumTr("Tensorwise (current scaling)");
    case core::Fp8Recipe::Rowwise:
        return enumTr("Rowwise (torchao)");
    case core::Fp8Recipe::RowwiseGwHp:
        return enumTr("Rowwise, weight gradient in bf16");
    }
    return {};
}

QString enumLabel(core::OptimizerStates value)
{
    switch (value) {
    case core::OptimizerStates::Fp32:
        return enumTr("FP32 master weights and moments");
    case core::OptimizerStates::Bf16:
        return enumTr("BF16 moments, 16-bit master copy");
    }
    return {};
}

QString enumLabel(core::MoeDispatcher value)
{
    switch (value) {
    case core::MoeDispatcher::AllToAll:
        return enumTr("All-to-all (NCCL, top-k copies)");
    case core::MoeDispatcher::DeepEp:
        return enumTr("DeepEP / HybridEP (one copy per node)");
    }
    return {};
}

QString enumLabel(core::Framework value)
{
    switch (value) {
    case core::Framework::Megatron:
        return enumTr("Megatron-LM");
    case core::Framework::NeMo:
        return enumTr("NeMo");
    case core::Framework::TorchTitan:
        return enumTr("TorchTitan");
    case core::Framework::Fsdp:
        return enumTr("PyTorch FSDP");
    case core::Framework::DeepSpeed:
        return enumTr("DeepSpeed");
    case core::Framework::HuggingFace:
        return enumTr("Hugging Face Transformers");
    case core::Framework::Other:
        return enumTr("Other");
    }
    return {};
}

QString enumLabel(core::RankOrdering value)
{
    switch (value) {
    case core::RankOrdering::TpCpEpDpPp:
        return enumTr("TP·CP·EP·DP·PP (DP before PP)");
    case core::RankOrdering::TpCpEpPpDp:
        return enumTr("TP·CP·EP·PP·DP (PP before DP)");
    }
    return {};
}

QString enumLabel(core::PipelineSchedule value)
{
    switch (value) {
    case core::PipelineSchedule::GPipe:
        return enumTr("GPipe");
    case core::PipelineSchedule::OneFOneB:
        return enumTr("1F1B");
    case core::PipelineSchedule::Interleaved:
        return enumTr("Interleaved 1F1B");
    case core::PipelineSchedule::ZbH1:
        return enumTr("Zero bubble (ZB-H1)");
    case core::PipelineSchedule::DualPipe:
        return enumTr("DualPipe (bidirectional)");
    }
    return {};
}

QString frameworkOptionsText(core::Framework framework)
{
    const core::FrameworkCapabilities& caps = core::frameworkCapabilities(framework);
    auto join = [](const auto& values) {
        QStringList labels;
        for (const auto& value : values)
            labels << enumLabel(value);
        return labels.join(QStringLiteral(", "));
    };
    QStringList zero;
    for (int stage : caps.zeroStages)
        zero << QString::number(stage);
    QStringList lines {QObject::tr("%1 runs:").arg(enumLabel(framework)),
        QObject::tr("schedules: %1").arg(join(caps.schedules)),
        QObject::tr("recompute: %1").arg(join(caps.recomputeModes)),
        QObject::tr("ZeRO stages: %1").arg(zero.join(", "))};
    if (caps.maxZeroStageWithPipeline < 3)
        lines << QObject::tr("with pipeline stages: ZeRO stage %1 at most").arg(caps.maxZeroStageWithPipeline);
    if (caps.maxPipelineStages == 1)
        lines << QObject::tr("no pipeline stages");
    lines << QObject::tr("Settings fixed in the scenario are swept as given.");
    return lines.join('\n');
}

} // namespace clusterplanner::ui
