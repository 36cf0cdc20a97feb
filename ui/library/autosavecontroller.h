// SPDX-License-Identifier: GPL-3.0-or-later
// Periodic autosave of the open document's unsaved edits into the library, and their recovery after a crash.
#pragma once

#include "core/store/storetypes.h"

#include <QObject>

#include <optional>

class QTimer;

namespace clusterplanner::ui {

class LibraryService;
class ScenarioDocument;

/// Every intervalMs() a modified document whose scenario changed since the last autosave is written to the
/// library's autosave slot kSlot. The slot is cleared when the document becomes unmodified (saved, reverted) and by
/// clear() (the main window calls it on close). On the next start, pendingRecovery() finds what a crash left behind.
class AutosaveController : public QObject
{
    Q_OBJECT
public:
    static constexpr int kDefaultIntervalMs = 30000;
    static constexpr char kSlot[] = "main";

    AutosaveController(LibraryService& library, ScenarioDocument& document, QObject* parent = nullptr);

    int intervalMs() const;
    /// Changes the period (tests use a few milliseconds); restarts the timer.
    void setIntervalMs(int intervalMs);

    /// Writes the scenario to the slot when the document is modified and changed since the last autosave; true when
    /// written. A library that refuses the write (read-only, full) is left alone until the next change.
    bool autosaveNow();
    /// Unsaved edits a previous run left in the slot, if any.
    std::optional<core::RecoveryEntry> pendingRecovery();
    /// Puts recovered edits into the document as one undoable, unsaved step on top of the library scenario they
    /// belong to (or the built-in default when it is gone), so the user decides whether to keep them.
    void recover(const core::RecoveryEntry& entry);
    /// Forgets the autosaved edits.
    void clear();

Q_SIGNALS:
    void autosaved();

private:
    LibraryService& m_library;
    ScenarioDocument& m_document;
    QTimer* m_timer;
    std::optional<quint64> m_savedRevision; ///< document revision in the slot, if any
};

} // namespace clusterplanner::ui
