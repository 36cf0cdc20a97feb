// SPDX-License-Identifier: GPL-3.0-or-later
// Undo command that swaps the whole scenario between a "before" and an "after" value (a memento).
#pragma once

#include "core/model/scenario.h"
#include "ui/document/editid.h"

#include <QUndoCommand>

namespace clusterplanner::ui {

class ScenarioDocument;

/// Scenario is a small value type, so every edit stores both states instead of per-field inverse operations.
/// Commands with the same merge id (see EditId) merge: the merged command keeps the first "before" and the latest
/// "after"; when those become equal the command is marked obsolete and the stack drops it.
class EditScenarioCommand : public QUndoCommand
{
public:
    EditScenarioCommand(ScenarioDocument* document, core::Scenario before, core::Scenario after, const QString& text,
        int mergeId = static_cast<int>(EditId::None));

    void undo() override;
    void redo() override;
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    ScenarioDocument* m_document;
    core::Scenario m_before;
    core::Scenario m_after;
    int m_mergeId;
};

} // namespace clusterplanner::ui
