// SPDX-License-Identifier: GPL-3.0-or-later
// Formatting of UTC timestamps without locale or time-zone dependence.
#include "core/store/timestamp.h"

#include <cstdio>
#include <ctime>

namespace clusterplanner::core {

namespace {

std::tm utcFields(std::chrono::system_clock::time_point time)
{
    const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
    std::tm fields {};
    gmtime_r(&seconds, &fields);
    return fields;
}

} // namespace

std::string isoTimestampUtc(std::chrono::system_clock::time_point time)
{
    const std::tm t = utcFields(time);
    const auto sinceEpoch = time.time_since_epoch();
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(sinceEpoch).count() % 1000;
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday,
        t.tm_hour, t.tm_min, t.tm_sec, static_cast<int>(millis < 0 ? millis + 1000 : millis));
    return text;
}

std::string fileTimestampUtc(std::chrono::system_clock::time_point time)
{
    const std::tm t = utcFields(time);
    char text[64];
    std::snprintf(text, sizeof text, "%04d%02d%02dT%02d%02d%02dZ", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday, t.tm_hour,
        t.tm_min, t.tm_sec);
    return text;
}

} // namespace clusterplanner::core
