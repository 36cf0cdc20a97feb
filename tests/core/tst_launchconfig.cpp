// SPDX-License-Identifier: GPL-3.0-or-later
// Launch configurations are parsed back with the readers the frameworks' own ecosystems use (toml11 for TOML,
// yaml-cpp for YAML, nlohmann for JSON, a shell-word tokenizer for Megatron-LM's command line) and checked for
// the layout, batch, precision, recompute and schedule of the scenario.
#include "core/memory/activationoffload.h"
#include "tests/core/launchtesthelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>
#include <toml.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <sstream>

using namespace clusterplanner::core;
using namespace clusterplanner::core::launch;
using namespace launchtest;

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
