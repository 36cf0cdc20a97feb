// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commandline.h"

#include <algorithm>
#include <ostream>

namespace clusterplanner::cli {

namespace {

constexpr int kOptionColumnWidth = 34; // wide enough for "--name VALUE:{a,b,c}" before the description

} // namespace

std::unique_ptr<CLI::App> makeCommandApp(
    const std::string& name, const std::string& summary, std::initializer_list<const char*> examples)
{
    auto app = std::make_unique<CLI::App>(summary, "clusterplanner " + name);
    std::string footer = "Examples:\n";
    for (const char* example : examples)
        footer += std::string("  ") + example + "\n";
    app->footer(footer);
    app->get_formatter()->column_width(kOptionColumnWidth);
    app->option_defaults()->always_capture_default();
    return app;
}

void parseCommand(CLI::App& app, const std::vector<std::string>& args, std::ostream& out)
{
    std::vector<std::string> reversed(args.rbegin(), args.rend()); // CLI11 takes the words last first
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        throw HelpShown {};
    } catch (const CLI::ParseError& error) {
        throw UsageError(error.what());
    }
}

CLI::Validator positive()
{
    return CLI::Validator(
        [](std::string& text) {
            double value = 0;
            if (!CLI::detail::lexical_cast(text, value))
                return "\"" + text + "\" is not a number";
            return value > 0 ? std::string() : "must be greater than 0 (got " + text + ")";
        },
        "> 0");
}

std::string joinNames(const std::vector<std::string>& names)
{
    std::string text;
    for (const auto& name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}

CLI::Validator oneOf(const std::vector<std::string>& names)
{
    std::string description = "{";
    for (const auto& name : names)
        description += (description.size() > 1 ? "," : "") + name;
    return CLI::Validator(
        [names](std::string& text) {
            if (std::find(names.begin(), names.end(), text) != names.end())
                return std::string();
            return "unknown value \"" + text + "\" (one of " + joinNames(names) + ")";
        },
        description + "}");
}

} // namespace clusterplanner::cli
