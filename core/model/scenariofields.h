// SPDX-License-Identifier: GPL-3.0-or-later
// The one table of scenario fields: name, unit, bounds, default, label and tooltip, shared by the file reader,
// the Scenario form and docs/scenario-format.md.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace clusterplanner::core {

/// Widest model dimension a file may give (hidden, expert FFN; the dense FFN may be 8 times this): beyond anything
/// built today, tight enough to catch unit mistakes and integer overflow in the memory model.
inline constexpr long long kMaxDim = 1'000'000;
/// Most GPUs in one job, and so the bound of every degree that may span the whole cluster (dp).
inline constexpr long long kMaxGpus = 10'000'000;

enum class FieldKind { Integer, Number, Boolean, Text, Choice, OptionalObject, List };

/// One field of a scenario file. `path` is its only name: the dotted JSON path in the file, the objectName of its
/// form widget, and what a bad-file message names ("training.micro_batch: must be at least 1").
struct ScenarioField
{
    std::string_view path;
    FieldKind kind;
    std::string_view unit; ///< "" when the value has none
    double min = 0; ///< Integer/Number: the smallest accepted value
    double max = 0; ///< Integer/Number: the largest; Text: the longest, in bytes
    std::string_view defaultJson; ///< the value in a new scenario (defaultScenario()), as JSON text
    std::string_view label;
    std::string_view toolTip;
    std::vector<std::string> (*choices)() = nullptr; ///< Choice: the accepted names
    bool optional = false; ///< may be missing (files written before it existed); missing means the default
    std::string_view bound = {}; ///< a bound that depends on another field, in words ("≤ model.heads")
    /// A field of the engine's view of the training run (Scenario::cluster): the form edits it and messages name it,
    /// version-1 files carry it; version-2 files carry the topology and the training group instead, from which it is
    /// derived (core/cluster/trainingview.h).
    bool view = false;

    /// The key inside its JSON object: the last segment of path ("micro_batch").
    const char* key() const;
};

/// Every field, in file order.
std::span<const ScenarioField> scenarioFields();

/// The field at `path`; throws std::out_of_range for a path the table does not have (a programming error).
const ScenarioField& scenarioField(std::string_view path);

/// The markdown table of every field, as docs/scenario-format.md carries it between its field-table markers.
std::string scenarioFieldsMarkdown();

} // namespace clusterplanner::core
