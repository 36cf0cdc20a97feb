// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/librarypanel.h"

#include "ui/dialogs/comparedialog.h"
#include "ui/document/scenariodocument.h"
#include "ui/library/libraryservice.h"
#include "ui/models/librarymodel.h"

#include <QAction>
#include <QCheckBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace clusterplanner::ui {

namespace {

QAction* makeAction(QWidget* owner, const char* objectName, const QString& text, const QString& toolTip = {})
{
    auto* action = new QAction(text, owner);
    action->setObjectName(QString::fromLatin1(objectName));
    action->setToolTip(toolTip.isEmpty() ? text : toolTip);
    owner->addAction(action);
    return action;
}

/// Rows without a cached figure sort after the others in both directions, as in the store's own list.
class MissingLastProxy : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override
    {
        const bool leftValid = left.data(sortRole()).isValid();
        const bool rightValid = right.data(sortRole()).isValid();
        if (leftValid != rightValid) // descending order sorts by "greater", so flip to keep the empty ones last
            return sortOrder() == Qt::AscendingOrder ? leftValid : rightValid;
        return QSortFilterProxyModel::lessThan(left, right);
    }
};

} // namespace

LibraryPanel::LibraryPanel(ScenarioDocument* document, LibraryService* library, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_library(library)
    , m_model(new LibraryModel(this))
    , m_proxy(new MissingLastProxy(this))
    , m_view(new QTableView(this))
    , m_search(new QLineEdit(this))
    , m_trash(new QCheckBox(tr("Trash"), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("libraryPanel"));
    createActions();
    createLayout();
    if (m_library)
        connect(m_library, &LibraryService::libraryChanged, this, &LibraryPanel::refresh);
    connect(m_document, &ScenarioDocument::fileNameChanged, this, &LibraryPanel::updateActions);
    refresh();
    m_view->resizeColumnsToContents(); // once, on the first rows: later refreshes keep the user's widths
    m_view->sortByColumn(LibraryModel::Modified, Qt::DescendingOrder);
}

void LibraryPanel::createActions()
{
    connect(makeAction(this, "library.open", tr("Open"), tr("Open the selected scenario")), &QAction::triggered, this,
        &LibraryPanel::openSelected);
    connect(makeAction(this, "library.save", tr("Save"), tr("Save the open scenario into the library (a new version)")),
        &QAction::triggered, this, [this] { saveDocument(false); });
    connect(makeAction(this, "library.saveNew", tr("Save as New"), tr("Save the open scenario as a new library entry")),
        &QAction::triggered, this, [this] { saveDocument(true); });
    connect(
        makeAction(this, "library.rename", tr("Rename…")), &QAction::triggered, this, &LibraryPanel::renameSelected);
    connect(makeAction(this, "library.duplicate", tr("Duplicate")), &QAction::triggered, this,
        &LibraryPanel::duplicateSelected);
    connect(makeAction(this, "library.tags", tr("Tags…")), &QAction::triggered, this, &LibraryPanel::tagSelected);
    connect(makeAction(this, "library.delete", tr("Delete"), tr("Move the selected scenarios to the trash")),
        &QAction::triggered, this, &LibraryPanel::deleteSelected);
    connect(makeAction(this, "library.restore", tr("Restore"), tr("Take the selected scenarios out of the trash")),
        &QAction::triggered, this, &LibraryPanel::restoreSelected);
    connect(makeAction(this, "library.purge", tr("Delete Permanently…")), &QAction::triggered, this,
        &LibraryPanel::purgeSelected);
    connect(makeAction(this, "library.history", tr("History…"), tr("Restore an earlier version")), &QAction::triggered,
        this, &LibraryPanel::showHistory);
    connect(makeAction(this, "library.import", tr("Import…")), &QAction::triggered, this, &LibraryPanel::importFiles);
    connect(
        makeAction(this, "library.export", tr("Export…")), &QAction::triggered, this, &LibraryPanel::exportSelected);
    connect(makeAction(this, "library.compare", tr("Compare…"), tr("Compare two or more scenarios side by side")),
        &QAction::triggered, this, &LibraryPanel::compareSelected);
}

void LibraryPanel::createLayout()
{
    m_status->setObjectName(QStringLiteral("libraryStatus"));
    m_status->setWordWrap(true);
    m_status->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; color: #5c4400; padding: 4px; }"));
    m_search->setObjectName(QStringLiteral("librarySearch"));
    m_search->setPlaceholderText(tr("Search names, tags and notes"));
    m_search->setClearButtonEnabled(true);
    m_trash->setObjectName(QStringLiteral("libraryTrash"));
    connect(m_search, &QLineEdit::textChanged, this, &LibraryPanel::refresh);
    connect(m_trash, &QCheckBox::toggled, this, &LibraryPanel::refresh);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(LibraryModel::SortRole);
    m_view->setObjectName(QStringLiteral("libraryView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    connect(m_view, &QTableView::doubleClicked, this, &LibraryPanel::openSelected);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &LibraryPanel::updateActions);

    auto* toolBar = new QToolBar(this);
    toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolBar->addActions(actions());
    auto* searchRow = new QHBoxLayout;
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(m_trash);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_status);
    layout->addLayout(searchRow);
    layout->addWidget(toolBar);
    layout->addWidget(m_view, 1);
}

QAction* LibraryPanel::action(const QString& objectName) const
{
    return findChild<QAction*>(objectName);
}

QString LibraryPanel::statusText() const
{
    return m_status->isHidden() ? QString() : m_status->text();
}

void LibraryPanel::refresh()
{
    const auto selected = selectedIds();
    if (m_library) {
        core::ListQuery query;
        query.search = m_search->text().trimmed().toStdString();
        query.trash = m_trash->isChecked();
        m_model->setRows(m_library->list(query));
    }
    selectIds(selected);
    updateStatus();
    updateActions();
}

void LibraryPanel::setSearchText(const QString& text)
{
    m_search->setText(text);
}

void LibraryPanel::setShowTrash(bool trash)
{
    m_trash->setChecked(trash);
}

std::vector<core::ScenarioId> LibraryPanel::selectedIds() const
{
    std::vector<core::ScenarioId> ids;
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.row() < b.row(); });
    for (const QModelIndex& index : rows)
        ids.push_back(index.data(LibraryModel::IdRole).value<qint64>());
    return ids;
}

