// SPDX-License-Identifier: GPL-3.0-or-later
// Calls one library function for one field and, when it cannot, records why instead of failing the probe.
#pragma once

#include "core/probe/probetypes.h"

#include <string>
#include <vector>

namespace clusterplanner::core::probe {

class FieldReader
{
public:
    using NameFn = std::string (*)(int);
    /// lostCode: the return code that means the GPU fell off the bus (NVML 15); -1 for none.
    FieldReader(std::vector<Unavailable>& notes, bool* lost, NameFn codeName, int lostCode)
        : m_notes(notes)
        , m_lost(lost)
        , m_codeName(codeName)
        , m_lostCode(lostCode)
    { }

    /// True when fn exists and answered success; otherwise a note "symbol: CODE (n)" is kept for field.
    template <typename Fn, typename... Args>
    bool ask(const char* field, const char* symbol, Fn fn, Args... args)
    {
        if (m_lost && *m_lost) {
            note(field, "not asked: the GPU answered " + m_codeName(m_lostCode) + " before");
            return false;
        }
        if (!fn) {
            note(field, std::string(symbol) + " is not in this driver's library (older driver)");
            return false;
        }
        const int code = fn(args...);
        if (code == 0)
            return true;
        if (code == m_lostCode && m_lost)
            *m_lost = true;
        note(field, std::string(symbol) + ": " + m_codeName(code));
        return false;
    }

    void note(const std::string& field, const std::string& reason) { m_notes.push_back({field, reason}); }

private:
    std::vector<Unavailable>& m_notes;
    bool* m_lost;
    NameFn m_codeName;
    int m_lostCode;
};

} // namespace clusterplanner::core::probe
