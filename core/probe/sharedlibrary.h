// SPDX-License-Identifier: GPL-3.0-or-later
// A dlopen()ed library, closed on destruction; symbols are looked up by name and cast to the caller's type.
#pragma once

#include <initializer_list>
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

    /// Sets `function` to the first of `names` the library exports (versioned names first, the older ABI as the
    /// fallback), or to nullptr when it exports none.
    template <typename Function>
    void resolve(Function& function, std::initializer_list<const char*> names) const
    {
        function = nullptr;
        for (const char* name : names)
            if ((function = this->function<Function>(name)))
                return;
    }

private:
    void* m_handle = nullptr;
    std::string m_path;
    std::string m_error;
};

} // namespace clusterplanner::core::probe
