// A value, or why there is none: the one shape behind core's Result (SQS's own errors, result.h) and the file and
// command-line layers' Outcome (a message for the user, outcome.h).
#pragma once

#include <utility>
#include <variant>

namespace lifeline {

template <class T, class E> class [[nodiscard]] ValueOrError {
public:
    ValueOrError(T value)
        : m_state(std::move(value))
    {
    }
    ValueOrError(E error)
        : m_state(std::move(error))
    {
    }

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return std::get<0>(m_state); }
    T& value() & { return std::get<0>(m_state); }
    T&& value() && { return std::get<0>(std::move(m_state)); }
    const T* operator->() const { return &std::get<0>(m_state); }
    T* operator->() { return &std::get<0>(m_state); }
    const E& error() const { return std::get<1>(m_state); }

private:
    std::variant<T, E> m_state;
};

} // namespace lifeline
