// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/sharedlibrary.h"

#include <dlfcn.h>

namespace clusterplanner::core::probe {

SharedLibrary::SharedLibrary(const std::string& path)
    : m_path(path)
{
    // RTLD_LOCAL: the driver's symbols must not leak into later dlopen()s (e.g. a second, fake libcuda in tests).
    m_handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!m_handle) {
        const char* message = dlerror();
        m_error = message ? message : "cannot open " + path;
    }
}

SharedLibrary::~SharedLibrary()
{
    if (m_handle)
        dlclose(m_handle);
}

void* SharedLibrary::symbol(const char* name) const
{
    return m_handle ? dlsym(m_handle, name) : nullptr;
}

} // namespace clusterplanner::core::probe
