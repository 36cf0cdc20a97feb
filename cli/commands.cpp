// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commands.h"

#include "cli/arguments.h"
#include "cli/commandlist.h"

#include <algorithm>
#include <ostream>

namespace clusterplanner::cli {

const std::vector<Command>& commands()
{
    // One line per subcommand; each lives in its own file under cli/ (declared in commandlist.h).
    static const std::vector<Command> table = {
        {"catalog", "list the GPU catalog (--json)", &runCatalog},
        {"pipeline", "simulate a pipeline schedule (--schedule --stages --microbatches [--chunks] [--json])",
            &runPipeline},
        {"queue", "M/M/c wait figures: --servers C --arrival-per-s L (--mean-service-s S | --service-rate-per-s M)",
            &runQueue},
        {"cost", "capex, opex, TCO, cloud and energy: --gpus N --gpu ID --hours H, or --scenario FILE", &runCost},
        {"estimate",
            "per-GPU memory and step time of a case file (--case FILE [--hf-config FILE] [--efficiency FILE]), JSON",
            &runEstimate},
        {"validate", "predicted vs measured (--cases FILE --truth FILE [--markdown [--title T]] [--efficiency FILE])",
            &runValidate},
        {"sweep",
            "rank every valid layout of a case (--case FILE [--hf-config FILE] [--json | --format csv] [--top N] "
            "[--tp N ...] [--efficiency FILE])",
            &runSweep},
        {"simulate",
            "replay jobs on a cluster under a scheduling policy (--gpus N | --cluster FILE, --trace FILE | "
            "--synthetic JOBS, --policy P)",
            &runSimulate},
        {"library", "scenario library: list, show, export, import, delete, restore (--db PATH, --json)", &runLibrary},
        {"probe", "the NVIDIA GPUs of this machine, matched to the catalog ([--json] [--bench]); exit 3 without a GPU",
            &runProbe},
        {"export-config",
            "launch configuration of a scenario's layout (--scenario F --framework "
            "megatron|nemo|torchtitan|deepspeed [--out FILE])",
            &runExportConfig},
    };
    return table;
}

bool isCommand(std::string_view name)
{
    for (const auto& command : commands())
        if (command.name == name)
            return true;
    return false;
}

int runCommand(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    for (const auto& command : commands()) {
        if (argv.empty() || command.name != argv.front())
            continue;
        const bool asksForHelp = std::find(argv.begin() + 1, argv.end(), "--help") != argv.end();
        try {
            return command.run({argv.begin() + 1, argv.end()}, out, err);
        } catch (const HelpShown&) {
            return 0;
        } catch (const UsageError& error) {
            if (asksForHelp) { // a command on the hand-written parser has no help of its own
                out << "clusterplanner " << command.name << ": " << command.summary << "\n";
                return 0;
            }
            err << "clusterplanner " << command.name << ": " << error.what() << "\n";
            return 2;
        } catch (const std::exception& error) {
            err << "clusterplanner " << command.name << ": error: " << error.what() << "\n";
            return 1;
        }
    }
    err << "clusterplanner: unknown command \"" << (argv.empty() ? "" : argv.front()) << "\"\n";
    return 2;
}

std::string commandsHelp(const std::vector<std::pair<std::string, std::string>>& more)
{
    const auto line = [](std::string_view name, std::string_view summary) {
        return "  " + std::string(name) + std::string(15 - std::min<std::size_t>(14, name.size()), ' ')
            + std::string(summary) + "\n";
    };
    std::string text = "Commands (run headless, print JSON or text on stdout):\n";
    for (const auto& command : commands())
        text += line(command.name, command.summary);
    for (const auto& [name, summary] : more)
        text += line(name, summary);
    return text;
}

} // namespace clusterplanner::cli
