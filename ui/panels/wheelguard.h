// SPDX-License-Identifier: GPL-3.0-or-later
// Keeps the mouse wheel from editing value widgets that merely pass under the pointer in a scrolling form.
#pragma once

#include <QObject>

class QWidget;

namespace clusterplanner::ui {

/// Spin boxes, combo boxes and sliders take the wheel only once they have focus (click or Tab), as in KDE and
/// Qt Creator settings; otherwise the wheel event goes on to the parent, so the scroll area scrolls instead.
class WheelGuard : public QObject
{
    Q_OBJECT
public:
    /// Guards every such widget under `root` (existing children only); the guard is a child of `root`.
    static void install(QWidget* root);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelGuard(QObject* parent);
};

} // namespace clusterplanner::ui
