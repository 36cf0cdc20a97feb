// SPDX-License-Identifier: GPL-3.0-or-later
// Shared fixtures of the launch-config tests: a shell-word reader for Megatron-LM's command line, the scenarios the
// configs are written from, and a writer's refusal as text.
#pragma once

#include "core/io/scenariojson.h"
#include "core/launch/launchconfig.h"
#include "core/model/modelpresets.h"
#include "tests/cli/clitesthelpers.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace launchtest {

using namespace clusterplanner::core;
using namespace clusterplanner::core::launch;

/// Megatron-LM arguments: "--name value" or "--name" alone, after the script name.
using ArgMap = std::multimap<std::string, std::string>;

/// Splits shell text into words: whitespace separates, single quotes group, "\\\n" continues, '#' lines skip.
inline std::vector<std::string> shellWords(const std::string& text)
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

inline ArgMap megatronArgs(const std::string& text)
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

inline int intArg(const ArgMap& args, const std::string& name)
{
    const auto it = args.find(name);
    return it == args.end() ? -1 : std::stoi(it->second);
}

/// World size from "torchrun --nnodes=N --nproc-per-node=G ...".
inline int worldSize(const std::string& launchLine)
{
    const auto number = [&](const std::string& key) {
        const auto at = launchLine.find(key);
        return at == std::string::npos ? 0 : std::stoi(launchLine.substr(at + key.size()));
    };
    return number("--nnodes=") * number("--nproc-per-node=");
}

inline Scenario loadScenario(const char* file)
{
    return readScenarioFile(clitest::readFile(std::string(CLUSTERPLANNER_DATA_DIR) + "/scenarios/" + file));
}

/// 64 GPUs as tp 2 × pp 4 × cp 2 × dp 4, ep 4, two interleaved chunks, micro-batch 2, global batch 256.
inline Scenario moeScenario()
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

inline std::string errorOf(const Scenario& s, LaunchFramework framework)
{
    try {
        makeLaunchConfig(s, framework);
    } catch (const LaunchConfigError& error) {
        return error.what();
    }
    return {};
}

} // namespace launchtest
