// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/panelwidgets.h"

#include "ui/panels/wheelguard.h"

#include <QDoubleSpinBox>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

namespace clusterplanner::ui {

QDoubleSpinBox* numberField(double min, double max, int decimals, const QString& suffix)
{
    auto* field = new QDoubleSpinBox;
    field->setRange(min, max);
    field->setDecimals(decimals);
    field->setSuffix(suffix);
    field->setGroupSeparatorShown(max >= 100'000);
    field->setKeyboardTracking(false);
    return field;
}

QSpinBox* countField(int min, int max, const QString& suffix)
{
    auto* field = new QSpinBox;
    field->setRange(min, max);
    field->setSuffix(suffix);
    field->setGroupSeparatorShown(true);
    field->setKeyboardTracking(false);
    return field;
}

QScrollArea* setScrollingBody(QWidget* panel, QWidget* content)
{
    auto* scroll = new QScrollArea(panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    WheelGuard::install(content);
    auto* outer = new QVBoxLayout(panel);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    return scroll;
}

} // namespace clusterplanner::ui
