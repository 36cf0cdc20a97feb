// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios and the estimate call shared by the step-time tests (tst_steptime, tst_moesteptime).
#pragma once

#include "core/model/gpucatalog.h"
#include "core/model/modelpresets.h"
#include "core/perf/efficiencyparams.h"
#include "core/perf/steptime.h"

namespace clusterplanner::core::steptimetest {

/// Seed S0 §3.8 / docs/methods-cost.md §8: GPT-3 175B, DP16 × TP8 × PP8 on 1,024 A100-SXM-80GB, 300 B tokens.
inline Scenario gpt3Case()
{
    Scenario s;
    s.model = gpt3Padded();
    s.cluster.gpuId = "A100-SXM-80GB";
    s.cluster.gpuCount = 1024;
    s.training.globalBatch = 1536;
    s.training.microBatch = 1;
    s.training.recompute = Recompute::Selective;
    s.training.layout = ParallelLayout {16, 8, 8, 1, 1, 1, true};
    s.economics.trainingTokens = 300e9;
    s.economics.gpuHourUsd = 1.0;
    s.economics.pue = 1.0;
    return s;
}

/// A dense SwiGLU model of `layers` layers (hidden, heads, FFN, vocabulary 32,000, sequence 4,096) on H100s.
inline Scenario denseOnH100(const char* name, int layers, int hidden, int heads, int ffn, int gpus)
{
    Scenario s;
    s.model = ModelConfig {
        name, layers, hidden, heads, heads, ffn, 32000, 4096, MlpKind::SwiGlu, NormKind::RmsNorm, false, std::nullopt};
    s.cluster.gpuId = "H100-SXM-80GB";
    s.cluster.gpuCount = gpus;
    return s;
}

inline perf::StepTimeResult estimate(const Scenario& s)
{
    const GpuSpec& gpu = *GpuCatalog::builtin().find(s.cluster.gpuId);
    return perf::estimateStepTime(s, gpu, perf::EfficiencyTable::builtin().forGpu(gpu.id));
}

} // namespace clusterplanner::core::steptimetest
