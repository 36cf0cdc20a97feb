// SPDX-License-Identifier: GPL-3.0-or-later
// Purchase comparison (--panel purchase): two to six scenarios side by side: a table of the derived figures with
// differences against the first, bar charts (TCO, time to train, facility power, $ per M tokens) and a sensitivity
// strip, all from core::evaluation::purchaseFigures() and purchaseSensitivity().
#pragma once

#include "ui/panels/purchasetable.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QTableWidget;

namespace clusterplanner::ui {

class LibraryService;
class ScenarioDocument;
class StackedBarChart;

class PurchasePanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxEntries = 6;

    /// Starts with the library's "purchase-512" scenarios, else the three purchase512 sample files.
    PurchasePanel(ScenarioDocument* document, LibraryService* library, QWidget* parent = nullptr);

    const std::vector<PurchaseEntry>& entries() const { return m_entries; }
    QTableWidget* table() const { return m_table; }
    QTableWidget* sensitivityTable() const { return m_sensitivity; }
    /// The bar charts: TCO, time to train, facility power, owned $ per M tokens.
    std::vector<StackedBarChart*> charts() const { return m_charts; }
    QString statusText() const;

    /// Each returns "" or why nothing was added (full, unreadable file, unknown id).
    QString addScenario(const core::Scenario& scenario, const QString& source);
    QString addFile(const QString& path);
    QString addLibraryScenario(qint64 id);
    /// One variant of the document's scenario per node group: the cluster reduced to that group, training on it.
    QString addGroupVariants();
    void removeEntry(int index);
    void clearEntries();
    /// The sample files the panel opens with when the library has no purchase scenarios.
    static QStringList sampleFiles();

Q_SIGNALS:
    void entriesChanged();

private:
    void createWidgets();
    void createLayout();
    void loadDefaults();
    void fillLibraryChoice();
    void addFilesInteractive();
    void refresh();
    void refreshCharts();
    void setStatus(const QString& text);

    ScenarioDocument* m_document;
    LibraryService* m_library;
    std::vector<PurchaseEntry> m_entries;
    QComboBox* m_libraryChoice;
    QLabel* m_status;
    QTableWidget* m_table;
    QTableWidget* m_sensitivity;
    std::vector<StackedBarChart*> m_charts;
};

} // namespace clusterplanner::ui
