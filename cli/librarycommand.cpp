// SPDX-License-Identifier: GPL-3.0-or-later
// "clusterplanner library ...": list, show, export, import, delete and restore scenarios of the library.
#include "cli/arguments.h"
#include "cli/commandlist.h"
#include "core/io/scenariojson.h"
#include "core/store/libraryfile.h"
#include "core/store/librarypaths.h"
#include "core/store/scenariostore.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <filesystem>
#include <iomanip>
#include <ostream>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage
    = "usage: clusterplanner library <action> [--db PATH] [--json]\n"
      "  list [--search TEXT] [--sort name|created|modified|gpus|tokens|cost|mfu|step] [--ascending]\n"
      "       [--limit N] [--trash]\n"
      "  show ID\n"
      "  export ID... --out FILE|DIR   (several ids: DIR, one file per scenario)\n"
      "  import FILE...                (*.cplan.json; all or nothing)\n"
      "  delete ID                     (moves to the trash)\n"
      "  restore ID                    (takes out of the trash)\n"
      "The library is $XDG_DATA_HOME/ClusterPlanner/library.sqlite (default ~/.local/share/...) unless --db is "
      "given.\n";

struct Options
{
    bool json = false;
    std::string db;
    std::optional<std::string> out;
    ListQuery query;
    std::vector<std::string> words; ///< action and its operands
};

SortColumn sortColumn(const std::string& name)
{
    static const std::vector<std::pair<std::string, SortColumn>> names
        = {{"name", SortColumn::Name}, {"created", SortColumn::Created}, {"modified", SortColumn::Modified},
            {"gpus", SortColumn::GpuCount}, {"tokens", SortColumn::TokensPerS}, {"cost", SortColumn::CostUsd},
            {"mfu", SortColumn::Mfu}, {"step", SortColumn::StepTimeS}};
    for (const auto& [text, column] : names)
        if (text == name)
            return column;
    throw UsageError(
        "--sort: unknown column \"" + name + "\" (name, created, modified, gpus, tokens, cost, mfu, step)");
}

Options parse(const Args& args)
{
    Arguments arguments(args);
    Options options;
    options.json = arguments.flag("--json");
    const auto db = arguments.value("--db");
    options.db = db ? *db : defaultLibraryPath();
    options.out = arguments.value("--out");
    options.query.search = arguments.value("--search").value_or("");
    options.query.sort = sortColumn(arguments.value("--sort").value_or("modified"));
    options.query.descending = !arguments.flag("--ascending");
    options.query.limit = static_cast<int>(arguments.integer("--limit", 0, 0, 1'000'000'000));
    options.query.trash = arguments.flag("--trash");
    options.words = arguments.positionals();
    arguments.finish();
    if (options.words.empty())
        throw UsageError("missing action\n" + std::string(kUsage));
    return options;
}

ScenarioId parseId(const std::string& text)
{
    ScenarioId id = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, id);
    if (ec != std::errc() || ptr != end || id < 1)
        throw UsageError("\"" + text + "\" is not a scenario id (a whole number from \"library list\")");
    return id;
}

/// The operands after the action; exactly `count` of them, or at least one when count is 0.
std::vector<std::string> operands(const Options& options, std::size_t count, const char* what)
{
    std::vector<std::string> rest(options.words.begin() + 1, options.words.end());
    if ((count == 0 && rest.empty()) || (count > 0 && rest.size() != count))
        throw UsageError(options.words.front() + " needs " + what);
    return rest;
}

ScenarioStore openLibrary(const Options& options)
{
    StoreOptions storeOptions;
    storeOptions.seedDirectory = installedScenarioDirectory();
    auto result = ScenarioStore::open(options.db, storeOptions);
    if (!result)
        throw StoreError(result.problem, result.message);
    return std::move(*result.store);
}

nlohmann::json figuresJson(const std::optional<ResultFigures>& figures)
{
    if (!figures)
        return nullptr;
    return {{"gpu_count", figures->gpuCount}, {"tokens_per_s", figures->tokensPerS}, {"cost_usd", figures->costUsd},
        {"mfu", figures->mfu}, {"step_time_s", figures->stepTimeS}};
}

void requireNoOperands(const Options& options)
{
    if (options.words.size() > 1)
        throw UsageError(options.words.front() + " takes no operands (got \"" + options.words[1] + "\")");
}

int listScenarios(ScenarioStore& store, const Options& options, std::ostream& out)
{
    requireNoOperands(options);
    const auto rows = store.list(options.query);
    if (options.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& row : rows)
            list.push_back({{"id", row.id}, {"name", row.name}, {"tags", row.tags}, {"gpu", row.gpuId},
                {"gpu_count", row.gpuCount}, {"created", row.created}, {"modified", row.modified},
                {"result", figuresJson(row.figures)}});
        out << list.dump(2) << "\n";
        return 0;
    }
    out << std::left << std::setw(6) << "ID" << std::setw(8) << "GPUS" << std::setw(16) << "GPU" << std::setw(26)
        << "MODIFIED (UTC)"
        << "NAME [TAGS]\n";
    for (const auto& row : rows) {
        std::string tags;
        for (const auto& tag : row.tags)
            tags += (tags.empty() ? " [" : ", ") + tag;
        out << std::setw(6) << row.id << std::setw(8) << row.gpuCount << std::setw(16) << row.gpuId << std::setw(26)
            << row.modified << row.name << (tags.empty() ? "" : tags + "]") << "\n";
    }
    out << rows.size() << (rows.size() == 1 ? " scenario\n" : " scenarios\n");
    return 0;
}

