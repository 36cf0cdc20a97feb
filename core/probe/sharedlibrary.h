// SPDX-License-Identifier: GPL-3.0-or-later
// A dlopen()ed library, closed on destruction; symbols are looked up by name and cast to the caller's type.
#pragma once

#include <string>

namespace clusterplanner::core::probe {

class SharedLibrary
{
public:
    /// Opens with RTLD_NOW | RTLD_LOCAL; on failure isLoaded() is false and error() holds dlerror().
    explicit SharedLibrary(const std::string& path);
    ~SharedLibrary();
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;

    bool isLoaded() const { return m_handle != nullptr; }
    const std::string& error() const { return m_error; }
    const std::string& path() const { return m_path; }
    /// The symbol's address, or nullptr when the library lacks it.
    void* symbol(const char* name) const;

    template <typename Function>
    Function function(const char* name) const
    {
        return reinterpret_cast<Function>(symbol(name));
    }

private:
    void* m_handle = nullptr;
    std::string m_path;
    std::string m_error;
};

} // namespace clusterplanner::core::probe
