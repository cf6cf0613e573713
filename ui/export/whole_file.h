// A file written whole or not at all: a page, an image. Through QSaveFile (an earlier file stays as it was until the
// new one is complete), unbuffered and short writes retried, so that a full disk fails with the system's reason
// ("No space left on device") instead of "Unknown error" or a file cut short; a symbolic link where it goes is
// refused, not followed.
#pragma once

#include "lifeline/support/outcome.h"

#include <QString>
#include <string_view>

namespace lifeline::ui {

Outcome<> writeWholeFile(const QString& path, std::string_view bytes);

} // namespace lifeline::ui
