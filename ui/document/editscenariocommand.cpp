// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/editscenariocommand.h"

#include "ui/document/scenariodocument.h"

namespace clusterplanner::ui {

EditScenarioCommand::EditScenarioCommand(
    ScenarioDocument* document, core::Scenario before, core::Scenario after, const QString& text, int mergeId)
    : QUndoCommand(text)
    , m_document(document)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeId(mergeId)
{ }

void EditScenarioCommand::undo()
{
    m_document->applyScenario(m_before, {});
}

void EditScenarioCommand::redo()
{
    m_document->applyScenario(m_after, {});
}

bool EditScenarioCommand::mergeWith(const QUndoCommand* other)
{
    const auto* edit = static_cast<const EditScenarioCommand*>(other); // same id() implies same class
    if (edit->m_document != m_document)
        return false;
    m_after = edit->m_after;
    // Typing a value and then typing the old value back leaves nothing to undo.
    setObsolete(m_after == m_before);
    return true;
}

} // namespace clusterplanner::ui
