// The result of the file and command-line layers (run files, images, starting the endpoint): a value, or a message
// for the user that names what is wrong (the file, the field, the option). Core's SQS calls return Result<T> with
// SqsError instead (result.h): there the error is SQS's own code and text. Neither layer throws across its API.
#pragma once

#include "lifeline/support/value_or_error.h"

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace lifeline {

// Why something could not be done, in words for the user.
struct Failure {
    std::string message;
};

template <class T = std::monostate> class [[nodiscard]] Outcome : public ValueOrError<T, Failure> {
public:
    using ValueOrError<T, Failure>::ValueOrError;
    // Done (an Outcome<> with nothing to return): `return {};`
    Outcome() requires std::is_same_v<T, std::monostate> : ValueOrError<T, Failure>(std::monostate {}) { }
    const std::string& message() const { return this->error().message; }
};

} // namespace lifeline