int showScenario(ScenarioStore& store, const Options& options, std::ostream& out)
{
    const auto record = store.load(parseId(operands(options, 1, "one scenario id").front()));
    if (!options.json) {
        out << writeLibraryFile(record.scenario, record.tags);
        return 0;
    }
    nlohmann::json versions = nlohmann::json::array();
    for (const auto& version : store.versions(record.id))
        versions.push_back({{"version", version.version}, {"saved", version.saved}, {"name", version.name}});
    nlohmann::json result = nullptr;
    if (record.result)
        result = {{"computed", record.result->computed}, {"figures", figuresJson(record.result->figures)},
            {"detail", record.result->detail}};
    out << nlohmann::json {{"id", record.id}, {"tags", record.tags}, {"created", record.created},
        {"modified", record.modified}, {"in_trash", record.inTrash}, {"versions", versions}, {"result", result},
        {"scenario", scenarioToJson(record.scenario)}}
               .dump(2)
        << "\n";
    return 0;
}

int exportScenarios(ScenarioStore& store, const Options& options, std::ostream& out)
{
    const auto ids = operands(options, 0, "at least one scenario id");
    if (!options.out)
        throw UsageError("export needs --out FILE (one id) or --out DIR");
    const fs::path target(*options.out);
    const bool intoFolder = ids.size() > 1 || fs::is_directory(target) || options.out->ends_with("/");
    if (intoFolder)
        fs::create_directories(target);
    nlohmann::json written = nlohmann::json::array();
    for (const auto& text : ids) {
        const auto record = store.load(parseId(text));
        const fs::path file = intoFolder
            ? target / (std::to_string(record.id) + "-" + fileSlug(record.scenario.name) + ".cplan.json")
            : target;
        saveLibraryFile(file.string(), record.scenario, record.tags);
        written.push_back({{"id", record.id}, {"file", file.string()}});
        if (!options.json)
            out << "exported " << record.id << " to " << file.string() << "\n";
    }
    if (options.json)
        out << written.dump(2) << "\n";
    return 0;
}

int importFiles(ScenarioStore& store, const Options& options, std::ostream& out)
{
    const auto files = operands(options, 0, "at least one *.cplan.json file");
    std::vector<NewScenario> scenarios;
    for (const auto& file : files) { // every file is checked before anything is added
        auto content = loadLibraryFile(file);
        scenarios.push_back({std::move(content.scenario), std::move(content.tags)});
    }
    const auto ids = store.saveAll(scenarios);
    nlohmann::json imported = nlohmann::json::array();
    for (std::size_t i = 0; i < ids.size(); ++i) {
        imported.push_back({{"file", files[i]}, {"id", ids[i]}});
        if (!options.json)
            out << "imported " << files[i] << " as " << ids[i] << "\n";
    }
    if (options.json)
        out << imported.dump(2) << "\n";
    return 0;
}

int moveToTrash(ScenarioStore& store, const Options& options, std::ostream& out, bool restore)
{
    const ScenarioId id = parseId(operands(options, 1, "one scenario id").front());
    if (restore)
        store.restore(id);
    else
        store.remove(id);
    const auto name = store.load(id).scenario.name;
    if (options.json)
        out << nlohmann::json {{"id", id}, {"name", name}, {"in_trash", !restore}}.dump(2) << "\n";
    else if (restore)
        out << "restored " << id << " (" << name << ") from the trash\n";
    else
        out << "moved " << id << " (" << name << ") to the trash; \"clusterplanner library restore " << id
            << "\" brings it back\n";
    return 0;
}

} // namespace

int runLibrary(const Args& args, std::ostream& out, std::ostream&)
{
    const Options options = parse(args);
    const std::string& action = options.words.front();
    if (action == "help") {
        out << kUsage;
        return 0;
    }
    if (action != "list" && action != "show" && action != "export" && action != "import" && action != "delete"
        && action != "restore")
        throw UsageError("unknown action \"" + action + "\"\n" + kUsage);
    if (options.out && action != "export")
        throw UsageError("--out is only for export");
    auto store = openLibrary(options);
    if (action == "list")
        return listScenarios(store, options, out);
    if (action == "show")
        return showScenario(store, options, out);
    if (action == "export")
        return exportScenarios(store, options, out);
    if (action == "import")
        return importFiles(store, options, out);
    return moveToTrash(store, options, out, action == "restore");
}

} // namespace clusterplanner::cli
