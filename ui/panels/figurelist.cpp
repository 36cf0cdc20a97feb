// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/figurelist.h"

#include "ui/panels/topologyitems.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>

namespace clusterplanner::ui {

namespace {

constexpr int kKeyRole = Qt::UserRole + 1;

} // namespace

FigureList::FigureList(QWidget* parent)
    : QTreeWidget(parent)
    , m_error(new QLabel(viewport()))
{
    m_error->setObjectName(QStringLiteral("figures.error"));
    m_error->setWordWrap(true);
    m_error->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_error->setMargin(6);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The diagram's colour for what is wrong; a style sheet, as the application's own style sheet outranks a palette.
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(topologycolors::issue().name()));
    m_error->hide();
    setColumnCount(2);
    setHeaderLabels({tr("Figure"), tr("Value")});
    setRootIsDecorated(false);
    setIndentation(8);
    setUniformRowHeights(true);
    setSelectionMode(QAbstractItemView::NoSelection);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(1, QHeaderView::Stretch);
}

void FigureList::setRows(const std::vector<FigureRow>& rows)
{
    clear();
    m_error->hide();
    m_error->clear();
    header()->show();
    QTreeWidgetItem* section = nullptr;
    for (const auto& row : rows) {
        if (!section || section->text(0) != row.section) {
            section = new QTreeWidgetItem(this, {row.section});
            QFont bold = font();
            bold.setBold(true);
            section->setFont(0, bold);
            section->setFirstColumnSpanned(true);
            section->setExpanded(true);
        }
        auto* item = new QTreeWidgetItem(section, {row.label, formatFigure(row)});
        item->setData(0, kKeyRole, row.key);
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        if (!row.known)
            item->setToolTip(1, row.whyUnknown);
    }
    expandAll();
}

void FigureList::showError(const QString& message)
{
    clear();
    header()->hide();
    m_error->setText(message); // viewportEvent keeps it over the whole viewport
    m_error->show();
}

QString FigureList::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

// The viewport changes size without the list doing so (the header hidden or shown, a scroll bar gone after clear()):
// the message follows the viewport, not the list.
bool FigureList::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::Resize)
        m_error->setGeometry(viewport()->rect());
    return QTreeWidget::viewportEvent(event);
}

QString FigureList::valueText(const QString& key) const
{
    for (int s = 0; s < topLevelItemCount(); ++s)
        for (int i = 0; i < topLevelItem(s)->childCount(); ++i)
            if (topLevelItem(s)->child(i)->data(0, kKeyRole).toString() == key)
                return topLevelItem(s)->child(i)->text(1);
    return {};
}

} // namespace clusterplanner::ui
