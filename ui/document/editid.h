// SPDX-License-Identifier: GPL-3.0-or-later
// Merge ids of scenario edits: consecutive edits with the same id collapse into one undo step.
#pragma once

namespace clusterplanner::ui {

/// Ids returned by EditScenarioCommand::id(). All ids live here so that two panels never share one by accident.
/// Form fields use FormFieldFirst + their field index, so typing in one spin box is one undo step while a change
/// to another field starts a new one.
enum class EditId : int {
    None = -1, ///< never merges (QUndoCommand's convention)
    LayoutDrag = 1, ///< dragging a layout handle in a future layout panel
    FormFieldFirst = 1000, ///< first id of the scenario form's fields
    TopologyFieldFirst = 100000, ///< first id of the topology form's fields (see topologyFieldEditId)
};

/// The merge id of the form field with the given index.
constexpr int formFieldEditId(int fieldIndex)
{
    return static_cast<int>(EditId::FormFieldFirst) + fieldIndex;
}

/// The merge id of a topology form field of one element (node group or fabric tier): typing in the node count
/// of group 2 is one undo step, and the same field of another group starts a new one.
constexpr int topologyFieldEditId(int element, int field)
{
    return static_cast<int>(EditId::TopologyFieldFirst) + element * 100 + field;
}

} // namespace clusterplanner::ui
