// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario library speed: insert 10,000 scenarios, then list all of them sorted by a column (target < 100 ms).
#include "core/store/scenariostore.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

using namespace clusterplanner::core;

namespace {

double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::vector<NewScenario> makeScenarios(int count)
{
    std::vector<NewScenario> scenarios;
    for (int i = 0; i < count; ++i) {
        Scenario scenario = defaultScenario();
        scenario.name = "Bench scenario " + std::to_string(i);
        scenario.cluster.gpuCount = 32 * (1 + (i * 7919) % 512);
        scenario.training.layout.dp = scenario.cluster.gpuCount / 32;
        scenarios.push_back({scenario, {"bench", i % 2 ? "odd" : "even"}});
    }
    return scenarios;
}

} // namespace

int main()
{
    const int count = 10'000;
    const auto folder = std::filesystem::temp_directory_path() / ("bench_store_" + std::to_string(::getpid()));
    const std::string path = (folder / "library.sqlite").string();
    auto opened = ScenarioStore::open(path);
    if (!opened) {
        std::fprintf(stderr, "%s\n", opened.message.c_str());
        return 1;
    }
    auto& store = *opened.store;
    const auto scenarios = makeScenarios(count);

    auto start = std::chrono::steady_clock::now();
    const auto ids = store.saveAll(scenarios);
    std::printf("insert %d scenarios (one transaction): %.1f ms\n", count, millisecondsSince(start));
    start = std::chrono::steady_clock::now();
    for (int i = 0; i < 200; ++i)
        store.save(scenarios[std::size_t(i)].scenario, scenarios[std::size_t(i)].tags);
    std::printf("save one scenario (own transaction): %.3f ms each\n", millisecondsSince(start) / 200);
    for (std::size_t i = 0; i < ids.size(); i += 2)
        store.putResult(ids[i], {{int(i % 4096), 1e6 + double(i), 1e5 + double(i), 0.3, 5.0}, {}, {}});

    const std::pair<SortColumn, const char*> columns[] = {{SortColumn::Name, "name"}, {SortColumn::GpuCount, "gpus"},
        {SortColumn::TokensPerS, "tokens/s"}, {SortColumn::Modified, "modified"}};
    for (const auto& [column, columnName] : columns) {
        double best = 1e9;
        std::size_t rows = 0;
        for (int repeat = 0; repeat < 5; ++repeat) {
            start = std::chrono::steady_clock::now();
            rows = store.list({"", column, true}).size();
            best = std::min(best, millisecondsSince(start));
        }
        std::printf("list all %zu rows sorted by %s: %.1f ms (best of 5; target < 100 ms)\n", rows, columnName, best);
    }
    start = std::chrono::steady_clock::now();
    const auto found = store.list({"scenario 99", SortColumn::Name, false}).size();
    std::printf("search \"scenario 99\" (%zu rows): %.1f ms\n", found, millisecondsSince(start));

    opened.store.reset(); // closing checkpoints the WAL into the file
    start = std::chrono::steady_clock::now();
    auto reopened = ScenarioStore::open(path);
    std::printf("open with integrity check (%.1f MB file): %.1f ms\n", double(std::filesystem::file_size(path)) / 1e6,
        millisecondsSince(start));
    double best = 1e9;
    for (int repeat = 0; repeat < 5; ++repeat) {
        start = std::chrono::steady_clock::now();
        reopened.store->list({"", SortColumn::CostUsd, false});
        best = std::min(best, millisecondsSince(start));
    }
    std::printf("after reopening (WAL checkpointed), list all sorted by cost: %.1f ms (best of 5)\n", best);
    reopened.store.reset();
    std::filesystem::remove_all(folder);
    return 0;
}
