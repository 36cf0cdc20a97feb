// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/wheelguard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace clusterplanner::ui {

namespace {

constexpr const char* kGuardedProperty = "clusterplanner_wheelGuarded";

bool takesWheel(const QWidget* widget)
{
    return qobject_cast<const QAbstractSpinBox*>(widget) || qobject_cast<const QComboBox*>(widget)
        || qobject_cast<const QAbstractSlider*>(widget);
}

} // namespace

WheelGuard::WheelGuard(QObject* parent)
    : QObject(parent)
{ }

void WheelGuard::install(QWidget* root)
{
    auto* guard = new WheelGuard(root);
    for (QWidget* widget : root->findChildren<QWidget*>()) {
        // A panel and a form inside it may both install a guard; one filter per widget is enough.
        if (!takesWheel(widget) || widget->property(kGuardedProperty).toBool())
            continue;
        widget->setProperty(kGuardedProperty, true);
        // Qt::WheelFocus would let the wheel itself give focus, and so edit on the first turn.
        widget->setFocusPolicy(Qt::StrongFocus);
        widget->installEventFilter(guard);
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Wheel || static_cast<QWidget*>(watched)->hasFocus())
        return false;
    // Filtered but not accepted: QApplication hands the event on to the parent, up to the scroll area.
    event->ignore();
    return true;
}

} // namespace clusterplanner::ui
