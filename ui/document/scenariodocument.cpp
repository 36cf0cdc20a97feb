// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/scenariodocument.h"

#include "core/cluster/trainingview.h"
#include "core/io/scenariojson.h"
#include "core/model/gpucatalog.h"
#include "ui/document/editscenariocommand.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QUndoStack>

namespace clusterplanner::ui {

namespace {

QString writeFile(const core::Scenario& scenario, const QString& path)
{
    if (const QString problem = ScenarioDocument::validationError(scenario); !problem.isEmpty())
        return QObject::tr("Cannot save %1: the scenario is not valid: %2").arg(path, problem);
    QSaveFile file(path);
    const QByteArray bytes = QByteArray::fromStdString(core::writeScenarioFile(scenario));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return QObject::tr("Cannot save %1: %2").arg(path, file.errorString());
    return {};
}

} // namespace

ScenarioDocument::ScenarioDocument(QObject* parent)
    : QObject(parent)
    , m_scenario(core::defaultScenario())
    , m_undoStack(new QUndoStack(this))
{
    connect(m_undoStack, &QUndoStack::cleanChanged, this, [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
}

ScenarioDocument::~ScenarioDocument()
{
    // ~QUndoStack clears the stack and may emit cleanChanged; this object is half-destroyed by then.
    m_undoStack->disconnect(this);
}

QString ScenarioDocument::displayName() const
{
    if (!m_fileName.isEmpty())
        return QFileInfo(m_fileName).fileName();
    if (m_libraryId && !m_scenario.name.empty())
        return QString::fromStdString(m_scenario.name);
    return tr("Untitled");
}

void ScenarioDocument::setLibraryId(std::optional<std::int64_t> id)
{
    if (id == m_libraryId)
        return;
    m_libraryId = id;
    Q_EMIT fileNameChanged();
}

bool ScenarioDocument::isModified() const
{
    return !m_undoStack->isClean();
}

void ScenarioDocument::edit(const core::Scenario& after, const QString& text, int mergeId)
{
    // The form edits the engine's view, the topology panel the topology: either way both agree after this one step.
    const core::Scenario reconciled = core::cluster::reconcileEdit(m_scenario, after, core::GpuCatalog::builtin());
    if (reconciled == m_scenario)
        return;
    m_undoStack->push(new EditScenarioCommand(this, m_scenario, reconciled, text, mergeId));
}

void ScenarioDocument::newDocument(const core::Scenario& scenario)
{
    reset(scenario, QString());
}

QString ScenarioDocument::load(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return tr("Cannot open %1: %2").arg(path, file.errorString());
    try {
        const core::Scenario scenario = core::readScenarioFile(file.readAll().toStdString());
        reset(scenario, QFileInfo(path).absoluteFilePath());
        return {};
    } catch (const core::ScenarioFormatError& error) {
        return tr("Cannot open %1: %2").arg(path, QString::fromStdString(error.what()));
    }
}

QString ScenarioDocument::save(const QString& path)
{
    if (QString error = writeFile(m_scenario, path); !error.isEmpty())
        return error;
    setFileName(QFileInfo(path).absoluteFilePath());
    m_undoStack->setClean();
    return {};
}

QString ScenarioDocument::saveCopy(const QString& path) const
{
    return writeFile(m_scenario, path);
}

QString ScenarioDocument::validationError(const core::Scenario& scenario)
{
    // The reader is the single definition of a valid scenario: whatever it rejects could not be opened again.
    try {
        core::scenarioFromJson(core::scenarioToJson(scenario));
        return {};
    } catch (const core::ScenarioFormatError& error) {
        return QString::fromStdString(error.what());
    }
}

void ScenarioDocument::applyScenario(const core::Scenario& scenario, ScenarioChanges changes)
{
    changes |= scenarioChanges(m_scenario, scenario);
    m_scenario = scenario;
    ++m_revision;
    Q_EMIT scenarioChanged(changes);
}

void ScenarioDocument::reset(const core::Scenario& scenario, const QString& fileName)
{
    m_undoStack->clear();
    setLibraryId(std::nullopt);
    setFileName(fileName);
    applyScenario(scenario, kAllScenarioChanges); // views of the old document must all start over
}

void ScenarioDocument::setFileName(const QString& fileName)
{
    if (fileName == m_fileName)
        return;
    m_fileName = fileName;
    Q_EMIT fileNameChanged();
}

} // namespace clusterplanner::ui
