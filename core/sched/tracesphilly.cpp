// SPDX-License-Identifier: GPL-3.0-or-later
// Microsoft Philly `cluster_job_log` importer (msr-fiddle/philly-traces, docs/methods-scheduling.md §7).
#include "core/sched/tracecsv.h"
#include "core/sched/traces.h"
#include "core/sched/tracesupport.h"

#include "core/io/jsonfields.h"
#include "core/io/jsontext.h"

#include <nlohmann/json.hpp>

#include <iterator>

namespace clusterplanner::core::sched {

namespace {

using nlohmann::json;

[[noreturn]] void throwTraceError(const std::string& message)
{
    throw TraceFormatError(message);
}

/// The whole stream, refused once it passes limits::kMaxTraceJsonBytes (checked while reading, not after).
std::string readLimited(std::istream& in, const std::string& source)
{
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<std::size_t>(in.gcount()));
        if (text.size() > limits::kMaxTraceJsonBytes)
            throw TraceFormatError(source + ": the file is larger than the limit of "
                + std::to_string(limits::kMaxTraceJsonBytes) + " bytes");
    }
    return text;
}

/// A string field for messages and user names; a missing or non-string value gives `fallback`.
std::string textOr(const json& entry, const char* key, const std::string& fallback)
{
    const auto it = entry.find(key);
    return it != entry.end() && it->is_string() ? it->get<std::string>() : fallback;
}

struct PhillyJob
{
    const TraceOptions& options;
    std::size_t index;
    const json& entry;

    [[noreturn]] void fail(const std::string& field, const std::string& problem) const
    {
        throw TraceFormatError(options.source + ": job " + std::to_string(index + 1) + " ("
            + excerpt(textOr(entry, "jobid", "no jobid")) + "), field " + field + ": " + problem);
    }

    /// A time field; std::nullopt for Philly's "None" (the attempt never started or ended).
    std::optional<double> time(const json& object, const std::string& field, const std::string& path) const
    {
        auto it = object.find(field);
        if (it == object.end())
            fail(path, "is missing");
        if (it->is_null() || (it->is_string() && it->get<std::string>() == "None"))
            return std::nullopt;
        if (it->is_number())
            return it->get<double>();
        auto parsed = it->is_string() ? parseDateTime(it->get<std::string>()) : std::nullopt;
        if (!parsed)
            fail(path, JsonFields::describe(*it) + " is not a date-time (YYYY-MM-DD HH:MM:SS)");
        return parsed;
    }

    int gpusOf(const json& attempt, const std::string& path) const
    {
        // Found by reference: a `?:` with a temporary on one side would copy the whole subtree.
        const auto detail = attempt.is_object() ? attempt.find("detail") : attempt.end();
        if (detail == attempt.end())
            return 0;
        if (!detail->is_array())
            fail(path + ".detail", "must be an array");
        std::size_t gpus = 0;
        for (const json& machine : *detail) {
            const auto list = machine.is_object() ? machine.find("gpus") : machine.end();
            if (list == machine.end() || !list->is_array())
                fail(path + ".detail", "each entry needs a gpus array");
            gpus += list->size();
        }
        if (gpus > static_cast<std::size_t>(limits::kMaxJobGpus))
            fail(path + ".detail",
                std::to_string(gpus) + " GPUs is more than the limit of " + std::to_string(limits::kMaxJobGpus));
        return static_cast<int>(gpus);
    }
};

} // namespace

Workload readPhillyTrace(std::istream& in, const TraceOptions& options)
{
    const json document
        = parseJsonText(readLimited(in, options.source), options.source, &throwTraceError, limits::kMaxTraceJsonBytes);
    if (!document.is_array())
        throw TraceFormatError(options.source + ": expected a JSON array of jobs");
    UserIndex users;
    Workload jobs;
    for (std::size_t i = 0; i < document.size(); ++i) {
        const json& entry = document[i];
        if (!entry.is_object())
            throw TraceFormatError(options.source + ": job " + std::to_string(i + 1) + " is not an object");
        const PhillyJob reader {options, i, entry};
        const auto submit = reader.time(entry, "submitted_time", "submitted_time");
        if (!entry.contains("attempts") || !entry["attempts"].is_array())
            reader.fail("attempts", "is missing or not an array");
        const json& attempts = entry["attempts"];
        if (!submit || attempts.empty())
            continue;
        const auto first = reader.time(attempts.front(), "start_time", "attempts[0].start_time");
        const std::string lastPath = "attempts[" + std::to_string(attempts.size() - 1) + "]";
        const auto end = reader.time(attempts.back(), "end_time", lastPath + ".end_time");
        const int gpus = reader.gpusOf(attempts.back(), lastPath);
        if (!first || !end || gpus == 0)
            continue;
        if (*end < *first)
            reader.fail(lastPath + ".end_time", "is before the first attempt's start_time");
        checkGpus(options, gpus, static_cast<int>(i + 1), "gpus");
        Job job;
        job.id = static_cast<int>(jobs.size());
        job.user = users.of(textOr(entry, "user", ""));
        job.gpus = gpus;
        job.submitS = *submit;
        job.durationS = *end - *first;
        jobs.push_back(job);
    }
    finishWorkload(jobs, options);
    return jobs;
}

} // namespace clusterplanner::core::sched
