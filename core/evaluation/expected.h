// SPDX-License-Identifier: GPL-3.0-or-later
// A value or the EvaluationError that prevented it: std::expected's shape for C++20 (docs/methods-model.md, Errors).
#pragma once

#include "core/evaluation/evaluationerror.h"

#include <optional>
#include <utility>

namespace clusterplanner::core {

template <typename T>
class Expected
{
public:
    Expected(T value)
        : m_value(std::move(value))
    { }
    Expected(EvaluationError error)
        : m_error(std::move(error))
    { }

    bool hasValue() const { return m_value.has_value(); }
    explicit operator bool() const { return hasValue(); }
    /// Precondition: hasValue().
    const T& value() const { return *m_value; }
    const T& operator*() const { return *m_value; }
    const T* operator->() const { return &*m_value; }
    /// Precondition: !hasValue().
    const EvaluationError& error() const { return *m_error; }

private:
    std::optional<T> m_value;
    std::optional<EvaluationError> m_error;
};

} // namespace clusterplanner::core
