// libFuzzer: query-protocol requests (form bodies, query strings) through parser, decoder and service.
#include "fuzz_request.h"

#include <algorithm>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    lifeline::fuzz::runRequest(std::string_view(reinterpret_cast<const char*>(data), size));
    // The folding of flattened parameters on its own, with the input as a form body.
    // Keys are bounded first, as decodeRequest bounds them.
    if (auto flat = lifeline::endpoint::splitForm(std::string_view(reinterpret_cast<const char*>(data), size))) {
        for (const auto& [key, value] : *flat)
            if (std::count(key.begin(), key.end(), '.') >= lifeline::endpoint::kMaxQueryKeySegments)
                return 0;
        (void)lifeline::endpoint::foldQueryParameters(*flat);
    }
    return 0;
}
