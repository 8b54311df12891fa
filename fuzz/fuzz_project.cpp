// Fuzzes the *.cuwb project reader (parseProject, the in-memory half of loadProject): any
// text gives a project or an error with a position, never a crash; a project that was read
// saves to text that reads back.
#include "fuzzinput.h"
#include "project/project.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const cuwb::ProjectLoad load = cuwb::parseProject(cuwb::fuzz::asText(data, size));
    if (!load.project)
        return 0;
    const std::string saved = cuwb::serializeProject(*load.project);
    const cuwb::ProjectLoad again = cuwb::parseProject(saved);
    if (!again.project)
        std::abort(); // a saved project that cannot be opened again
    return 0;
}
