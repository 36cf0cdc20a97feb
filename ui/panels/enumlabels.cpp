// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/enumlabels.h"

#include "core/model/frameworks.h"

#include <QObject>
#include <QStringList>

#include <QCoreApplication>

namespace clusterplanner::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("EnumLabel", text);
}

} // namespace

QString enumLabel(core::MlpKind value)
{
    return value == core::MlpKind::Gelu ? tr("GELU (2 matrices)") : tr("SwiGLU (3 matrices)");
}

QString enumLabel(core::NormKind value)
{
    return value == core::NormKind::LayerNorm ? tr("LayerNorm") : tr("RMSNorm");
}

QString enumLabel(core::Precision value)
{
    switch (value) {
    case core::Precision::Fp32:
        return tr("FP32");
    case core::Precision::AmpBf16:
        return tr("Mixed BF16 (FP32 master weights)");
    case core::Precision::Bf16:
        return tr("Pure BF16");
    case core::Precision::AmpFp16:
        return tr("Mixed FP16 (FP32 master weights)");
    case core::Precision::Fp8:
        return tr("FP8 mixed precision");
    }
    return {};
}

QString enumLabel(core::Optimizer value)
{
    switch (value) {
    case core::Optimizer::AdamW:
        return tr("AdamW");
    case core::Optimizer::Adam:
        return tr("Adam");
    case core::Optimizer::Sgd:
        return tr("SGD");
    case core::Optimizer::SgdMomentum:
        return tr("SGD with momentum");
    }
    return {};
}

QString enumLabel(core::Recompute value)
{
    switch (value) {
    case core::Recompute::None:
        return tr("None");
    case core::Recompute::Selective:
        return tr("Selective (attention)");
    case core::Recompute::Full:
        return tr("Full layers");
    }
    return {};
}

QString enumLabel(core::AttentionKind value)
{
    switch (value) {
    case core::AttentionKind::Flash:
        return tr("FlashAttention");
    case core::AttentionKind::Sdpa:
        return tr("PyTorch SDPA");
    case core::AttentionKind::Math:
        return tr("Plain (materialised scores)");
    case core::AttentionKind::Flash2:
        return tr("FlashAttention-2 generation (FA2, Triton)");
    }
    return {};
}

QString enumLabel(core::Framework value)
{
    switch (value) {
    case core::Framework::Megatron:
        return tr("Megatron-LM");
    case core::Framework::NeMo:
        return tr("NeMo");
    case core::Framework::TorchTitan:
        return tr("TorchTitan");
    case core::Framework::Fsdp:
        return tr("PyTorch FSDP");
    case core::Framework::DeepSpeed:
        return tr("DeepSpeed");
    case core::Framework::HuggingFace:
        return tr("Hugging Face Transformers");
    case core::Framework::Other:
        return tr("Other");
    }
    return {};
}

QString enumLabel(core::RankOrdering value)
{
    switch (value) {
    case core::RankOrdering::TpCpEpDpPp:
        return tr("TP·CP·EP·DP·PP (DP before PP)");
    case core::RankOrdering::TpCpEpPpDp:
        return tr("TP·CP·EP·PP·DP (PP before DP)");
    }
    return {};
}

QString enumLabel(core::PipelineSchedule value)
{
    switch (value) {
    case core::PipelineSchedule::GPipe:
        return tr("GPipe");
    case core::PipelineSchedule::OneFOneB:
        return tr("1F1B");
    case core::PipelineSchedule::Interleaved:
        return tr("Interleaved 1F1B");
    case core::PipelineSchedule::ZbH1:
        return tr("Zero bubble (ZB-H1)");
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
