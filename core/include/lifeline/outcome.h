// The result of the file and command-line layers (run files, images, starting the endpoint): a value, or a message
// for the user that names what is wrong (the file, the field, the option). Core's SQS calls return Result<T> with
// SqsError instead (result.h): there the error is SQS's own code and text. Neither layer throws across its API.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace lifeline {

// Why something could not be done, in words for the user.
struct Failure {
    std::string message;
};

template <class T = std::monostate> class [[nodiscard]] Outcome {
public:
    // Done (an Outcome<> with nothing to return): `return {};`
    Outcome() requires std::is_same_v<T, std::monostate> { }
    Outcome(T value)
        : m_state(std::move(value))
    {
    }
    Outcome(Failure failure)
        : m_state(std::move(failure))
    {
    }

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return std::get<0>(m_state); }
    T& value() & { return std::get<0>(m_state); }
    T&& value() && { return std::get<0>(std::move(m_state)); }
    const T* operator->() const { return &std::get<0>(m_state); }
    T* operator->() { return &std::get<0>(m_state); }
    const std::string& message() const { return std::get<1>(m_state).message; }

private:
    std::variant<T, Failure> m_state;
};

} // namespace lifeline
