// SPDX-License-Identifier: GPL-3.0-or-later
// Launch configurations are parsed back with the readers the frameworks' own ecosystems use (toml11 for TOML,
// yaml-cpp for YAML, nlohmann for JSON, a shell-word tokenizer for Megatron-LM's command line) and checked for
// the layout, batch, precision, recompute and schedule of the scenario.
#include "core/io/scenariojson.h"
#include "core/launch/launchconfig.h"
#include "core/memory/activationoffload.h"
#include "core/model/modelpresets.h"
#include "tests/cli/clitesthelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>
#include <toml.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <sstream>

using namespace clusterplanner::core;
using namespace clusterplanner::core::launch;

namespace {

/// Megatron-LM arguments: "--name value" or "--name" alone, after the script name.
using ArgMap = std::multimap<std::string, std::string>;

/// Splits shell text into words: whitespace separates, single quotes group, "\\\n" continues, '#' lines skip.
std::vector<std::string> shellWords(const std::string& text)
{
    std::vector<std::string> words;
    std::istringstream lines(text);
    std::string line, word;
    bool inWord = false;
    while (std::getline(lines, line)) {
        if (line.rfind('#', 0) == 0)
            continue;
        bool quoted = false;
        for (const char c : line) {
            if (c == '\'') {
                quoted = !quoted;
                inWord = true;
            } else if (!quoted && (c == ' ' || c == '\\')) {
                if (inWord)
                    words.push_back(word);
                word.clear();
                inWord = false;
            } else {
                word += c;
                inWord = true;
            }
        }
        if (inWord)
            words.push_back(word);
        word.clear();
        inWord = false;
    }
    return words;
}

ArgMap megatronArgs(const std::string& text)
{
    const auto words = shellWords(text);
    ArgMap args;
    auto it = std::find(words.begin(), words.end(), "pretrain_gpt.py");
    for (++it; it != words.end(); ++it) {
        const bool hasValue = it + 1 != words.end() && (it + 1)->rfind("--", 0) != 0;
        args.emplace(*it, hasValue ? *(it + 1) : "");
        if (hasValue)
            ++it;
    }
    return args;
}

int intArg(const ArgMap& args, const std::string& name)
{
    const auto it = args.find(name);
    return it == args.end() ? -1 : std::stoi(it->second);
}

/// World size from "torchrun --nnodes=N --nproc-per-node=G ...".
int worldSize(const std::string& launchLine)
{
    const auto number = [&](const std::string& key) {
        const auto at = launchLine.find(key);
        return at == std::string::npos ? 0 : std::stoi(launchLine.substr(at + key.size()));
    };
    return number("--nnodes=") * number("--nproc-per-node=");
}

Scenario loadScenario(const char* file)
{
    return readScenarioFile(clitest::readFile(std::string(CLUSTERPLANNER_DATA_DIR) + "/scenarios/" + file));
}

/// 64 GPUs as tp 2 × pp 4 × cp 2 × dp 4, ep 4, two interleaved chunks, micro-batch 2, global batch 256.
Scenario moeScenario()
{
    Scenario s;
    s.name = "MoE \"test\" run";
    s.model = modelPreset("Mixtral 8x7B");
    s.cluster.gpuCount = 64;
    s.cluster.gpusPerNode = 8;
    s.training.layout = ParallelLayout {4, 2, 4, 2, 4, 2, true};
    s.training.schedule = PipelineSchedule::Interleaved;
    s.training.microBatch = 2;
    s.training.globalBatch = 256;
    s.training.precision = Precision::AmpBf16;
    s.training.recompute = Recompute::Selective;
    s.training.zeroStage = 1;
    return s;
}

std::string errorOf(const Scenario& s, LaunchFramework framework)
{
    try {
        makeLaunchConfig(s, framework);
    } catch (const LaunchConfigError& error) {
        return error.what();
    }
    return {};
}

} // namespace

class TestLaunchConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void megatronGpt3()
    {
        const LaunchFile file
            = makeLaunchConfig(loadScenario("gpt3-175b-1024-a100.cplan.json"), LaunchFramework::Megatron);
        const ArgMap args = megatronArgs(file.text);
        QCOMPARE(intArg(args, "--tensor-model-parallel-size"), 8);
        QCOMPARE(intArg(args, "--pipeline-model-parallel-size"), 8);
        QCOMPARE(intArg(args, "--context-parallel-size"), 1);
        QCOMPARE(worldSize(file.text) / (8 * 8 * 1), 16); // Megatron derives dp from the world size
        QCOMPARE(intArg(args, "--micro-batch-size"), 1);
        QCOMPARE(intArg(args, "--global-batch-size"), 1536);
        QVERIFY(args.count("--fp16") == 1 && args.count("--bf16") == 0);
        QCOMPARE(args.find("--recompute-granularity")->second, std::string("full"));
        QCOMPARE(args.find("--recompute-method")->second, std::string("uniform"));
        QVERIFY(args.count("--num-layers-per-virtual-pipeline-stage") == 0); // 1F1B: one chunk per rank
        QVERIFY(args.count("--use-distributed-optimizer") == 0); // ZeRO 0
        QVERIFY(file.text.find("--nnodes=128 --nproc-per-node=8") != std::string::npos);
        QCOMPARE(args.count("--qk-layernorm"), std::size_t(0)); // GPT-3 has no QK norm
        Scenario qwen = loadScenario("gpt3-175b-1024-a100.cplan.json");
        qwen.model.qkNorm = true;
        QCOMPARE(megatronArgs(makeLaunchConfig(qwen, LaunchFramework::Megatron).text).count("--qk-layernorm"),
            std::size_t(1));
    }

    /// No writer's stack builds a parallel attention/MLP block: each refuses it rather than write a config for the
    /// sequential block, a different model.
    void parallelBlockIsRefusedByEveryWriter()
    {
        Scenario s = loadScenario("gpt3-175b-1024-a100.cplan.json");
        s.model.parallelBlock = true;
        for (const auto framework : {LaunchFramework::Megatron, LaunchFramework::NeMo, LaunchFramework::TorchTitan,
                 LaunchFramework::DeepSpeed}) {
            const std::string error = errorOf(s, framework);
            QVERIFY2(error.find("parallel attention and MLP block") != std::string::npos, error.c_str());
        }
        s.model.parallelBlock = false;
        QVERIFY(errorOf(s, LaunchFramework::Megatron).empty());
    }

    void megatronMoeInterleaved()
    {
        const LaunchFile file = makeLaunchConfig(moeScenario(), LaunchFramework::Megatron);
        const ArgMap args = megatronArgs(file.text);
        QCOMPARE(intArg(args, "--tensor-model-parallel-size"), 2);
        QCOMPARE(intArg(args, "--pipeline-model-parallel-size"), 4);
        QCOMPARE(intArg(args, "--context-parallel-size"), 2);
        QCOMPARE(intArg(args, "--expert-model-parallel-size"), 4);
        QCOMPARE(worldSize(file.text) / (2 * 4 * 2), 4);
        QCOMPARE(intArg(args, "--num-layers-per-virtual-pipeline-stage"), 4); // 32 layers / (4 × 2)
        QCOMPARE(intArg(args, "--micro-batch-size"), 2);
        QCOMPARE(intArg(args, "--global-batch-size"), 256);
        QCOMPARE(args.count("--bf16"), std::size_t(1));
        QCOMPARE(args.find("--recompute-granularity")->second, std::string("selective"));
        QCOMPARE(intArg(args, "--num-experts"), 8);
        QCOMPARE(intArg(args, "--moe-router-topk"), 2);
        QCOMPARE(intArg(args, "--num-query-groups"), 8);
        QCOMPARE(args.count("--sequence-parallel"), std::size_t(1));
        QCOMPARE(args.count("--use-distributed-optimizer"), std::size_t(1));
    }

    void megatronDenseFirstLayers()
    {
        Scenario s = moeScenario();
        s.model = modelPreset("DeepSeek-V3");
        s.training.layout = ParallelLayout {4, 2, 1, 2, 4, 1, true};
        s.cluster.gpuCount = 16;
        s.training.globalBatch = 64;
        const ArgMap args = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        QCOMPARE(args.find("--moe-layer-freq")->second, std::string("([0]*3+[1]*58)"));
        QCOMPARE(intArg(args, "--moe-shared-expert-intermediate-size"), 2048);
        // Node-limited routing: 8 groups, 4 per token (DeepSeek-V3's Megatron and Megatron-Bridge recipes).
        QCOMPARE(intArg(args, "--moe-router-num-groups"), 8);
        QCOMPARE(intArg(args, "--moe-router-group-topk"), 4);
        // Multi-head latent attention as DeepSeek-V3's Megatron recipes write it, with the latents' norms.
        QCOMPARE(args.count("--multi-latent-attention"), std::size_t(1));
        QCOMPARE(intArg(args, "--q-lora-rank"), 1536);
        QCOMPARE(intArg(args, "--kv-lora-rank"), 512);
        QCOMPARE(intArg(args, "--qk-head-dim"), 128);
        QCOMPARE(intArg(args, "--qk-pos-emb-head-dim"), 64);
        QCOMPARE(intArg(args, "--v-head-dim"), 128);
        QCOMPARE(args.count("--qk-layernorm"), std::size_t(1));
        QCOMPARE(args.count("--num-query-groups"), std::size_t(0));
        Scenario lite = s;
        lite.model.mla.qLoraRank = 0; // no query latent: Megatron's q_lora_rank stays unset
        QCOMPARE(megatronArgs(makeLaunchConfig(lite, LaunchFramework::Megatron).text).count("--q-lora-rank"),
            std::size_t(0));
        const YAML::Node bridge = YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text);
        QCOMPARE(bridge["model"]["moe_router_num_groups"].as<int>(), 8);
        QCOMPARE(bridge["model"]["moe_router_group_topk"].as<int>(), 4);
        // The preset's multi-token-prediction module, and none where the scenario has none (the Bridge recipe would
        // otherwise add its own).
        QCOMPARE(intArg(args, "--mtp-num-layers"), 1);
        QCOMPARE(bridge["model"]["mtp_num_layers"].as<int>(), 1);
        Scenario noMtp = s;
        noMtp.model.mtpLayers = 0;
        QCOMPARE(megatronArgs(makeLaunchConfig(noMtp, LaunchFramework::Megatron).text).count("--mtp-num-layers"),
            std::size_t(0));
        QVERIFY(YAML::Load(makeLaunchConfig(noMtp, LaunchFramework::NeMo).text)["model"]["mtp_num_layers"].IsNull());
        // Stacks whose files carry no key for it say that the estimate counts the module (the layouts of the
        // TorchTitan and DeepSpeed tests below, with a module).
        const auto mentions = [](const LaunchFile& file) {
            return std::any_of(file.notes.begin(), file.notes.end(),
                [](const std::string& n) { return n.find("multi-token-prediction") != std::string::npos; });
        };
        Scenario titan = moeScenario();
        titan.training.zeroStage = 3;
        Scenario deepSpeed = moeScenario();
        deepSpeed.training.schedule = PipelineSchedule::OneFOneB;
        deepSpeed.training.layout.virtualStages = 1;
        deepSpeed.training.recompute = Recompute::Full;
        QVERIFY(!mentions(makeLaunchConfig(titan, LaunchFramework::TorchTitan)));
        QVERIFY(!mentions(makeLaunchConfig(deepSpeed, LaunchFramework::DeepSpeed)));
        titan.model.mtpLayers = deepSpeed.model.mtpLayers = 1;
        QVERIFY(mentions(makeLaunchConfig(titan, LaunchFramework::TorchTitan)));
        QVERIFY(mentions(makeLaunchConfig(deepSpeed, LaunchFramework::DeepSpeed)));
        // EP 4 divides DP 4: the experts are split by TP as well (Megatron's default), so no expert TP is written.
        QCOMPARE(args.count("--expert-tensor-parallel-size"), std::size_t(0));
        // An EP group that reaches into the TP ranks (DP 2 × TP 4, EP 8: parallel folding) needs expert TP 1.
        Scenario folded = s;
        folded.training.layout = ParallelLayout {2, 4, 1, 1, 8, 1, true};
        folded.cluster.gpuCount = 8;
        folded.training.globalBatch = 32;
        QCOMPARE(intArg(megatronArgs(makeLaunchConfig(folded, LaunchFramework::Megatron).text),
                     "--expert-tensor-parallel-size"),
            1);
        QCOMPARE(
            YAML::Load(makeLaunchConfig(folded, LaunchFramework::NeMo).text)["model"]["expert_tensor_parallel_size"]
                .as<int>(),
            1);
        // A stated expert TP is written where it differs from Megatron's default (TP) and always for Megatron-Bridge,
        // whose MoE presets state it: expert TP 1 beside EP 4 within DP 4 (the NeMo recipes' choice).
        Scenario stated = s;
        stated.training.layout.expertTp = 1;
        QCOMPARE(intArg(megatronArgs(makeLaunchConfig(stated, LaunchFramework::Megatron).text),
                     "--expert-tensor-parallel-size"),
            1);
        const auto bridgeExpertTp = [](const Scenario& scenario) {
            return YAML::Load(
                makeLaunchConfig(scenario, LaunchFramework::NeMo).text)["model"]["expert_tensor_parallel_size"]
                .as<int>();
        };
        QCOMPARE(bridgeExpertTp(stated), 1);
        QCOMPARE(bridgeExpertTp(s), s.training.layout.tp);
        Scenario statedDefault = s; // stated as TP: Megatron's default, so no flag
        statedDefault.training.layout.expertTp = s.training.layout.tp;
        QCOMPARE(megatronArgs(makeLaunchConfig(statedDefault, LaunchFramework::Megatron).text)
                     .count("--expert-tensor-parallel-size"),
            std::size_t(0));
        // TorchTitan's default is 1, so it is always written with EP; it takes only 1 or TP.
        const auto titanExpertTp = [](const Scenario& scenario) {
            const std::string text = makeLaunchConfig(scenario, LaunchFramework::TorchTitan).text;
            const auto at = text.find("expert_tensor_parallel_degree = ");
            return at == std::string::npos ? -1 : std::stoi(text.substr(at + 32));
        };
        Scenario titanStated = stated;
        titanStated.training.zeroStage = 3;
        titanStated.training.schedule = PipelineSchedule::OneFOneB;
        titanStated.training.layout.virtualStages = 1;
        QCOMPARE(titanExpertTp(titanStated), 1);
        titanStated.training.layout.expertTp = kExpertTpDefault;
        QCOMPARE(titanExpertTp(titanStated), s.training.layout.tp);
        // A stated expert TP whose groups do not fit the GPUs is refused by every writer.
        Scenario misfit = s;
        misfit.training.layout.expertTp = 3;
        QVERIFY_THROWS_EXCEPTION(LaunchConfigError, makeLaunchConfig(misfit, LaunchFramework::Megatron));
        // A model routing freely says nothing.
        const ArgMap mixtral = megatronArgs(makeLaunchConfig(moeScenario(), LaunchFramework::Megatron).text);
        QCOMPARE(mixtral.count("--moe-router-num-groups") + mixtral.count("--moe-router-group-topk"), std::size_t(0));
        // So does one whose tokens may use every group: the same routing as none.
        s.model.moe->groupsPerToken = s.model.moe->expertGroups;
        const ArgMap everyGroup = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        QCOMPARE(everyGroup.count("--moe-router-num-groups"), std::size_t(0));
        QVERIFY(!YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text)["model"]["moe_router_num_groups"]);
    }

    void bridgeYaml()
    {
        const LaunchFile file = makeLaunchConfig(moeScenario(), LaunchFramework::NeMo);
        const YAML::Node y = YAML::Load(file.text);
        const YAML::Node model = y["model"];
        QCOMPARE(model["tensor_model_parallel_size"].as<int>(), 2);
        QCOMPARE(model["pipeline_model_parallel_size"].as<int>(), 4);
        QCOMPARE(model["virtual_pipeline_model_parallel_size"].as<int>(), 2); // interleaved
        QCOMPARE(model["context_parallel_size"].as<int>(), 2);
        QCOMPARE(model["expert_model_parallel_size"].as<int>(), 4);
        QVERIFY(model["sequence_parallel"].as<bool>());
        QCOMPARE(model["recompute_granularity"].as<std::string>(), std::string("selective"));
        QCOMPARE(y["train"]["micro_batch_size"].as<int>(), 2);
        QCOMPARE(y["train"]["global_batch_size"].as<int>(), 256);
        QCOMPARE(y["mixed_precision"].as<std::string>(), std::string("bf16_mixed"));
        QVERIFY(y["ddp"]["use_distributed_optimizer"].as<bool>());
        QCOMPARE(worldSize(file.launchLine) / (2 * 4 * 2), 4);
    }

    void bridgeYamlOneFOneB()
    {
        const LaunchFile file = makeLaunchConfig(loadScenario("gpt3-175b-1024-a100.cplan.json"), LaunchFramework::NeMo);
        const YAML::Node y = YAML::Load(file.text);
        QVERIFY(y["model"]["virtual_pipeline_model_parallel_size"].IsNull());
        QCOMPARE(y["model"]["recompute_granularity"].as<std::string>(), std::string("full"));
        QCOMPARE(y["model"]["recompute_num_layers"].as<int>(), 1);
        QCOMPARE(y["mixed_precision"].as<std::string>(), std::string("fp16_mixed"));
    }

    void torchtitanToml()
    {
        Scenario s = moeScenario();
        s.training.zeroStage = 3; // FSDP2 full sharding over the 4 data-parallel ranks
        const LaunchFile file = makeLaunchConfig(s, LaunchFramework::TorchTitan);
        std::istringstream stream(file.text);
        const auto t = toml::parse(stream, "torchtitan-job.toml");
        QCOMPARE(toml::find<int>(t, "parallelism", "data_parallel_shard_degree"), 4);
        QCOMPARE(toml::find<int>(t, "parallelism", "data_parallel_replicate_degree"), 1);
        QCOMPARE(toml::find<int>(t, "parallelism", "tensor_parallel_degree"), 2);
        QCOMPARE(toml::find<int>(t, "parallelism", "pipeline_parallel_degree"), 4);
        QCOMPARE(toml::find<int>(t, "parallelism", "context_parallel_degree"), 2);
        QCOMPARE(toml::find<int>(t, "parallelism", "expert_parallel_degree"), 4);
        QCOMPARE(
            toml::find<std::string>(t, "parallelism", "pipeline_parallel_schedule"), std::string("Interleaved1F1B"));
        QCOMPARE(toml::find<int>(t, "parallelism", "pipeline_parallel_microbatch_size"), 2);
        QCOMPARE(toml::find<int>(t, "parallelism", "pipeline_parallel_layers_per_stage"), 4);
        QCOMPARE(toml::find<int>(t, "training", "local_batch_size"), 64); // 256 / dp 4, split by the schedule
        QCOMPARE(toml::find<int>(t, "training", "global_batch_size"), 256);
        QCOMPARE(toml::find<std::string>(t, "training", "mixed_precision_param"), std::string("bfloat16"));
        QCOMPARE(toml::find<std::string>(t, "activation_checkpoint", "mode"), std::string("selective"));
        QCOMPARE(toml::find<std::string>(t, "job", "description"), s.name); // quotes survive
        QCOMPARE(toml::find<bool>(t, "compile", "enable"), true); // the fused time model assumes torch.compile
    }

    void torchtitanReplicatedWithoutPipeline()
    {
        Scenario s = moeScenario();
        s.training.layout = ParallelLayout {16, 2, 1, 2, 4, 1, true};
        s.training.zeroStage = 0;
        s.training.recompute = Recompute::Full;
        s.training.precision = Precision::Fp8;
        std::istringstream stream(makeLaunchConfig(s, LaunchFramework::TorchTitan).text);
        const auto t = toml::parse(stream, "torchtitan-job.toml");
        QCOMPARE(toml::find<int>(t, "parallelism", "data_parallel_replicate_degree"), 16);
        QCOMPARE(toml::find<int>(t, "training", "local_batch_size"), 2); // micro-batch; accumulation from global
        QCOMPARE(toml::find<std::string>(t, "activation_checkpoint", "mode"), std::string("full"));
        QCOMPARE(toml::find<std::vector<std::string>>(t, "model", "converters"), std::vector<std::string> {"float8"});
        QCOMPARE(toml::find(t, "parallelism").as_table().count("pipeline_parallel_schedule"), std::size_t(0));
        s.training.compile = false;
        std::istringstream eager(makeLaunchConfig(s, LaunchFramework::TorchTitan).text);
        QCOMPARE(toml::find<bool>(toml::parse(eager, "torchtitan-job.toml"), "compile", "enable"), false);
    }

    /// Async TP is written where the estimate models it, and only there (core/model/frameworkrules.h); where it is
    /// asked for but cannot apply, the config says why instead of a switch the framework would refuse.
    void asyncTpFollowsTheEstimatesRule()
    {
        Scenario s = moeScenario();
        s.training.asyncTp = true;
        s.training.layout = ParallelLayout {16, 2, 1, 2, 4, 1, true}; // no pipeline: a ZeRO stage all three run
        s.training.zeroStage = 0;
        const auto titanParallelism = [](const Scenario& scenario) {
            std::istringstream stream(makeLaunchConfig(scenario, LaunchFramework::TorchTitan).text);
            return toml::find(toml::parse(stream, "torchtitan-job.toml"), "parallelism").as_table();
        };
        QVERIFY(titanParallelism(s).at("enable_async_tensor_parallel").as_boolean());
        QCOMPARE(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text).count("--tp-comm-overlap"),
            std::size_t(1));
        QVERIFY(YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text)["model"]["tp_comm_overlap"].as<bool>());

        Scenario eager = s;
        eager.training.compile = false; // TorchTitan's async TP is a torch.compile pass; Megatron's is not
        QCOMPARE(titanParallelism(eager).count("enable_async_tensor_parallel"), std::size_t(0));
        const LaunchFile titan = makeLaunchConfig(eager, LaunchFramework::TorchTitan);
        QVERIFY(std::any_of(titan.notes.begin(), titan.notes.end(),
            [](const std::string& n) { return n.find("async TP") != n.npos && n.find("compile") != n.npos; }));
        QCOMPARE(megatronArgs(makeLaunchConfig(eager, LaunchFramework::Megatron).text).count("--tp-comm-overlap"),
            std::size_t(1));

        Scenario noSp = s;
        noSp.training.layout.sequenceParallel = false;
        const LaunchFile megatron = makeLaunchConfig(noSp, LaunchFramework::Megatron);
        QCOMPARE(megatronArgs(megatron.text).count("--tp-comm-overlap"), std::size_t(0));
        QVERIFY(std::any_of(megatron.notes.begin(), megatron.notes.end(),
            [](const std::string& n) { return n.find("sequence parallelism") != n.npos; }));
        QVERIFY(!YAML::Load(makeLaunchConfig(noSp, LaunchFramework::NeMo).text)["model"]["tp_comm_overlap"].as<bool>());
        QCOMPARE(titanParallelism(noSp).count("enable_async_tensor_parallel"), std::size_t(0));
    }

    /// The MoE dispatcher and the expert overlap are written as the estimate models them: Megatron's all-to-all
    /// dispatcher by name (its default is allgather), flex with DeepEP, the overlap with delayed weight gradients;
    /// where the overlap cannot apply the config says why.
    void moeCommunicationFollowsTheEstimatesRule()
    {
        Scenario s = moeScenario(); // interleaved PP 4 × 2 chunks, EP 4, selective recompute
        ArgMap args = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        QCOMPARE(args.find("--moe-token-dispatcher-type")->second, std::string("alltoall"));
        QCOMPARE(args.count("--moe-enable-deepep") + args.count("--overlap-moe-expert-parallel-comm"), std::size_t(0));
        s.training.moeDispatcher = MoeDispatcher::DeepEp;
        s.training.moeOverlap = true;
        const LaunchFile megatron = makeLaunchConfig(s, LaunchFramework::Megatron);
        args = megatronArgs(megatron.text);
        QCOMPARE(args.find("--moe-token-dispatcher-type")->second, std::string("flex"));
        for (const char* flag : {"--moe-enable-deepep", "--overlap-moe-expert-parallel-comm", "--delay-wgrad-compute"})
            QVERIFY2(args.count(flag) == 1, flag);
        const YAML::Node bridge = YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text);
        QCOMPARE(bridge["model"]["moe_token_dispatcher_type"].as<std::string>(), std::string("flex"));
        QCOMPARE(bridge["model"]["moe_flex_dispatcher_backend"].as<std::string>(), std::string("deepep"));
        QVERIFY(bridge["comm_overlap"]["overlap_moe_expert_parallel_comm"].as<bool>());
        QVERIFY(bridge["comm_overlap"]["delay_wgrad_compute"].as<bool>());

        // Megatron pairs the chunks of the interleaved schedule: a 1F1B pipeline (whatever its virtual stages say)
        // gets no overlap flag, which Megatron would refuse without a virtual pipeline size.
        Scenario plain = s;
        plain.training.schedule = PipelineSchedule::OneFOneB;
        const LaunchFile oneFOneB = makeLaunchConfig(plain, LaunchFramework::Megatron);
        QCOMPARE(megatronArgs(oneFOneB.text).count("--overlap-moe-expert-parallel-comm"), std::size_t(0));
        QVERIFY(std::any_of(oneFOneB.notes.begin(), oneFOneB.notes.end(),
            [](const std::string& n) { return n.find("interleaved") != n.npos; }));

        s.training.recompute = Recompute::Full;
        const LaunchFile full = makeLaunchConfig(s, LaunchFramework::Megatron);
        QCOMPARE(megatronArgs(full.text).count("--overlap-moe-expert-parallel-comm"), std::size_t(0));
        QVERIFY(std::any_of(full.notes.begin(), full.notes.end(),
            [](const std::string& n) { return n.find("overlap") != n.npos && n.find("full recompute") != n.npos; }));
        QVERIFY(!YAML::Load(
            makeLaunchConfig(s, LaunchFramework::NeMo).text)["comm_overlap"]["overlap_moe_expert_parallel_comm"]
                     .as<bool>());

        // The flex dispatcher needs TP × EP > 1: with neither it is not written, and the config says why.
        s.training.recompute = Recompute::Selective;
        s.training.layout = ParallelLayout {16, 1, 4, 1, 1, 2, false};
        const LaunchFile single = makeLaunchConfig(s, LaunchFramework::Megatron);
        QCOMPARE(megatronArgs(single.text).find("--moe-token-dispatcher-type")->second, std::string("alltoall"));
        QVERIFY(std::any_of(single.notes.begin(), single.notes.end(),
            [](const std::string& n) { return n.find("TP × EP > 1") != n.npos; }));
    }

    /// The shared experts beside the all-to-all dispatcher are written where the estimate counts them (§4.39):
    /// Megatron-Core's option is off by default, and neither the flex dispatcher nor the paired overlap takes it.
    void sharedExpertOverlapFollowsTheEstimatesRule()
    {
        Scenario s = moeScenario(); // interleaved PP 4 × 2 chunks, EP 4, the all-to-all dispatcher
        QCOMPARE(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text).count("--moe-shared-expert-overlap"),
            std::size_t(0)); // no shared experts, nothing to overlap
        QVERIFY(!YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text)["model"]["moe_shared_expert_overlap"]
                     .as<bool>()); // written false: recipes may default it on
        s.model.moe->sharedExperts = 1;
        QCOMPARE(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text).count("--moe-shared-expert-overlap"),
            std::size_t(1));
        QVERIFY(YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text)["model"]["moe_shared_expert_overlap"]
                    .as<bool>());
        s.training.moeDispatcher = MoeDispatcher::DeepEp;
        QCOMPARE(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text).count("--moe-shared-expert-overlap"),
            std::size_t(0));
        QVERIFY(!YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text)["model"]["moe_shared_expert_overlap"]
                     .as<bool>());
        s.training.moeDispatcher = MoeDispatcher::AllToAll;
        s.training.moeOverlap = true;
        QCOMPARE(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text).count("--moe-shared-expert-overlap"),
            std::size_t(0));
        QVERIFY(!YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text)["model"]["moe_shared_expert_overlap"]
                     .as<bool>());
    }

    void moduleRecomputeIsWrittenAsMegatronsModuleList()
    {
        Scenario s = moeScenario();
        s.training.recompute = Recompute::Modules;
        const LaunchFile megatron = makeLaunchConfig(s, LaunchFramework::Megatron);
        // A list flag (nargs): one shell word per module, not one quoted word.
        QVERIFY2(
            megatron.text.find("--recompute-modules moe_act layernorm") != std::string::npos, megatron.text.c_str());
        QCOMPARE(megatronArgs(megatron.text).find("--recompute-granularity")->second, std::string("selective"));
        // Megatron-Core refuses moe_act in recompute_modules without the grouped GEMM.
        QCOMPARE(megatronArgs(megatron.text).count("--moe-grouped-gemm"), std::size_t(1));
        const YAML::Node bridge = YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text);
        QCOMPARE(bridge["model"]["recompute_granularity"].as<std::string>(), std::string("selective"));
        const auto modules = bridge["model"]["recompute_modules"].as<std::vector<std::string>>();
        QCOMPARE(modules, (std::vector<std::string> {"moe_act", "layernorm"}));
        QVERIFY(bridge["model"]["moe_grouped_gemm"].as<bool>());
        // TorchTitan has no such mode: refused by name, not written as "none".
        QVERIFY(QString::fromStdString(errorOf(s, LaunchFramework::TorchTitan)).contains(QStringLiteral("modules")));
        // With multi-head latent attention the list recomputes its up-projections too (DeepSeek-V3's recipes), and a
        // dense MLA model has only that module.
        s.model.mla = MlaConfig {512, 1536, 128, 64, 128};
        s.model.kvHeads = s.model.heads;
        const LaunchFile latent = makeLaunchConfig(s, LaunchFramework::Megatron);
        QVERIFY2(latent.text.find("--recompute-modules moe_act layernorm mla_up_proj") != std::string::npos,
            latent.text.c_str());
        QCOMPARE(YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text)["model"]["recompute_modules"]
                     .as<std::vector<std::string>>(),
            (std::vector<std::string> {"moe_act", "layernorm", "mla_up_proj"}));
        s.model.moe.reset();
        s.training.layout.ep = 1;
        const ArgMap dense = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        QCOMPARE(dense.find("--recompute-modules")->second, std::string("mla_up_proj"));
        QCOMPARE(YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text)["model"]["recompute_modules"]
                     .as<std::vector<std::string>>(),
            (std::vector<std::string> {"mla_up_proj"}));
    }

    /// Activation offload is written as the estimate resolves it (auto: the fewest layers that fit) for Megatron and
    /// Megatron-Bridge; with pipeline stages Megatron-Core refuses it, so it is left out and the config says why.
    void activationOffloadIsWritten()
    {
        Scenario s = defaultScenario(); // Llama 3 70B FP8 on 64 GB200, TP 1, PP 1 (NVIDIA runs it offloading 40)
        s.model = modelPreset("Llama 3 70B");
        s.model.seqLen = 8192;
        s.cluster.gpuId = "GB200";
        s.cluster.gpuCount = 64;
        s.cluster.gpusPerNode = 4;
        s.training.precision = Precision::Fp8;
        s.training.layout = ParallelLayout {64, 1, 1, 1, 1, 1, false};
        s.training.globalBatch = 128;
        s.training.microBatch = 2;
        s.training.recompute = Recompute::None;
        s.training.zeroStage = 1;
        s.training.activationOffloadLayers = 40;
        ArgMap args = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        QCOMPARE(args.count("--cpu-offloading"), std::size_t(1));
        QCOMPARE(intArg(args, "--cpu-offloading-num-layers"), 40);

        const YAML::Node model = YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text)["model"];
        QVERIFY(model["cpu_offloading"].as<bool>());
        QCOMPARE(model["cpu_offloading_num_layers"].as<int>(), 40);

        // Auto is resolved as the estimate resolves it: Llama 3 8B at micro-batch 8 needs about 22 of 32 layers.
        Scenario small = s;
        small.model = modelPreset("Llama 3 8B");
        small.model.seqLen = 8192;
        small.training.microBatch = 8;
        small.training.globalBatch = 512;
        small.training.activationOffloadLayers = kActivationOffloadAuto;
        const int expected = activationOffloadLayersInEffect(
            makeMemoryContext(small.model, GpuCatalog::builtin().find("GB200")), small.training);
        QVERIFY2(expected > 0 && expected < 32, qPrintable(QString::number(expected)));
        QCOMPARE(intArg(megatronArgs(makeLaunchConfig(small, LaunchFramework::Megatron).text),
                     "--cpu-offloading-num-layers"),
            expected);

        s.training.layout = ParallelLayout {32, 1, 2, 1, 1, 1, false};
        const LaunchFile pipelined = makeLaunchConfig(s, LaunchFramework::NeMo);
        QVERIFY(!YAML::Load(pipelined.text)["model"]["cpu_offloading"]);
        QVERIFY(std::any_of(pipelined.notes.begin(), pipelined.notes.end(),
            [](const std::string& n) { return n.find("offload") != n.npos && n.find("pipeline") != n.npos; }));
    }

    /// ZeRO-3 under Megatron and Megatron-Bridge is Megatron-FSDP (NVIDIA's Llama 3 presets: use_megatron_fsdp),
    /// with the flags its README requires; with pipeline stages it is refused, as the planner refuses it.
    void zero3IsWrittenAsMegatronFsdp()
    {
        Scenario s = defaultScenario();
        s.training.layout = ParallelLayout {256, 1, 1, 1, 1, 1, false};
        s.training.schedule = PipelineSchedule::OneFOneB;
        s.training.zeroStage = 3;
        const LaunchFile megatron = makeLaunchConfig(s, LaunchFramework::Megatron);
        const ArgMap args = megatronArgs(megatron.text);
        for (const char* flag :
            {"--use-megatron-fsdp", "--use-distributed-optimizer", "--no-gradient-accumulation-fusion"})
            QVERIFY2(args.count(flag) == 1, flag);
        QCOMPARE(args.find("--data-parallel-sharding-strategy")->second, std::string("optim_grads_params"));
        QCOMPARE(args.find("--ckpt-format")->second, std::string("fsdp_dtensor"));
        const YAML::Node bridge = YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text);
        QVERIFY(bridge["ddp"]["use_megatron_fsdp"].as<bool>());
        QCOMPARE(bridge["ddp"]["data_parallel_sharding_strategy"].as<std::string>(), std::string("optim_grads_params"));
        QVERIFY(bridge["ddp"]["use_distributed_optimizer"].as<bool>());
        QCOMPARE(bridge["checkpoint"]["ckpt_format"].as<std::string>(), std::string("fsdp_dtensor"));

        s.training.zeroStage = 1; // the distributed optimizer alone: no FSDP flags
        QCOMPARE(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text).count("--use-megatron-fsdp"),
            std::size_t(0));
        s.training.zeroStage = 3;
        s.training.layout = ParallelLayout {128, 1, 2, 1, 1, 1, false};
        QVERIFY(QString::fromStdString(errorOf(s, LaunchFramework::Megatron)).contains(QLatin1String("ZeRO stage 3")));
    }

    /// The model's RoPE base and the overlaps the estimate assumes are written; a model with no stated base gets a
    /// note instead of Megatron's silent 10,000.
    void megatronWritesTheRopeBaseAndTheOverlaps()
    {
        Scenario s = defaultScenario(); // Llama 3 70B on 256 H100, the distributed optimizer
        ArgMap args = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        QCOMPARE(args.find("--rotary-base")->second, std::string("500000"));
        QCOMPARE(args.count("--overlap-grad-reduce"), std::size_t(1));
        QCOMPARE(args.count("--overlap-param-gather"), std::size_t(1));
        const YAML::Node bridge = YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text);
        QVERIFY(bridge["ddp"]["overlap_grad_reduce"].as<bool>());
        QVERIFY(bridge["ddp"]["overlap_param_gather"].as<bool>());
        s.model.ropeBase = 0;
        const LaunchFile unstated = makeLaunchConfig(s, LaunchFramework::Megatron);
        QCOMPARE(megatronArgs(unstated.text).count("--rotary-base"), std::size_t(0));
        QVERIFY(std::any_of(unstated.notes.begin(), unstated.notes.end(),
            [](const std::string& n) { return n.find("model.rope_base") != std::string::npos; }));
        // Without a distributed optimizer there is no parameter gather to overlap.
        s.training.distributedOptimizer = false;
        s.training.zeroStage = 0;
        args = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        QCOMPARE(args.count("--overlap-grad-reduce"), std::size_t(1));
        QCOMPARE(args.count("--overlap-param-gather"), std::size_t(0));
    }

    /// TorchTitan builds registered flavors: a Llama 3 shape is named by its flavor; another shape gets a flavor the
    /// job refuses by name, and a note, rather than torchtitan's default debug model.
    void torchtitanNamesTheModelFlavor()
    {
        Scenario s = defaultScenario();
        s.training.zeroStage = 3;
        std::istringstream stream(makeLaunchConfig(s, LaunchFramework::TorchTitan).text);
        const auto t = toml::parse(stream, "torchtitan-job.toml");
        QCOMPARE(toml::find<std::string>(t, "model", "name"), std::string("llama3"));
        QCOMPARE(toml::find<std::string>(t, "model", "flavor"), std::string("70B"));
        s.model.layers = 40;
        const LaunchFile other = makeLaunchConfig(s, LaunchFramework::TorchTitan);
        std::istringstream otherStream(other.text);
        QCOMPARE(toml::find<std::string>(toml::parse(otherStream, "t.toml"), "model", "flavor"), s.model.name);
        QVERIFY(std::any_of(other.notes.begin(), other.notes.end(),
            [](const std::string& n) { return n.find("registered flavors") != std::string::npos; }));
        s.training.zeroStage = 1;
        QVERIFY(QString::fromStdString(errorOf(s, LaunchFramework::TorchTitan)).contains(QLatin1String("it offers")));
    }

    /// A split the layers do not divide evenly (the explorer allows it, as the estimate does) is written chunk by
    /// chunk: Megatron's layout string, Megatron-Bridge's layout key, TorchTitan's module names per model part.
    void unevenPipelineSplitsAreSpelledOut()
    {
        Scenario s = defaultScenario(); // 80 layers
        s.training.layout = ParallelLayout {16, 4, 2, 2, 1, 6, true}; // 12 chunks: eight of 7 layers, four of 6
        const LaunchFile megatron = makeLaunchConfig(s, LaunchFramework::Megatron);
        const ArgMap args = megatronArgs(megatron.text);
        QCOMPARE(args.find("--pipeline-model-parallel-layout")->second,
            std::string("Et*7|t*7|t*7|t*7|t*7|t*7|t*7|t*7|t*6|t*6|t*6|t*6L"));
        QCOMPARE(args.count("--num-layers-per-virtual-pipeline-stage"), std::size_t(0));
        const YAML::Node bridge = YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text);
        QCOMPARE(bridge["model"]["pipeline_model_parallel_layout"].as<std::string>(),
            args.find("--pipeline-model-parallel-layout")->second);
        s.training.zeroStage = 3; // TorchTitan shards with FSDP2
        std::istringstream stream(makeLaunchConfig(s, LaunchFramework::TorchTitan).text);
        const auto t = toml::parse(stream, "torchtitan-job.toml");
        const auto parts
            = toml::find<std::vector<std::vector<std::string>>>(t, "parallelism", "module_fqns_per_model_part");
        QCOMPARE(parts.size(), std::size_t(12));
        QCOMPARE(parts.front().front(), std::string("tok_embeddings"));
        QCOMPARE(parts.back().back(), std::string("output"));
        std::size_t layers = 0;
        for (const auto& part : parts)
            for (const auto& name : part)
                layers += name.starts_with("layers.");
        QCOMPARE(layers, std::size_t(80));
        QCOMPARE(toml::find(t, "parallelism").as_table().count("pipeline_parallel_layers_per_stage"), std::size_t(0));
        // An even split keeps the per-stage count.
        s.training.zeroStage = 1;
        s.training.layout.virtualStages = 5;
        QCOMPARE(intArg(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text),
                     "--num-layers-per-virtual-pipeline-stage"),
            8);
    }

    /// Hybrid sharding is written in each framework's words: TorchTitan's replicate × shard degrees, Megatron's
    /// distributed-optimizer instances (with Megatron-FSDP's unsharded outer groups), Megatron-Bridge's DDP config,
    /// DeepSpeed's MiCS shard size.
    void hybridShardingIsWritten()
    {
        Scenario s = defaultScenario();
        s.training.layout = ParallelLayout {256, 1, 1, 1, 1, 1, false};
        s.training.schedule = PipelineSchedule::OneFOneB;
        s.training.zeroStage = 3;
        s.training.layout.dpShard = 8;
        std::istringstream stream(makeLaunchConfig(s, LaunchFramework::TorchTitan).text);
        const auto t = toml::parse(stream, "torchtitan-job.toml");
        QCOMPARE(toml::find<int>(t, "parallelism", "data_parallel_shard_degree"), 8);
        QCOMPARE(toml::find<int>(t, "parallelism", "data_parallel_replicate_degree"), 32);
        const ArgMap args = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        QCOMPARE(intArg(args, "--num-distributed-optimizer-instances"), 32);
        QCOMPARE(args.find("--outer-dp-sharding-strategy")->second, std::string("no_shard"));
        const YAML::Node bridge = YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text);
        QCOMPARE(bridge["ddp"]["num_distributed_optimizer_instances"].as<int>(), 32);
        s.training.recompute = Recompute::None; // DeepSpeed has no selective mode
        const auto deepSpeed = nlohmann::json::parse(makeLaunchConfig(s, LaunchFramework::DeepSpeed).text);
        QCOMPARE(deepSpeed["zero_optimization"]["mics_shard_size"].get<int>(), 8);
        // The distributed optimizer alone: instances, no FSDP outer strategy.
        s.training.zeroStage = 1;
        s.training.distributedOptimizer = true;
        const ArgMap zero1 = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        QCOMPARE(intArg(zero1, "--num-distributed-optimizer-instances"), 32);
        QCOMPARE(zero1.count("--outer-dp-sharding-strategy"), std::size_t(0));
        // Without the distributed optimizer written there are no instances to write either.
        s.training.zeroStage = 0;
        QCOMPARE(intArg(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text),
                     "--num-distributed-optimizer-instances"),
            -1);
        s.training.zeroStage = 1;
        // Sharding over all of DP writes none of it.
        s.training.layout.dpShard = kDpShardAll;
        QCOMPARE(intArg(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text),
                     "--num-distributed-optimizer-instances"),
            -1);
    }

    /// The recipe the estimate models is the one written: torchao's recipe name in TorchTitan (float8 all-gather with
    /// tensorwise only), --fp8-recipe in Megatron, TE's mixed-precision recipe in Megatron-Bridge; a recipe the
    /// framework does not offer is written as its default and said so.
    void fp8RecipeIsWritten()
    {
        Scenario s = moeScenario();
        s.training.precision = Precision::Fp8;
        s.training.layout = ParallelLayout {16, 2, 1, 2, 4, 1, true};
        s.training.zeroStage = 0;
        const auto titanFloat8 = [](const Scenario& scenario) {
            std::istringstream stream(makeLaunchConfig(scenario, LaunchFramework::TorchTitan).text);
            return toml::find(toml::parse(stream, "torchtitan-job.toml"), "float8").as_table();
        };
        QCOMPARE(titanFloat8(s).at("recipe_name").as_string(), std::string("tensorwise"));
        QCOMPARE(toml::get<std::vector<std::string>>(titanFloat8(s).at("filter_fqns")),
            std::vector<std::string> {"output"}); // the estimate's LM head is bf16
        QVERIFY(titanFloat8(s).at("enable_fsdp_float8_all_gather").as_boolean());
        QCOMPARE(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text).find("--fp8-recipe")->second,
            std::string("delayed"));
        s.training.fp8Recipe = Fp8Recipe::Rowwise;
        QCOMPARE(titanFloat8(s).at("recipe_name").as_string(), std::string("rowwise"));
        QCOMPARE(titanFloat8(s).count("enable_fsdp_float8_all_gather"), std::size_t(0));
        const LaunchFile megatron = makeLaunchConfig(s, LaunchFramework::Megatron);
        QCOMPARE(megatronArgs(megatron.text).find("--fp8-recipe")->second, std::string("delayed"));
        QVERIFY(std::any_of(megatron.notes.begin(), megatron.notes.end(),
            [](const std::string& n) { return n.find("rowwise") != n.npos && n.find("delayed") != n.npos; }));
        s.training.fp8Recipe = Fp8Recipe::Tensorwise;
        QCOMPARE(YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text)["mixed_precision"].as<std::string>(),
            std::string("bf16_with_fp8_current_scaling_mixed"));
        QCOMPARE(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text).find("--fp8-recipe")->second,
            std::string("tensorwise"));
    }

    /// 16-bit optimizer states are written as Megatron-Core's precision-aware optimizer (flags, or the Bridge's
    /// OptimizerConfig fields); a framework without them gets fp32 states and a note saying so.
    void bf16OptimizerStatesAreWrittenAsThePrecisionAwareOptimizer()
    {
        Scenario s = moeScenario();
        s.training.layout = ParallelLayout {16, 2, 1, 2, 4, 1, true};
        s.training.zeroStage = 1;
        s.training.distributedOptimizer = true;
        QCOMPARE(
            megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text).count("--exp-avg-dtype"), std::size_t(0));
        s.training.optimizerStates = OptimizerStates::Bf16;
        const ArgMap args = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        QCOMPARE(args.count("--use-precision-aware-optimizer"), std::size_t(1));
        for (const char* flag : {"--main-grads-dtype", "--exp-avg-dtype", "--exp-avg-sq-dtype"})
            QCOMPARE(args.find(flag)->second, std::string("bf16"));
        const LaunchFile bridge = makeLaunchConfig(s, LaunchFramework::NeMo);
        const YAML::Node optimizer = YAML::Load(bridge.text)["optimizer"];
        QVERIFY(optimizer["use_precision_aware_optimizer"].as<bool>());
        for (const char* key : {"main_grads_dtype", "exp_avg_dtype", "exp_avg_sq_dtype"})
            QCOMPARE(optimizer[key].as<std::string>(), std::string("torch.bfloat16"));
        // The gradient buffer's dtype is the mixed-precision recipe's, which the override cannot reach: a note says so.
        QVERIFY(std::any_of(bridge.notes.begin(), bridge.notes.end(),
            [](const std::string& n) { return n.find("grad_reduce_in_fp32") != n.npos; }));
        s.training.optimizer = Optimizer::SgdMomentum; // not Adam: left out, and said why
        const LaunchFile sgd = makeLaunchConfig(s, LaunchFramework::Megatron);
        QCOMPARE(megatronArgs(sgd.text).count("--use-precision-aware-optimizer"), std::size_t(0));
        QVERIFY(std::any_of(
            sgd.notes.begin(), sgd.notes.end(), [](const std::string& n) { return n.find("not Adam") != n.npos; }));
        s.training.optimizer = Optimizer::AdamW;
        s.training.zeroStage = 3;
        s.training.distributedOptimizer = false;
        const LaunchFile titan = makeLaunchConfig(s, LaunchFramework::TorchTitan);
        QVERIFY(std::any_of(titan.notes.begin(), titan.notes.end(), [](const std::string& n) {
            return n.find("bf16 optimizer states are left out") != n.npos && n.find("torchtitan") != n.npos;
        }));
    }

    /// Pure bf16 asked of a framework whose bf16 keeps fp32 master weights: the config is that framework's bf16
    /// and says the estimate planned it so (core/model/frameworkrules.h precisionInEffect).
    void pureBf16IsSaidWhereTheFrameworkHasNoSuchMode()
    {
        Scenario s = moeScenario();
        s.training.precision = Precision::Bf16;
        const LaunchFile megatron = makeLaunchConfig(s, LaunchFramework::Megatron);
        QVERIFY(megatronArgs(megatron.text).count("--bf16") == 1);
        const auto saysSo = [](const LaunchFile& f) {
            return std::any_of(f.notes.begin(), f.notes.end(), [](const std::string& n) {
                return n.find("pure bf16 is not a") != n.npos && n.find("fp32 master weights") != n.npos;
            });
        };
        QVERIFY(saysSo(megatron));
        QVERIFY(saysSo(makeLaunchConfig(s, LaunchFramework::NeMo)));
        s.training.precision = Precision::AmpBf16;
        QVERIFY(!saysSo(makeLaunchConfig(s, LaunchFramework::Megatron)));
    }

    /// An older attention kernel asked for (flash2, triton) is timed by the estimate, while every writer leaves the
    /// kernel to the framework: the config says so, once, for each writer.
    void olderAttentionKernelIsSaid()
    {
        Scenario s = moeScenario();
        const auto saysSo = [](const LaunchFile& f, const char* kernel) {
            return std::count_if(f.notes.begin(), f.notes.end(), [&](const std::string& n) {
                return n.find("the estimate times attention with") != n.npos
                    && n.find(std::string("training.attention ") + kernel) != n.npos;
            }) == 1;
        };
        s.training.attention = AttentionKind::Triton;
        QVERIFY(saysSo(makeLaunchConfig(s, LaunchFramework::Megatron), "triton"));
        QVERIFY(saysSo(makeLaunchConfig(s, LaunchFramework::NeMo), "triton"));
        s.training.attention = AttentionKind::Flash2;
        QVERIFY(saysSo(makeLaunchConfig(s, LaunchFramework::Megatron), "flash2"));
        s.training.attention = AttentionKind::Flash;
        const LaunchFile flash = makeLaunchConfig(s, LaunchFramework::Megatron);
        QVERIFY(std::none_of(flash.notes.begin(), flash.notes.end(),
            [](const std::string& n) { return n.find("the estimate times attention") != n.npos; }));
    }

    void deepSpeedJson()
    {
        Scenario s = moeScenario();
        s.training.schedule = PipelineSchedule::OneFOneB;
        s.training.recompute = Recompute::Full;
        s.training.layout.virtualStages = 1;
        const LaunchFile file = makeLaunchConfig(s, LaunchFramework::DeepSpeed);
        const auto j = nlohmann::json::parse(file.text);
        const int micro = j.at("train_micro_batch_size_per_gpu");
        const int accumulation = j.at("gradient_accumulation_steps");
        QCOMPARE(j.at("train_batch_size").get<int>(), 256);
        QCOMPARE(micro, 2);
        QCOMPARE(256 / (micro * accumulation), 4); // DeepSpeed's check: batch = micro × accumulation × dp
        QCOMPARE(j.at("tensor_parallel").at("autotp_size").get<int>(), 2);
        QCOMPARE(j.at("pipeline").at("stages").get<int>(), 4);
        QCOMPARE(j.at("sequence_parallel_size").get<int>(), 2);
        QCOMPARE(j.at("clusterplanner_layout").at("ep").get<int>(), 4);
        QCOMPARE(j.at("clusterplanner_layout").at("schedule").get<std::string>(), std::string("1f1b"));
        QVERIFY(j.at("bf16").at("enabled").get<bool>());
        QCOMPARE(j.at("zero_optimization").at("stage").get<int>(), 1);
        QVERIFY(j.contains("activation_checkpointing"));
    }

    void refusesWhatTheFrameworkCannotRun_data()
    {
        QTest::addColumn<int>("framework");
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("expected");
        QTest::newRow("deepspeed interleaved") << int(LaunchFramework::DeepSpeed) << "none"
                                               << "interleaved";
        QTest::newRow("megatron gpipe") << int(LaunchFramework::Megatron) << "gpipe"
                                        << "gpipe";
        QTest::newRow("torchtitan fp16") << int(LaunchFramework::TorchTitan) << "fp16"
                                         << "fp16";
        QTest::newRow("gpus") << int(LaunchFramework::Megatron) << "gpus"
                              << "the cluster has 128";
        QTest::newRow("batch") << int(LaunchFramework::NeMo) << "batch"
                               << "global batch 250";
        // An uneven split is written, not refused (unevenPipelineSplitsAreSpelledOut).
    }
    void refusesWhatTheFrameworkCannotRun()
    {
        QFETCH(int, framework);
        QFETCH(QString, change);
        QFETCH(QString, expected);
        Scenario s = moeScenario();
        if (change == "gpipe")
            s.training.schedule = PipelineSchedule::GPipe;
        if (change == "fp16") {
            s.training.precision = Precision::AmpFp16;
            s.training.zeroStage = 3;
        }
        if (change == "gpus")
            s.cluster.gpuCount = 128;
        if (change == "batch")
            s.training.globalBatch = 250;
        const QString message = QString::fromStdString(errorOf(s, LaunchFramework(framework)));
        QVERIFY2(message.contains(expected), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestLaunchConfig)
#include "tst_launchconfig.moc"
