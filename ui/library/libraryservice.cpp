// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/library/libraryservice.h"

#include "core/store/libraryfile.h"
#include "core/store/librarypaths.h"
#include "ui/document/scenariodocument.h"
#include "ui/library/keyfigures.h"

#include <QDir>
#include <QFileInfo>
#include <QUndoStack>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace clusterplanner::ui {

namespace {

constexpr char kDefaultTag[] = "default";

QString fromStd(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

LibraryService::LibraryService(QObject* parent)
    : QObject(parent)
{ }

LibraryService::~LibraryService() = default;

QString LibraryService::defaultPath()
{
    try {
        return fromStd(core::defaultLibraryPath());
    } catch (const std::exception&) {
        return {};
    }
}

QString LibraryService::sampleDirectory()
{
    if (const std::string installed = core::installedScenarioDirectory(); !installed.empty())
        return fromStd(installed);
#ifdef CLUSTERPLANNER_SOURCE_SCENARIOS_DIR
    // A build tree has no installed share/ folder; its samples are the source tree's.
    if (const QString source = QStringLiteral(CLUSTERPLANNER_SOURCE_SCENARIOS_DIR); QFileInfo(source).isDir())
        return source;
#endif
    return {};
}

bool LibraryService::open(const QString& path, const QString& seedDirectory)
{
    m_store.reset();
    m_path = path;
    if (path.isEmpty()) {
        m_openProblem = core::StoreProblem::CannotOpen;
        m_openMessage = tr("No folder for the scenario library is known (HOME is not set); the library is off.");
        return false;
    }
    // The store creates the file but not its folder; a fresh user account has no data folder yet.
    QDir().mkpath(QFileInfo(path).absolutePath());
    core::StoreOptions options;
    options.seedDirectory = seedDirectory.toStdString();
    core::OpenResult result = core::ScenarioStore::openOrRecover(path.toStdString(), options);
    m_openProblem = result.problem;
    m_openMessage = fromStd(result.message);
    if (result.store)
        m_store.emplace(std::move(*result.store));
    else if (m_openMessage.isEmpty())
        m_openMessage = tr("The scenario library %1 cannot be opened; the library is off.").arg(path);
    Q_EMIT libraryChanged();
    return isOpen();
}

template <typename Work>
bool LibraryService::attempt(Work&& work)
{
    if (!m_store) {
        m_lastError = tr("No scenario library is open.");
        return false;
    }
    try {
        work(*m_store);
        return true;
    } catch (const std::exception& error) { // StoreError, ScenarioFormatError, filesystem errors
        m_lastError = fromStd(error.what());
        return false;
    }
}

QString LibraryService::write(const std::function<void()>& work)
{
    if (!attempt([&](core::ScenarioStore&) { work(); }))
        return m_lastError;
    Q_EMIT libraryChanged();
    return {};
}

std::vector<core::ListRow> LibraryService::list(const core::ListQuery& query)
{
    std::vector<core::ListRow> rows;
    attempt([&](core::ScenarioStore& store) { rows = store.list(query); });
    return rows;
}

std::optional<core::ScenarioRecord> LibraryService::load(core::ScenarioId id)
{
    std::optional<core::ScenarioRecord> record;
    attempt([&](core::ScenarioStore& store) { record = store.load(id); });
    return record;
}

std::vector<core::VersionInfo> LibraryService::versions(core::ScenarioId id)
{
    std::vector<core::VersionInfo> result;
    attempt([&](core::ScenarioStore& store) { result = store.versions(id); });
    return result;
}

std::optional<core::ScenarioId> LibraryService::defaultScenarioId()
{
    for (const core::ListRow& row : list()) {
        if (std::find(row.tags.begin(), row.tags.end(), kDefaultTag) != row.tags.end())
            return row.id;
    }
    return std::nullopt;
}

QString LibraryService::openInDocument(ScenarioDocument& document, core::ScenarioId id)
{
    const auto record = load(id);
    if (!record)
        return m_lastError;
    if (m_replaceGuard && !m_replaceGuard())
        return {};
    document.newDocument(record->scenario);
    document.setLibraryId(id);
    return {};
}

QString LibraryService::saveDocument(ScenarioDocument& document, bool asNew)
{
    const core::Scenario scenario = document.scenario();
    std::optional<core::ScenarioId> id = asNew ? std::nullopt : document.libraryId();
    const QString error = write([&] {
        if (id)
            m_store->update(*id, scenario);
        else
            id = m_store->save(scenario);
    });
    if (!error.isEmpty())
        return error;
    cacheResult(*id, scenario);
    document.setLibraryId(id);
    // A document that also lives in a file is only saved when that file is written.
    if (document.fileName().isEmpty())
        document.undoStack()->setClean();
    return {};
}

void LibraryService::cacheResult(core::ScenarioId id, const core::Scenario& scenario)
{
    // Best effort: a scenario the engine cannot evaluate (unknown GPU) is still stored, only without figures.
    try {
        const core::CachedResult result = computeKeyFigures(scenario);
        attempt([&](core::ScenarioStore& store) { store.putResult(id, result); });
    } catch (const std::exception& error) {
        m_lastError = fromStd(error.what());
    }
}

QString LibraryService::rename(core::ScenarioId id, const QString& name)
{
    const QString error = write([&] { m_store->rename(id, name.trimmed().toStdString()); });
    if (error.isEmpty()) // renaming is an update, which drops the cached result
        if (const auto record = load(id))
            cacheResult(id, record->scenario);
    return error;
}

QString LibraryService::duplicate(core::ScenarioId id, core::ScenarioId* copyId)
{
    core::ScenarioId copy = 0;
    const QString error = write([&] { copy = m_store->duplicate(id); });
    if (error.isEmpty()) {
        if (const auto record = load(copy))
            cacheResult(copy, record->scenario);
        if (copyId)
            *copyId = copy;
    }
    return error;
}

QString LibraryService::setTags(core::ScenarioId id, const QStringList& tags)
{
    std::vector<std::string> list;
    for (const QString& tag : tags)
        list.push_back(tag.toStdString());
    return write([&] { m_store->setTags(id, list); });
}

QString LibraryService::remove(core::ScenarioId id)
{
    return write([&] { m_store->remove(id); });
}

QString LibraryService::restore(core::ScenarioId id)
{
    return write([&] { m_store->restore(id); });
}

QString LibraryService::purge(core::ScenarioId id)
{
    return write([&] { m_store->purge(id); });
}

QString LibraryService::restoreVersion(core::ScenarioId id, int version)
{
    const QString error = write([&] { m_store->restoreVersion(id, version); });
    if (error.isEmpty())
        if (const auto record = load(id))
            cacheResult(id, record->scenario);
    return error;
}

QString LibraryService::importFiles(const QStringList& files, std::vector<core::ScenarioId>* ids)
{
    std::vector<core::NewScenario> scenarios;
    std::vector<core::ScenarioId> added;
    const QString error = write([&] {
        for (const QString& file : files) { // every file is checked before anything is added
            core::LibraryFile content = core::loadLibraryFile(file.toStdString());
            scenarios.push_back({std::move(content.scenario), std::move(content.tags)});
        }
        added = m_store->saveAll(scenarios);
    });
    for (std::size_t i = 0; i < added.size(); ++i)
        cacheResult(added[i], scenarios[i].scenario);
    if (ids)
        *ids = added;
    return error;
}

QString LibraryService::exportScenarios(const std::vector<core::ScenarioId>& ids, const QString& target)
{
    namespace fs = std::filesystem;
    const bool intoFolder = ids.size() > 1;
    const bool ok = attempt([&](core::ScenarioStore& store) {
        if (intoFolder)
            fs::create_directories(target.toStdString());
        for (const core::ScenarioId id : ids) {
            const core::ScenarioRecord record = store.load(id);
            const std::string name = std::to_string(id) + "-" + core::fileSlug(record.scenario.name) + ".cplan.json";
            const fs::path file = intoFolder ? fs::path(target.toStdString()) / name : fs::path(target.toStdString());
            core::saveLibraryFile(file.string(), record.scenario, record.tags);
        }
    });
    return ok ? QString() : m_lastError;
}

int LibraryService::fillMissingResults(int limit)
{
    if (isReadOnly())
        return 0;
    int filled = 0;
    for (const core::ListRow& row : list()) {
        if (row.figures)
            continue;
        if (filled >= limit)
            break;
        if (const auto record = load(row.id)) {
            cacheResult(row.id, record->scenario);
            ++filled;
        }
    }
    if (filled > 0)
        Q_EMIT libraryChanged();
    return filled;
}

} // namespace clusterplanner::ui
