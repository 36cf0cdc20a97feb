// SPDX-License-Identifier: GPL-3.0-or-later
// Framework details of the launch configurations that the estimate depends on: RoPE base and communication
// overlaps, TorchTitan's model flavors, uneven pipeline splits, hybrid sharding, FP8 recipes, 16-bit optimizer states
// and attention kernels, each written in the framework's own words and read back with its ecosystem's parser.
#include "tests/core/launchtesthelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>
#include <toml.hpp>
#include <yaml-cpp/yaml.h>

using namespace clusterplanner::core;
using namespace clusterplanner::core::launch;
using namespace launchtest;

class TestLaunchDetails : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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
        const auto saysItNeedsTheLayoutString = [](const LaunchFile& file) {
            return std::any_of(file.notes.begin(), file.notes.end(),
                [](const std::string& n) { return n.find("pipeline layout string") != std::string::npos; });
        };
        QVERIFY(saysItNeedsTheLayoutString(megatron));
        QVERIFY(saysItNeedsTheLayoutString(makeLaunchConfig(s, LaunchFramework::NeMo)));
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

    /// Where the embedding's and the loss's layer slots make the split even (docs/methods-memory.md §3.25), Megatron's
    /// layout has the first and the last chunk one layer short, as the estimate holds them; TorchTitan's split is
    /// unchanged.
    void megatronSplitGivesTheEndsALayerSlot()
    {
        Scenario s = defaultScenario();
        s.model.layers = 126;
        s.training.layout = ParallelLayout {8, 4, 8, 1, 1, 8, true}; // 64 chunks: 128 slots
        s.training.schedule = PipelineSchedule::Interleaved;
        s.training.globalBatch = 64;
        const ArgMap args = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        std::string expected = "Et|";
        for (int chunk = 1; chunk < 63; ++chunk)
            expected += "t*2|";
        expected += "tL";
        QCOMPARE(args.find("--pipeline-model-parallel-layout")->second, expected);
        s.training.zeroStage = 3; // TorchTitan shards with FSDP2: its first part keeps two layers beside the embedding
        std::istringstream stream(makeLaunchConfig(s, LaunchFramework::TorchTitan).text);
        const auto parts = toml::find<std::vector<std::vector<std::string>>>(
            toml::parse(stream, "torchtitan-job.toml"), "parallelism", "module_fqns_per_model_part");
        QCOMPARE(parts.front(), (std::vector<std::string> {"tok_embeddings", "layers.0", "layers.1"}));
        s.training.zeroStage = 1;
        s.training.layout.pp = 16; // 128 chunks: the first holds only the embedding, the last only the loss
        s.training.layout.dp = 4;
        const std::string layout = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text)
                                       .find("--pipeline-model-parallel-layout")
                                       ->second;
        QVERIFY(layout.starts_with("E|t|t|"));
        QVERIFY(layout.ends_with("|t|t|L"));
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
        // The estimate shards wherever ZeRO or the distributed optimizer says so, and so does the export: either alone
        // writes the distributed optimizer and its instances; neither writes none.
        s.training.zeroStage = 0;
        const ArgMap flagOnly = megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text);
        QCOMPARE(flagOnly.count("--use-distributed-optimizer"), std::size_t(1));
        QCOMPARE(intArg(flagOnly, "--num-distributed-optimizer-instances"), 32);
        s.training.distributedOptimizer = false;
        QCOMPARE(intArg(megatronArgs(makeLaunchConfig(s, LaunchFramework::Megatron).text),
                     "--num-distributed-optimizer-instances"),
            -1);
        s.training.zeroStage = 1;
        QCOMPARE(
            YAML::Load(makeLaunchConfig(s, LaunchFramework::NeMo).text)["ddp"]["num_distributed_optimizer_instances"]
                .as<int>(),
            32);
        // DeepSpeed's ZeRO-1/2 shard over all of DP: hybrid sharding there is refused, not silently dropped.
        QVERIFY(QString::fromStdString(errorOf(s, LaunchFramework::DeepSpeed)).contains(QLatin1String("dp_shard")));
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
};

QTEST_GUILESS_MAIN(TestLaunchDetails)
#include "tst_launchdetails.moc"
