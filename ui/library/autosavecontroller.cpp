// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/library/autosavecontroller.h"

#include "core/store/scenariostore.h"
#include "ui/document/scenariodocument.h"
#include "ui/library/libraryservice.h"

#include <QTimer>

#include <algorithm>

namespace clusterplanner::ui {

AutosaveController::AutosaveController(LibraryService& library, ScenarioDocument& document, QObject* parent)
    : QObject(parent)
    , m_library(library)
    , m_document(document)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(kDefaultIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &AutosaveController::autosaveNow);
    connect(&m_document, &ScenarioDocument::modifiedChanged, this, [this](bool modified) {
        if (!modified)
            clear();
    });
    m_timer->start();
}

int AutosaveController::intervalMs() const
{
    return m_timer->interval();
}

void AutosaveController::setIntervalMs(int intervalMs)
{
    m_timer->start(std::max(1, intervalMs));
}

bool AutosaveController::autosaveNow()
{
    core::ScenarioStore* store = m_library.store();
    if (!store || store->isReadOnly() || !m_document.isModified() || m_savedRevision == m_document.revision())
        return false;
    try {
        store->autosave(kSlot, m_document.scenario(), m_document.libraryId());
    } catch (const std::exception&) {
        // Autosave is a safety net: a refused write must not interrupt editing. Try again after the next change.
    }
    m_savedRevision = m_document.revision();
    Q_EMIT autosaved();
    return true;
}

std::optional<core::RecoveryEntry> AutosaveController::pendingRecovery()
{
    core::ScenarioStore* store = m_library.store();
    if (!store)
        return std::nullopt;
    try {
        for (core::RecoveryEntry& entry : store->pendingRecovery()) {
            if (entry.slot == kSlot)
                return std::move(entry);
        }
    } catch (const std::exception&) { }
    return std::nullopt;
}

void AutosaveController::recover(const core::RecoveryEntry& entry)
{
    std::optional<core::ScenarioRecord> base;
    if (entry.scenarioId)
        base = m_library.load(*entry.scenarioId);
    m_document.newDocument(base ? base->scenario : core::defaultScenario());
    if (base)
        m_document.setLibraryId(base->id);
    m_document.edit(entry.scenario, tr("Recovered edits"));
}

void AutosaveController::clear()
{
    m_savedRevision.reset();
    core::ScenarioStore* store = m_library.store();
    if (!store || store->isReadOnly())
        return;
    try {
        store->clearAutosave(kSlot);
    } catch (const std::exception&) { }
}

} // namespace clusterplanner::ui
