// SPDX-License-Identifier: GPL-3.0-or-later
// The open scenario: its value, undo stack, file name and modified state.
#pragma once

#include "core/model/scenario.h"
#include "ui/document/editid.h"
#include "ui/document/scenariochange.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <optional>

class QUndoStack;

namespace clusterplanner::ui {

/// Owns one core::Scenario. Panels read scenario() and change it only through edit(), which pushes an
/// EditScenarioCommand, so every change can be undone. isModified() follows the undo stack's clean state.
/// revision() grows by one on every change of the scenario (edit, undo, redo, load, new), so results computed
/// for an older revision can be recognised as stale.
class ScenarioDocument : public QObject
{
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject* parent = nullptr);
    ~ScenarioDocument() override;

    const core::Scenario& scenario() const { return m_scenario; }
    QUndoStack* undoStack() const { return m_undoStack; }
    /// Absolute path of the file, or empty for a document never saved.
    QString fileName() const { return m_fileName; }
    /// File name without folder; else the scenario name for a library scenario; else "Untitled".
    QString displayName() const;
    /// The library scenario (core::ScenarioId) this document was opened from or last saved to; cleared by
    /// newDocument() and load(). Changing it emits fileNameChanged(), since the document's identity changed.
    std::optional<std::int64_t> libraryId() const { return m_libraryId; }
    void setLibraryId(std::optional<std::int64_t> id);
    bool isModified() const;
    quint64 revision() const { return m_revision; }

    /// Replaces the scenario with `after` as one undoable step named `text`. Consecutive edits with the same
    /// mergeId (see EditId) become one step. Does nothing when `after` equals the current scenario.
    void edit(const core::Scenario& after, const QString& text, int mergeId = static_cast<int>(EditId::None));

    /// Starts an unsaved, unmodified document with an empty undo history.
    void newDocument(const core::Scenario& scenario = core::defaultScenario());
    /// Reads a *.cplan.json file. On success the document holds it, unmodified, with an empty undo history, and
    /// the result is empty. On failure the document is untouched and the result is a message naming the file and
    /// the problem (for a bad field its dotted path, e.g. "model.layers: must be at least 1 (got -3)").
    [[nodiscard]] QString load(const QString& path);
    /// Writes the scenario to `path` atomically and marks the document clean under that name. Returns an empty
    /// string, or a message when the file cannot be written or the scenario would not read back.
    [[nodiscard]] QString save(const QString& path);
    /// Writes a copy to `path` without changing the document's file name or modified state.
    [[nodiscard]] QString saveCopy(const QString& path) const;

    /// The first problem that would stop the scenario from loading again (dotted field path and message), or
    /// empty when it is valid.
    static QString validationError(const core::Scenario& scenario);

Q_SIGNALS:
    /// The scenario changed; changes says which parts (all of them for a new or loaded document).
    void scenarioChanged(ScenarioChanges changes);
    void fileNameChanged();
    void modifiedChanged(bool modified);

private:
    friend class EditScenarioCommand;
    void applyScenario(const core::Scenario& scenario, ScenarioChanges changes);
    void reset(const core::Scenario& scenario, const QString& fileName);
    void setFileName(const QString& fileName);

    core::Scenario m_scenario;
    QUndoStack* m_undoStack;
    QString m_fileName;
    std::optional<std::int64_t> m_libraryId;
    quint64 m_revision = 0;
};

} // namespace clusterplanner::ui
