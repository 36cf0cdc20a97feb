// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers of the scenario library tests: temporary libraries, raw file bytes, sample scenarios.
#pragma once

#include "core/cluster/trainingview.h"
#include "core/model/gpucatalog.h"
#include "core/store/libraryfile.h"
#include "core/store/scenariostore.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <iterator>
#include <string>

namespace storetest {

inline const std::string kSampleDir = CLUSTERPLANNER_DATA_DIR "/scenarios";

inline std::string fileBytes(const std::string& path)
{
    std::ifstream stream(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream stream(path, std::ios::binary | std::ios::trunc);
    stream << bytes;
}

inline std::string pathIn(const QTemporaryDir& dir, const char* name)
{
    return dir.filePath(QString::fromUtf8(name)).toStdString();
}

/// Options that seed a new library with the repository's sample scenarios.
inline clusterplanner::core::StoreOptions seeded()
{
    clusterplanner::core::StoreOptions options;
    options.seedDirectory = kSampleDir;
    return options;
}

/// Opens a library that must open; fails the test with the store's message otherwise.
inline clusterplanner::core::ScenarioStore openStore(
    const std::string& path, const clusterplanner::core::StoreOptions& options = {})
{
    auto result = clusterplanner::core::ScenarioStore::open(path, options);
    if (!result)
        qFatal("cannot open test library: %s", result.message.c_str());
    return std::move(*result.store);
}

/// A scenario that differs from the default in a few fields, so that saves are distinguishable.
inline clusterplanner::core::Scenario variant(const std::string& name, int gpuCount = 256)
{
    auto scenario = clusterplanner::core::defaultScenario();
    scenario.name = name;
    scenario.cluster.gpuCount = gpuCount;
    scenario.training.layout.dp = gpuCount / 32;
    // As the Scenario form does: the training group grows with the run (core/cluster/trainingview.h).
    clusterplanner::core::cluster::writeViewIntoTopology(scenario, clusterplanner::core::GpuCatalog::builtin());
    return scenario;
}

} // namespace storetest
