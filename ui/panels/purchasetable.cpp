// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/purchasetable.h"

#include "ui/panels/purchaserows.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QTableWidget>

#include <cmath>

namespace clusterplanner::ui {

namespace {

constexpr int kLabelLength = 28;

QString tr(const char* text)
{
    return QCoreApplication::translate("PurchaseTable", text);
}

QColor tint(const FigureRow& row, const FigureRow& reference)
{
    if (!row.known || !reference.known || row.value == reference.value)
        return {};
    const bool better = (row.value < reference.value) == row.lowerIsBetter;
    return better ? QColor(0xDD, 0xF2, 0xDD) : QColor(0xF8, 0xDD, 0xDD);
}

/// Keys in display order: the first entry's rows, then rows only later entries have (another tier name).
std::vector<FigureRow> rowOrder(const std::vector<std::vector<FigureRow>>& perEntry)
{
    std::vector<FigureRow> order;
    for (const auto& rows : perEntry)
        for (const auto& row : rows)
            if (!findRow(order, row.key))
                order.push_back(row);
    return order;
}

QTableWidgetItem* sectionItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    QFont bold = item->font();
    bold.setBold(true);
    item->setFont(bold);
    item->setBackground(QColor(0xEC, 0xEC, 0xEE));
    item->setFlags(Qt::ItemIsEnabled);
    return item;
}

QString percentChange(double value, double base)
{
    if (base == 0)
        return QStringLiteral("–");
    const double percent = 100 * (value - base) / std::abs(base);
    return (percent >= 0 ? QStringLiteral("+") : QString()) + QString::number(percent, 'f', 1) + QStringLiteral(" %");
}

} // namespace

PurchaseEntry makePurchaseEntry(const core::Scenario& scenario, const QString& source)
{
    PurchaseEntry entry;
    entry.label = shortScenarioLabel(QString::fromStdString(scenario.name));
    entry.source = source;
    entry.scenario = scenario;
    const auto figures = core::evaluation::purchaseFigures(scenario);
    if (figures) {
        entry.figures = *figures;
        entry.sensitivity = core::evaluation::purchaseSensitivity(scenario, *figures);
    } else {
        entry.error = QString::fromStdString(figures.error().text());
    }
    return entry;
}

QString shortScenarioLabel(const QString& name)
{
    const int colon = name.lastIndexOf(QStringLiteral(": "));
    QString label = colon >= 0 ? name.mid(colon + 2) : name;
    if (label.size() > kLabelLength)
        label = label.left(kLabelLength - 1) + QStringLiteral("…");
    return label.isEmpty() ? tr("(unnamed)") : label;
}

void fillComparisonTable(QTableWidget& table, const std::vector<PurchaseEntry>& entries)
{
    std::vector<std::vector<FigureRow>> perEntry;
    for (const auto& entry : entries)
        perEntry.push_back(entry.figures ? purchaseRows(*entry.figures) : std::vector<FigureRow> {});
    const auto order = rowOrder(perEntry);
    table.clear();
    table.setColumnCount(int(entries.size()));
    table.setRowCount(0);
    for (int c = 0; c < int(entries.size()); ++c) {
        auto* header = new QTableWidgetItem(entries[std::size_t(c)].label);
        header->setToolTip(QString::fromStdString(entries[std::size_t(c)].scenario.name) + QLatin1Char('\n')
            + entries[std::size_t(c)].source);
        table.setHorizontalHeaderItem(c, header);
    }
    QString section;
    for (const auto& row : order) {
        const int r = table.rowCount();
        table.insertRow(r);
        if (row.section != section) {
            section = row.section;
            table.setVerticalHeaderItem(r, sectionItem(section));
            for (int c = 0; c < table.columnCount(); ++c)
                table.setItem(r, c, sectionItem({}));
            table.insertRow(r + 1);
        }
        const int at = table.rowCount() - 1;
        auto* label = new QTableWidgetItem(row.label);
        label->setData(Qt::UserRole, row.key);
        table.setVerticalHeaderItem(at, label);
        const FigureRow* reference = perEntry.empty() ? nullptr : findRow(perEntry.front(), row.key);
        for (int c = 0; c < int(entries.size()); ++c) {
            const FigureRow* own = findRow(perEntry[std::size_t(c)], row.key);
            QString text
                = own ? formatFigure(*own) : (entries[std::size_t(c)].figures ? QStringLiteral("–") : tr("no figures"));
            auto* item = new QTableWidgetItem;
            if (own && reference && c > 0) {
                if (const QString diff = formatDifference(*own, *reference); !diff.isEmpty())
                    text += QStringLiteral("  (") + diff + QLatin1Char(')');
                if (const QColor color = tint(*own, *reference); color.isValid())
                    item->setBackground(color);
            }
            item->setText(text);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(own && !own->known ? own->whyUnknown : entries[std::size_t(c)].error);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            table.setItem(at, c, item);
        }
    }
    table.resizeColumnsToContents();
}

void fillSensitivityTable(QTableWidget& table, const std::vector<PurchaseEntry>& entries)
{
    table.clear();
    table.setRowCount(int(entries.size()));
    const std::size_t cases = entries.empty() ? 0 : entries.front().sensitivity.size();
    table.setColumnCount(int(cases));
    for (std::size_t k = 0; k < cases; ++k) {
        const auto& c = entries.front().sensitivity[k];
        table.setHorizontalHeaderItem(int(k),
            new QTableWidgetItem(
                QString::fromStdString(c.assumption) + QLatin1Char(' ') + QString::fromStdString(c.change)));
    }
    for (int r = 0; r < int(entries.size()); ++r) {
        const auto& entry = entries[std::size_t(r)];
        table.setVerticalHeaderItem(r, new QTableWidgetItem(entry.label));
        for (std::size_t k = 0; k < cases && k < entry.sensitivity.size(); ++k) {
            const auto& c = entry.sensitivity[k];
            QString text = QString::fromStdString(c.error);
            if (c.figures && entry.figures) {
                text = tr("TCO %1").arg(percentChange(c.figures->cluster.tcoUsd, entry.figures->cluster.tcoUsd));
                if (entry.figures->run.fits && c.figures->run.fits)
                    text += tr(" · $/M tokens %1")
                                .arg(percentChange(c.figures->run.ownedUsdPerMillionTokens,
                                    entry.figures->run.ownedUsdPerMillionTokens));
            }
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignCenter);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            if (c.figures)
                item->setToolTip(
                    tr("TCO %1, owned $ per M tokens %2")
                        .arg(formatUsd(c.figures->cluster.tcoUsd), formatUsd(c.figures->run.ownedUsdPerMillionTokens)));
            table.setItem(r, int(k), item);
        }
    }
    table.resizeColumnsToContents();
}

} // namespace clusterplanner::ui