void LibraryPanel::selectIds(const std::vector<core::ScenarioId>& ids)
{
    QItemSelection selection;
    for (const core::ScenarioId id : ids) {
        const int row = m_model->rowOf(id);
        if (row >= 0)
            selection.select(m_model->index(row, 0), m_model->index(row, LibraryModel::ColumnCount - 1));
    }
    m_view->selectionModel()->select(m_proxy->mapSelectionFromSource(selection), QItemSelectionModel::ClearAndSelect);
}

void LibraryPanel::updateStatus()
{
    QString text;
    if (!m_library || !m_library->isOpen())
        text = m_library && !m_library->openMessage().isEmpty() ? m_library->openMessage()
                                                                : tr("No scenario library is open.");
    else if (m_library->isReadOnly())
        text = tr("The library is read-only: %1").arg(m_library->openMessage());
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

void LibraryPanel::updateActions()
{
    const bool writable = m_library && m_library->isOpen() && !m_library->isReadOnly();
    const bool trash = m_trash->isChecked();
    const std::size_t count = selectedIds().size();
    const auto enable = [this](const char* name, bool on) { action(QString::fromLatin1(name))->setEnabled(on); };
    enable("library.open", !trash && count == 1);
    enable("library.save", writable && m_document->libraryId().has_value());
    enable("library.saveNew", writable);
    enable("library.rename", writable && !trash && count == 1);
    enable("library.duplicate", writable && !trash && count == 1);
    enable("library.tags", writable && !trash && count == 1);
    enable("library.delete", writable && !trash && count > 0);
    enable("library.restore", writable && trash && count > 0);
    enable("library.purge", writable && trash && count > 0);
    enable("library.history", writable && !trash && count == 1);
    enable("library.import", writable);
    enable("library.export", count > 0);
    enable("library.compare", count >= 2);
}

void LibraryPanel::report(const QString& title, const QString& error)
{
    if (!error.isEmpty())
        QMessageBox::warning(this, title, error);
}

void LibraryPanel::openSelected()
{
    const auto ids = selectedIds();
    if (m_library && ids.size() == 1)
        report(tr("Cannot Open Scenario"), m_library->openInDocument(*m_document, ids.front()));
}

void LibraryPanel::saveDocument(bool asNew)
{
    if (!m_library)
        return;
    const QString error = m_library->saveDocument(*m_document, asNew);
    report(tr("Cannot Save to Library"), error);
    if (error.isEmpty() && m_document->libraryId())
        selectIds({*m_document->libraryId()});
}

void LibraryPanel::duplicateSelected()
{
    const auto ids = selectedIds();
    core::ScenarioId copy = 0;
    if (m_library && ids.size() == 1) {
        const QString error = m_library->duplicate(ids.front(), &copy);
        report(tr("Cannot Duplicate Scenario"), error);
        if (error.isEmpty())
            selectIds({copy});
    }
}

void LibraryPanel::forEachSelected(QString (LibraryService::*operation)(core::ScenarioId))
{
    if (!m_library)
        return;
    for (const core::ScenarioId id : selectedIds()) {
        if (const QString error = (m_library->*operation)(id); !error.isEmpty()) {
            report(tr("Library"), error);
            return;
        }
    }
}

void LibraryPanel::deleteSelected()
{
    forEachSelected(&LibraryService::remove);
}

void LibraryPanel::restoreSelected()
{
    forEachSelected(&LibraryService::restore);
}

void LibraryPanel::purgeSelected()
{
    const auto answer = QMessageBox::question(this, tr("Delete Permanently"),
        tr("Delete %n scenario(s) with all their versions for good? This cannot be undone.", nullptr,
            int(selectedIds().size())));
    if (answer == QMessageBox::Yes)
        forEachSelected(&LibraryService::purge);
}

void LibraryPanel::renameSelected()
{
    const auto ids = selectedIds();
    if (!m_library || ids.size() != 1)
        return;
    const QString current = QString::fromStdString(m_model->rowAt(m_model->rowOf(ids.front())).name);
    bool ok = false;
    const QString name
        = QInputDialog::getText(this, tr("Rename Scenario"), tr("Name:"), QLineEdit::Normal, current, &ok);
    if (ok && !name.trimmed().isEmpty())
        report(tr("Cannot Rename Scenario"), m_library->rename(ids.front(), name));
}

void LibraryPanel::tagSelected()
{
    const auto ids = selectedIds();
    if (!m_library || ids.size() != 1)
        return;
    QStringList tags;
    for (const auto& tag : m_model->rowAt(m_model->rowOf(ids.front())).tags)
        tags << QString::fromStdString(tag);
    bool ok = false;
    const QString text = QInputDialog::getText(
        this, tr("Tags"), tr("Tags, separated by commas:"), QLineEdit::Normal, tags.join(QStringLiteral(", ")), &ok);
    if (ok)
        report(tr("Cannot Change Tags"), m_library->setTags(ids.front(), text.split(QLatin1Char(','))));
}

void LibraryPanel::showHistory()
{
    const auto ids = selectedIds();
    if (!m_library || ids.size() != 1)
        return;
    const auto versions = m_library->versions(ids.front());
    if (versions.empty()) {
        QMessageBox::information(this, tr("History"), tr("This scenario has no earlier versions."));
        return;
    }
    QStringList items;
    for (const core::VersionInfo& version : versions)
        items << tr("Version %1, replaced %2: %3")
                     .arg(version.version)
                     .arg(QString::fromStdString(version.saved), QString::fromStdString(version.name));
    bool ok = false;
    const QString chosen = QInputDialog::getItem(
        this, tr("History"), tr("Restore this version (the current one is kept as a version):"), items, 0, false, &ok);
    if (ok)
        report(tr("Cannot Restore Version"),
            m_library->restoreVersion(ids.front(), versions.at(std::size_t(items.indexOf(chosen))).version));
}

void LibraryPanel::importFiles()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Import Scenarios"), QString(), tr("ClusterPlanner scenarios (*.cplan.json);;All files (*)"));
    if (!files.isEmpty() && m_library)
        report(tr("Cannot Import"), m_library->importFiles(files));
}

void LibraryPanel::exportSelected()
{
    const auto ids = selectedIds();
    if (!m_library || ids.empty())
        return;
    const QString target = ids.size() == 1 ? QFileDialog::getSaveFileName(
                               this, tr("Export Scenario"), QString(), tr("ClusterPlanner scenario (*.cplan.json)"))
                                           : QFileDialog::getExistingDirectory(this, tr("Export Scenarios to Folder"));
    if (!target.isEmpty())
        report(tr("Cannot Export"), m_library->exportScenarios(ids, target));
}

void LibraryPanel::compareSelected()
{
    const auto ids = selectedIds();
    if (!m_library || ids.size() < 2)
        return;
    auto* dialog = new CompareDialog(CompareDialog::entriesFor(*m_library, ids), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

} // namespace clusterplanner::ui
