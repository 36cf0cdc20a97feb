// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/comparedialog.h"

#include "ui/library/keyfigures.h"
#include "ui/library/libraryservice.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace clusterplanner::ui {

CompareDialog::CompareDialog(std::vector<CompareEntry> entries, QWidget* parent)
    : QDialog(parent)
    , m_model(new ComparisonModel(this))
    , m_view(new QTableView(this))
{
    setObjectName(QStringLiteral("compareDialog"));
    setWindowTitle(tr("Compare Scenarios"));
    m_model->setEntries(std::move(entries));
    m_view->setObjectName(QStringLiteral("compareView"));
    m_view->setModel(m_model);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_view->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_view->setWordWrap(false);

    auto* onlyDifferences = new QCheckBox(tr("Show only inputs that differ"), this);
    onlyDifferences->setObjectName(QStringLiteral("onlyDifferences"));
    connect(onlyDifferences, &QCheckBox::toggled, m_model, &ComparisonModel::setOnlyDifferences);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(
        tr("Key results first (each column's difference to the first scenario in brackets), then the inputs. "
           "Rows that differ are highlighted."),
        this));
    layout->addWidget(m_view, 1);
    layout->addWidget(onlyDifferences);
    layout->addWidget(buttons);
    resize(1100, 800);
}

std::vector<CompareEntry> CompareDialog::entriesFor(LibraryService& library, const std::vector<core::ScenarioId>& ids)
{
    std::vector<CompareEntry> entries;
    for (const core::ScenarioId id : ids) {
        auto record = library.load(id);
        if (!record)
            continue;
        CompareEntry entry {QString::fromStdString(record->scenario.name), record->scenario, record->result};
        if (!entry.result) {
            try {
                entry.result = computeKeyFigures(record->scenario);
            } catch (const std::exception&) {
                // An unknown GPU type: the inputs can still be compared.
            }
        }
        entries.push_back(std::move(entry));
    }
    return entries;
}

} // namespace clusterplanner::ui
