// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/settings/localcatalogfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

namespace clusterplanner::ui {

LocalCatalogFile::LocalCatalogFile(QString folder)
    : m_folder(folder.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) : folder)
{ }

QString LocalCatalogFile::catalogPath() const
{
    return QDir(m_folder).filePath(QStringLiteral("local-gpus.json"));
}

QString LocalCatalogFile::overridesPath() const
{
    return QDir(m_folder).filePath(QStringLiteral("probe-efficiency.json"));
}

QString LocalCatalogFile::read(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

bool LocalCatalogFile::write(const QString& path, const QString& text)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(text.toUtf8());
    return file.commit();
}

} // namespace clusterplanner::ui
