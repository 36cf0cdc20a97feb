// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/settings/settings.h"

#include <QSettings>

namespace clusterplanner::ui {

Settings::Settings(QSettings& settings)
    : m_settings(settings)
{ }

QByteArray Settings::windowGeometry() const
{
    return m_settings.value(SettingsKey::WindowGeometry).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray& geometry)
{
    m_settings.setValue(SettingsKey::WindowGeometry, geometry);
}

QByteArray Settings::windowState() const
{
    if (m_settings.value(SettingsKey::WindowStateVersion, -1).toInt() != kWindowStateVersion)
        return {};
    return m_settings.value(SettingsKey::WindowState).toByteArray();
}

void Settings::setWindowState(const QByteArray& state)
{
    m_settings.setValue(SettingsKey::WindowState, state);
    m_settings.setValue(SettingsKey::WindowStateVersion, kWindowStateVersion);
}

QStringList Settings::recentFiles() const
{
    QStringList files = m_settings.value(SettingsKey::RecentFiles).toStringList();
    files.removeDuplicates();
    files.removeAll(QString());
    return files.mid(0, kMaxRecentFiles);
}

void Settings::setRecentFiles(const QStringList& files)
{
    QStringList cleaned = files;
    cleaned.removeDuplicates();
    cleaned.removeAll(QString());
    m_settings.setValue(SettingsKey::RecentFiles, cleaned.mid(0, kMaxRecentFiles));
}

void Settings::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    setRecentFiles(files);
}

void Settings::removeRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    setRecentFiles(files);
}

QString Settings::lastDirectory() const
{
    return m_settings.value(SettingsKey::LastDirectory).toString();
}

void Settings::setLastDirectory(const QString& directory)
{
    m_settings.setValue(SettingsKey::LastDirectory, directory);
}

void Settings::sync()
{
    m_settings.sync();
}

bool Settings::darkPalette() const
{
    return m_settings.value(SettingsKey::DarkPalette, false).toBool();
}

void Settings::setDarkPalette(bool dark)
{
    m_settings.setValue(SettingsKey::DarkPalette, dark);
}

} // namespace clusterplanner::ui
