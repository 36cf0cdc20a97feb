// SPDX-License-Identifier: GPL-3.0-or-later
// "clusterplanner library ...": list, show, export, import, delete and restore scenarios of the library.
#include "cli/commandline.h"
#include "cli/commandlist.h"
#include "core/io/scenariojson.h"
#include "core/store/libraryfile.h"
#include "core/store/librarypaths.h"
#include "core/store/scenariostore.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iomanip>
#include <ostream>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kActions = {"list", "show", "export", "import", "delete", "restore", "help"};
const std::vector<std::string> kSortColumns = {"name", "created", "modified", "gpus", "tokens", "cost", "mfu", "step"};

constexpr const char* kActionsHelp
    = "Actions:\n"
      "  list                 scenarios, newest change first (--search, --sort, --ascending, --limit, --trash)\n"
      "  show ID              one scenario as a *.cplan.json (with --json: versions, result, tags)\n"
      "  export ID... --out FILE|DIR   write scenarios (several ids: DIR, one file per scenario)\n"
      "  import FILE...       add *.cplan.json files; all or nothing. A missing library is created first,\n"
      "                       empty (said on stderr), so it holds exactly the imported scenarios\n"
      "  delete ID            move to the trash\n"
      "  restore ID           take out of the trash\n"
      "Every action but import needs an existing library: a missing --db file is an error (exit 1).\n"
      "The library is $XDG_DATA_HOME/ClusterPlanner/library.sqlite (default ~/.local/share/...) unless --db is "
      "given.\n";

struct Options
{
    bool json = false;
    bool ascending = false;
    std::vector<std::string> operands;
    std::string db;
    std::optional<std::string> out;
    ListQuery query;
    std::vector<std::string> words; ///< action and its operands
};

SortColumn sortColumn(const std::string& name)
{
    const SortColumn columns[] = {SortColumn::Name, SortColumn::Created, SortColumn::Modified, SortColumn::GpuCount,
        SortColumn::TokensPerS, SortColumn::CostUsd, SortColumn::Mfu, SortColumn::StepTimeS};
    return columns[std::find(kSortColumns.begin(), kSortColumns.end(), name) - kSortColumns.begin()];
}

void addOptions(CLI::App& app, Options& o, std::optional<std::string>& db, std::string& sort)
{
    app.add_option("action", o.words.front(), "what to do (see Actions below)")->required()->check(oneOf(kActions));
    app.add_option("operands", o.operands, "scenario ids or files, as the action needs");
    app.add_option("--db", db, "library file (SQLite) instead of the user's; must not be empty")->type_name("PATH");
    app.add_flag("--json", o.json, "JSON output");
    app.add_option("--out", o.out, "export: target file (one id) or folder")->type_name("FILE|DIR");
    app.add_option("--search", o.query.search, "list: only names, tags or notes containing this text");
    app.add_option("--sort", sort, "list: order by this column")->check(oneOf(kSortColumns));
    app.add_flag("--ascending", o.ascending, "list: smallest first (default: largest or newest first)");
    app.add_option("--limit", o.query.limit, "list: at most N rows; 0 = all")->check(CLI::Range(0, 1'000'000'000));
    app.add_flag("--trash", o.query.trash, "list: the trash instead of the library");
}

Options parse(const Args& args, std::ostream& out)
{
    Options options;
    options.words.resize(1);
    std::optional<std::string> db;
    std::string sort = "modified";
    auto app = makeCommandApp("library", "The scenario library (SQLite), the one the application shows.",
        {"clusterplanner library list --sort tokens --limit 10",
            "clusterplanner library export 3 --out llama.cplan.json",
            "clusterplanner library import a.cplan.json b.cplan.json --db team.sqlite"});
    app->footer(kActionsHelp + app->get_footer());
    addOptions(*app, options, db, sort);
    parseCommand(*app, args, out);
    if (db && db->empty())
        throw UsageError("--db: the path is empty; give a library file (nothing was written)");
    options.db = db ? *db : defaultLibraryPath();
    options.query.sort = sortColumn(sort);
    options.query.descending = !options.ascending;
    options.words.insert(options.words.end(), options.operands.begin(), options.operands.end());
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

/// An existing library. Only import creates a missing one, and empty: it then holds exactly the imported files
/// (the application, not the command line, seeds a new library with the samples).
ScenarioStore openLibrary(const Options& options, std::ostream& err)
{
    const bool exists = fs::exists(options.db);
    if (!exists && options.words.front() != "import")
        throw std::runtime_error("no scenario library at " + options.db
            + " (check --db; the application or \"library import\" creates one)");
    if (!exists && fs::path(options.db).has_parent_path())
        fs::create_directories(fs::path(options.db).parent_path());
    auto result = ScenarioStore::open(options.db, StoreOptions {});
    if (!result)
        throw StoreError(result.problem, result.message);
    if (!exists)
        err << "clusterplanner library: created a new, empty library at " << options.db << "\n";
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

int runLibrary(const Args& args, std::ostream& out, std::ostream& err)
{
    const Options options = parse(args, out);
    const std::string& action = options.words.front();
    if (action == "help") {
        out << kActionsHelp;
        return 0;
    }
    if (options.out && action != "export")
        throw UsageError("--out is only for export");
    auto store = openLibrary(options, err);
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
