// SPDX-License-Identifier: GPL-3.0-or-later
// The application's scenario library: opens the store once, reports problems, and wraps every operation.
#pragma once

#include "core/store/scenariostore.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

namespace clusterplanner::ui {

class ScenarioDocument;

/// Owns the ScenarioStore of the running application. Every operation catches the store's errors and returns them
/// as a message ("" = success), so a failing library never takes the application down. Writes emit
/// libraryChanged(). Saving, importing and changing a scenario cache its key figures (see computeKeyFigures) so the
/// list can sort without recomputing.
class LibraryService : public QObject
{
    Q_OBJECT
public:
    explicit LibraryService(QObject* parent = nullptr);
    ~LibraryService() override;

    /// The per-user library file (core::defaultLibraryPath()), or empty when no home folder is known.
    static QString defaultPath();
    /// The installed sample scenarios, else (in a build tree) the source tree's data/scenarios, else empty.
    static QString sampleDirectory();

    /// Opens the library with core::ScenarioStore::openOrRecover, seeded from seedDirectory when new. Returns false
    /// when no library could be opened. Either way openMessage() says what was wrong and what was done.
    bool open(const QString& path, const QString& seedDirectory = sampleDirectory());
    bool isOpen() const { return m_store.has_value(); }
    bool isReadOnly() const { return m_store && m_store->isReadOnly(); }
    QString path() const { return m_path; }
    /// The problem found on opening (moved aside, read-only, cannot open), for one message at start-up; "" if none.
    QString openMessage() const { return m_openMessage; }
    core::StoreProblem openProblem() const { return m_openProblem; }
    /// The message of the last failed operation.
    QString lastError() const { return m_lastError; }
    /// The open store, or nullptr. For callers that need an operation not wrapped here.
    core::ScenarioStore* store() { return m_store ? &*m_store : nullptr; }

    std::vector<core::ListRow> list(const core::ListQuery& query = {});
    std::optional<core::ScenarioRecord> load(core::ScenarioId id);
    std::vector<core::VersionInfo> versions(core::ScenarioId id);
    /// The scenario tagged "default" (the sample the application opens on), if the library has one.
    std::optional<core::ScenarioId> defaultScenarioId();

    /// Called before the document is replaced; returns false to cancel (the main window asks to save there).
    void setReplaceGuard(std::function<bool()> guard) { m_replaceGuard = std::move(guard); }
    /// Loads the scenario into the document (unmodified, linked to the library); "" or a message. A refused guard
    /// gives "" and leaves the document alone; check the document's libraryId() when that matters.
    QString openInDocument(ScenarioDocument& document, core::ScenarioId id);
    /// Stores the document's scenario: as a new library scenario when asNew or when it has none, otherwise as the
    /// next version of its scenario. Links the document and, when it has no file, marks it saved.
    QString saveDocument(ScenarioDocument& document, bool asNew = false);

    QString rename(core::ScenarioId id, const QString& name);
    QString duplicate(core::ScenarioId id, core::ScenarioId* copyId = nullptr);
    QString setTags(core::ScenarioId id, const QStringList& tags);
    QString remove(core::ScenarioId id);
    QString restore(core::ScenarioId id);
    QString purge(core::ScenarioId id);
    QString restoreVersion(core::ScenarioId id, int version);
    /// Adds *.cplan.json files, all or none; ids receives the new ids.
    QString importFiles(const QStringList& files, std::vector<core::ScenarioId>* ids = nullptr);
    /// One id: writes the file `target`; several: one "<id>-<name>.cplan.json" per scenario into folder `target`.
    QString exportScenarios(const std::vector<core::ScenarioId>& ids, const QString& target);
    /// Computes and caches key figures for up to `limit` scenarios that have none (freshly seeded samples, imports
    /// by the command line); returns how many were tried. The limit keeps start-up short for a large library.
    int fillMissingResults(int limit = 200);

Q_SIGNALS:
    void libraryChanged();

private:
    template <typename Work>
    bool attempt(Work&& work);
    QString write(const std::function<void()>& work);
    void cacheResult(core::ScenarioId id, const core::Scenario& scenario);

    std::optional<core::ScenarioStore> m_store;
    QString m_path;
    QString m_openMessage;
    core::StoreProblem m_openProblem = core::StoreProblem::None;
    QString m_lastError;
    std::function<bool()> m_replaceGuard;
};

} // namespace clusterplanner::ui
