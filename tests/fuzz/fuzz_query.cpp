// libFuzzer: query-protocol requests (form bodies, query strings) through parser, decoder and service.
#include "fuzz_request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    lifeline::fuzz::runRequest(std::string_view(reinterpret_cast<const char*>(data), size));
    // The folding of flattened parameters on its own, with the input as a form body.
    if (auto flat = lifeline::endpoint::splitForm(std::string_view(reinterpret_cast<const char*>(data), size)))
        lifeline::endpoint::foldQueryParameters(*flat);
    return 0;
}
