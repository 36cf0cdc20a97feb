// SPDX-License-Identifier: GPL-3.0-or-later
// `clusterplanner queue`: M/M/c waiting figures for a GPU pool (docs/methods-queueing.md §6).
#include "cli/arguments.h"
#include "cli/commandlist.h"
#include "core/queue/erlang.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <optional>
#include <ostream>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

constexpr long long kMaxServers = 10'000'000;
constexpr double kMaxRate = 1e300;

/// A required option that must be a finite number > 0.
double positiveNumber(Arguments& arguments, const std::string& name)
{
    const auto value = arguments.optionalNumber(name, 0, kMaxRate);
    if (!value)
        throw UsageError("missing required option " + name);
    if (*value <= 0)
        throw UsageError(name + " must be greater than 0");
    return *value;
}

/// The optional staffing target: --target-wait (mean Wq) or --target-p-wait (Erlang C).
struct Target
{
    std::optional<double> meanWait;
    std::optional<double> pWait;
};

Target readTarget(Arguments& arguments)
{
    Target target {
        arguments.optionalNumber("--target-wait", 0, kMaxRate), arguments.optionalNumber("--target-p-wait", 0, 1)};
    if (target.meanWait && target.pWait)
        throw UsageError("give either --target-wait or --target-p-wait, not both");
    if (target.meanWait && *target.meanWait <= 0)
        throw UsageError("--target-wait must be greater than 0");
    if (target.pWait && (*target.pWait <= 0 || *target.pWait >= 1))
        throw UsageError("--target-p-wait must be between 0 and 1 (exclusive)");
    return target;
}

/// Smallest server count meeting the target, when one is given.
std::optional<long long> serversForTarget(const Target& target, double arrival, double service)
{
    if (target.meanWait)
        return queue::serversForMeanWait(arrival, service, *target.meanWait);
    if (target.pWait)
        return queue::serversForWaitProbability(arrival, service, *target.pWait);
    return std::nullopt;
}

/// Infinite figures (unstable queue) become JSON null.
nlohmann::json toJson(const queue::MmcResult& r, const std::optional<long long>& target)
{
    nlohmann::json document = {{"utilization", r.utilization}, {"p_wait", r.pWait}, {"wq", r.wq}, {"lq", r.lq},
        {"w", r.w}, {"l", r.l}, {"stable", r.stable}};
    if (target)
        document["servers_for_target"] = *target;
    return document;
}

void printText(std::ostream& out, const queue::MmcResult& r, const std::optional<long long>& target)
{
    out << "M/M/c approximation: c = " << r.servers << ", arrival " << r.arrivalRate << ", service " << r.serviceRate
        << " per server\n"
        << std::setprecision(12);
    if (!r.stable)
        out << "  UNSTABLE: utilization >= 1, the queue grows without bound\n";
    const std::pair<const char*, double> rows[] = {{"utilization", r.utilization}, {"P(wait)", r.pWait},
        {"Wq (mean wait)", r.wq}, {"Lq (waiting)", r.lq}, {"W (wait + service)", r.w}, {"L (in system)", r.l}};
    for (const auto& [label, value] : rows)
        out << "  " << std::left << std::setw(20) << label << value << "\n";
    if (target)
        out << "  " << std::left << std::setw(20) << "servers for target" << *target << "  (smallest c meeting it)\n";
}

} // namespace

int runQueue(const Args& args, std::ostream& out, std::ostream&)
{
    Arguments arguments(args);
    const bool asJson = arguments.flag("--json");
    const auto servers = arguments.optionalInteger("--servers", 1, kMaxServers);
    if (!servers)
        throw UsageError("missing required option --servers");
    const double arrival = positiveNumber(arguments, "--arrival");
    const double service = positiveNumber(arguments, "--service");
    const Target wanted = readTarget(arguments);
    arguments.finish();
    const auto result = queue::solveMmc(arrival, service, *servers);
    const auto target = serversForTarget(wanted, arrival, service);
    if (asJson)
        out << toJson(result, target).dump(2) << "\n";
    else
        printText(out, result, target);
    return 0;
}

} // namespace clusterplanner::cli
