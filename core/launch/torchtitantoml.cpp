// SPDX-License-Identifier: GPL-3.0-or-later
// A torchtitan TOML job config (torchtitan/config/job_config.py, torchtitan v0.1.0): [training], [parallelism],
// [activation_checkpoint] and, for fp8, the float8 model converter.
#include "core/launch/launchplan.h"
#include "core/model/modelmath.h"

#include <sstream>

namespace clusterplanner::core::launch {

namespace {

/// Schedule names of torch.distributed.pipelining that torchtitan's pipeline_parallel_schedule accepts.
const char* scheduleName(PipelineSchedule schedule)
{
    switch (schedule) {
    case PipelineSchedule::GPipe:
        return "GPipe";
    case PipelineSchedule::OneFOneB:
        return "1F1B";
    case PipelineSchedule::Interleaved:
        return "Interleaved1F1B";
    case PipelineSchedule::ZbH1:
        return "InterleavedZeroBubble";
    case PipelineSchedule::DualPipe:
        break; // not offered for TorchTitan (data/frameworks.json): the launch plan refuses it before this
    }
    return "1F1B";
}

const char* mixedPrecisionParam(Precision precision)
{
    if (precision == Precision::AmpFp16)
        throw LaunchConfigError("torchtitan: mixed_precision_param is bfloat16 or float32; fp16 is not offered");
    return precision == Precision::Fp32 ? "float32" : "bfloat16";
}

void writeTitanTraining(const LaunchPlan& p, std::ostream& t)
{
    const TrainingConfig& tr = p.training();
    // With pipelining, local_batch_size is the whole per-replica batch the schedule splits into micro-batches;
    // without it, local_batch_size is the micro-batch and global_batch_size sets gradient accumulation.
    const int local = p.layout().pp > 1 ? tr.globalBatch / p.layout().dp : tr.microBatch;
    t << "[training]\n";
    t << "local_batch_size = " << local << "\n";
    t << "global_batch_size = " << tr.globalBatch << "\n";
    t << "seq_len = " << p.model().seqLen << "\n";
    t << "mixed_precision_param = " << quoted(mixedPrecisionParam(tr.precision)) << "\n\n";
}

/// An uneven split as TorchTitan's module_fqns_per_model_part: each model part's modules by name (the Llama
/// family's tok_embeddings, layers.N, norm and output), chunk i on pipeline rank i mod pp.
void writeModuleSplit(const LaunchPlan& p, std::ostream& t)
{
    t << "module_fqns_per_model_part = [";
    int layer = 0;
    for (std::size_t chunk = 0; chunk < p.layersPerChunk.size(); ++chunk) {
        t << (chunk == 0 ? "[" : ", [");
        std::vector<std::string> names;
        if (chunk == 0)
            names.push_back("tok_embeddings");
        for (int i = 0; i < p.layersPerChunk[chunk]; ++i)
            names.push_back("layers." + std::to_string(layer++));
        if (chunk + 1 == p.layersPerChunk.size()) {
            names.push_back("norm");
            names.push_back("output");
        }
        for (std::size_t i = 0; i < names.size(); ++i)
            t << (i == 0 ? "" : ", ") << quoted(names[i]);
        t << "]";
    }
    t << "]\n";
}

void writeParallelism(const LaunchPlan& p, std::ostream& t)
{
    const ParallelLayout& l = p.layout();
    const int zero = p.training().zeroStage;
    // ZeRO-2/3 are FSDP2 sharding over DP (ZeRO-2 keeps parameters gathered after the forward), over shard groups
    // of shardDp ranks copied shardReplicas times under hybrid sharding (HSDP); ZeRO-0 is DDP.
    const bool sharded = zero >= 2;
    t << "[parallelism]\n";
    t << "data_parallel_replicate_degree = " << (sharded ? l.shardReplicas() : l.dp) << "\n";
    t << "data_parallel_shard_degree = " << (sharded ? l.shardDp() : 1) << "\n";
    if (zero == 2)
        t << "fsdp_reshard_after_forward = \"never\"\n";
    t << "tensor_parallel_degree = " << l.tp << "\n";
    t << "pipeline_parallel_degree = " << l.pp << "\n";
    if (l.pp > 1) {
        t << "pipeline_parallel_schedule = " << quoted(scheduleName(p.training().schedule)) << "\n";
        t << "pipeline_parallel_microbatch_size = " << p.training().microBatch << "\n";
        if (p.unevenSplit())
            writeModuleSplit(p, t);
        else
            t << "pipeline_parallel_layers_per_stage = " << p.layersPerVirtualStage << "\n";
    }
    if (p.asyncTpInEffect())
        t << "enable_async_tensor_parallel = true\n";
    t << "context_parallel_degree = " << l.cp << "\n";
    t << "expert_parallel_degree = " << l.ep << "\n";
    if (p.model().moe && l.ep > 1) {
        // TorchTitan's default is 1 where Megatron-Core's is TP; it takes 1 or TP ("etp is either 1 or is the same
        // as tp", ParallelismConfig) and reads it only with EP.
        const int expertTp = expertTensorParallel(l);
        if (expertTp != 1 && expertTp != l.tp)
            throw LaunchConfigError(
                "torchtitan: expert tp is 1 or tp (" + std::to_string(l.tp) + "), not " + std::to_string(expertTp));
        t << "expert_tensor_parallel_degree = " << expertTp << "\n";
    }
    t << "\n";
}

void writeCheckpointing(const LaunchPlan& p, std::ostream& t)
{
    const Recompute r = p.training().recompute;
    t << "[activation_checkpoint]\n";
    t << "mode = " << quoted(r == Recompute::Full ? "full" : r == Recompute::Selective ? "selective" : "none") << "\n";
    if (r == Recompute::Selective)
        t << "selective_ac_option = \"op\"\n";
}

/// torchao's recipe by name; FSDP all-gathers weights in float8 only with tensorwise scaling (torchtitan gathers
/// rowwise-scaled weights in bf16).
const char* torchaoRecipeName(Fp8Recipe recipe)
{
    switch (recipe) {
    case Fp8Recipe::Rowwise:
        return "rowwise";
    case Fp8Recipe::RowwiseGwHp:
        return "rowwise_with_gw_hp";
    case Fp8Recipe::FrameworkDefault:
    case Fp8Recipe::Delayed:
    case Fp8Recipe::Tensorwise:
        break;
    }
    return "tensorwise"; // torchao has no delayed recipe; TorchTitan's default is tensorwise
}

void writeFloat8(Fp8Recipe recipe, std::ostream& t)
{
    const std::string name = torchaoRecipeName(recipe);
    // The output layer stays bf16, as the estimate assumes (the 2024 converter skipped it by name).
    t << "[float8]\nrecipe_name = \"" << name << "\"\nfilter_fqns = [\"output\"]\n";
    if (name == "tensorwise")
        t << "enable_fsdp_float8_all_gather = true\nprecompute_float8_dynamic_scale_for_fsdp = true\n";
    t << "\n";
}

/// A torchtitan model flavor: the registered architecture a job config names (torchtitan/models/*/__init__.py).
struct TitanFlavor
{
    const char* name;
    const char* flavor;
    int layers, hidden, heads, kvHeads, ffnHidden, vocab;
};

/// The Llama 3 flavors of torchtitan v0.1.0 (torchtitan/models/llama3/__init__.py; the FFN from its multiplier).
constexpr TitanFlavor kTitanFlavors[] = {
    {"llama3", "8B", 32, 4096, 32, 8, 14336, 128256},
    {"llama3", "70B", 80, 8192, 64, 8, 28672, 128256},
    {"llama3", "405B", 126, 16384, 128, 8, 53248, 128256},
};

const TitanFlavor* titanFlavorOf(const ModelConfig& m)
{
    for (const TitanFlavor& f : kTitanFlavors)
        if (m.layers == f.layers && m.hidden == f.hidden && m.heads == f.heads && m.kvHeads == f.kvHeads
            && m.ffnHidden == f.ffnHidden && m.vocab == f.vocab && !m.moe && !m.mla.enabled()
            && m.norm == NormKind::RmsNorm && m.mlp == MlpKind::SwiGlu && !m.tiedEmbeddings && !m.qkNorm
            && m.headDim == 0 && !m.parallelBlock && (m.ropeBase == 0 || m.ropeBase == 500000))
            return &f;
    return nullptr;
}

/// The [model] table: the matching flavor, or a flavor torchtitan will refuse by name (rather than its default debug
/// model) and a note saying what to register.
void writeTitanModel(const LaunchPlan& p, std::ostream& t, std::vector<std::string>& notes)
{
    t << "[model]\n";
    if (const TitanFlavor* f = titanFlavorOf(p.model())) {
        t << "name = " << quoted(f->name) << "\nflavor = " << quoted(f->flavor) << "\n";
        if (p.model().ropeBase == 0) // the flavor brings Llama 3's base, which the model did not state
            notes.push_back("model.rope_base is not stated: the " + std::string(f->flavor)
                + " flavor trains with Llama 3's RoPE base 500,000");
    } else {
        t << "# no torchtitan flavor has this shape: register one and name it here\n";
        t << "name = \"llama3\"\nflavor = " << quoted(p.model().name) << "\n";
        notes.push_back("torchtitan builds models from registered flavors; none has the shape of "
            + quoted(p.model().name)
            + " (only Llama 3 8B, 70B and 405B are matched): add it to "
              "torchtitan/models/llama3/__init__.py (or the model family's) under that name, or the job stops at "
              "the unknown flavor");
    }
    if (p.training().precision == Precision::Fp8)
        t << "converters = [\"float8\"]\n";
    t << "\n";
}

} // namespace

LaunchFile writeTorchTitanToml(const LaunchPlan& plan)
{
    LaunchFile file;
    file.fileName = "torchtitan-job.toml";
    file.launchLine = torchrunLine(*plan.scenario, "-m torchtitan.train --job.config_file " + file.fileName);
    std::ostringstream t;
    t << "# torchtitan v0.1.0 job config for " << quoted(plan.scenario->name) << ": " << plan.nodes << " nodes x "
      << plan.gpusPerNode << " GPUs\n";
    t << "# launch: " << file.launchLine << "\n\n";
    t << "[job]\ndescription = " << quoted(plan.scenario->name) << "\n\n";
    writeTitanModel(plan, t, file.notes);
    const bool fp8 = plan.training().precision == Precision::Fp8;
    if (fp8)
        writeFloat8(plan.fp8RecipeInEffect(), t);
    writeTitanTraining(plan, t);
    writeParallelism(plan, t);
    writeCheckpointing(plan, t);
    // Compiled per transformer block, the loss too: what the fused-kernel time model assumes (data/frameworks.json).
    t << "\n[compile]\nenable = " << (plan.training().compile ? "true" : "false")
      << "\ncomponents = [\"model\", \"loss\"]\n";
    file.text = t.str();
    if (plan.training().schedule == PipelineSchedule::ZbH1 && plan.layout().pp > 1)
        file.notes.push_back("ZB-H1 maps to torch's InterleavedZeroBubble schedule");
    return file;
}

} // namespace clusterplanner::core::launch
