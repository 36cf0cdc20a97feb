// SPDX-License-Identifier: GPL-3.0-or-later
// `clusterplanner queue`: M/M/c waiting figures for a GPU pool (docs/methods-queueing.md §6).
#include "cli/commandline.h"
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

/// The command line: rates per second and times in seconds (any one time unit works if every option uses it).
struct QueueOptions
{
    long long servers = 0;
    double arrivalPerS = 0;
    std::optional<double> serviceRatePerS;
    std::optional<double> meanServiceS;
    std::optional<double> targetWaitS;
    std::optional<double> targetPWait;
    bool json = false;
};

/// The optional staffing target: --target-wait-s (mean Wq) or --target-p-wait (Erlang C).
struct Target
{
    std::optional<double> meanWait;
    std::optional<double> pWait;
};

void addRateOptions(CLI::App& app, QueueOptions& o)
{
    app.add_option("--servers", o.servers, "servers c: GPUs (or nodes) that each run one job at a time")
        ->required()
        ->check(CLI::Range(1LL, kMaxServers))
        ->type_name("C");
    app.add_option("--arrival-per-s,--arrival", o.arrivalPerS, "arrival rate lambda, jobs per second")
        ->required()
        ->check(positive())
        ->type_name("JOBS_PER_S");
    auto* rate = app.add_option("--service-rate-per-s,--service", o.serviceRatePerS,
                        "service rate mu of one server, jobs per second (= 1 / mean job duration)")
                     ->check(positive())
                     ->type_name("JOBS_PER_S");
    app.add_option("--mean-service-s", o.meanServiceS, "mean job duration 1/mu, seconds (instead of the rate)")
        ->check(positive())
        ->excludes(rate)
        ->type_name("SECONDS");
}

void addTargetOptions(CLI::App& app, QueueOptions& o)
{
    auto* wait = app.add_option("--target-wait-s,--target-wait", o.targetWaitS,
                        "also report the fewest servers whose mean wait Wq is at most this, seconds")
                     ->check(positive())
                     ->type_name("SECONDS");
    app.add_option("--target-p-wait", o.targetPWait,
           "also report the fewest servers whose chance of waiting is at most this, in (0, 1)")
        ->check(CLI::Range(0.0, 1.0))
        ->excludes(wait)
        ->type_name("P");
    app.add_flag("--json", o.json, "JSON output (unstable figures as null)");
}

QueueOptions parseOptions(const Args& args, std::ostream& out)
{
    QueueOptions o;
    auto app = makeCommandApp("queue",
        "M/M/c waiting figures of a GPU pool (Erlang C, docs/methods-queueing.md §6): utilization, chance of "
        "waiting, mean wait and queue length. Rates are per second and times in seconds.",
        {"clusterplanner queue --servers 100 --arrival-per-s 0.02 --mean-service-s 3600",
            "clusterplanner queue --servers 10 --arrival-per-s 8 --service-rate-per-s 1 --target-wait-s 0.1 --json"});
    addRateOptions(*app, o);
    addTargetOptions(*app, o);
    parseCommand(*app, args, out);
    if (!o.serviceRatePerS && !o.meanServiceS)
        throw UsageError("give --service-rate-per-s RATE or --mean-service-s SECONDS");
    if (o.targetPWait && (*o.targetPWait <= 0 || *o.targetPWait >= 1))
        throw UsageError("--target-p-wait must be between 0 and 1 (exclusive)");
    return o;
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
    out << "M/M/c approximation: c = " << r.servers << ", arrival " << r.arrivalRate << " jobs/s, service "
        << r.serviceRate << " jobs/s per server (mean job " << 1 / r.serviceRate << " s)\n"
        << std::setprecision(12);
    if (!r.stable)
        out << "  UNSTABLE: utilization >= 1, the queue grows without bound\n";
    const std::pair<const char*, double> rows[]
        = {{"utilization", r.utilization}, {"P(wait)", r.pWait}, {"Wq (mean wait, s)", r.wq},
            {"Lq (jobs waiting)", r.lq}, {"W (wait + service, s)", r.w}, {"L (jobs in system)", r.l}};
    for (const auto& [label, value] : rows)
        out << "  " << std::left << std::setw(24) << label << value << "\n";
    if (target)
        out << "  " << std::left << std::setw(24) << "servers for target" << *target << "  (smallest c meeting it)\n";
}

} // namespace

int runQueue(const Args& args, std::ostream& out, std::ostream&)
{
    const QueueOptions o = parseOptions(args, out);
    const double arrival = o.arrivalPerS;
    const double service = o.serviceRatePerS ? *o.serviceRatePerS : 1 / *o.meanServiceS;
    const Target wanted {o.targetWaitS, o.targetPWait};
    const bool asJson = o.json;
    const auto result = queue::solveMmc(arrival, service, o.servers);
    const auto target = serversForTarget(wanted, arrival, service);
    if (asJson)
        out << toJson(result, target).dump(2) << "\n";
    else
        printText(out, result, target);
    return 0;
}

} // namespace clusterplanner::cli
