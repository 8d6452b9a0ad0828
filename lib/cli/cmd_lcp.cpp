// impulse lcp FILE|- [--json]  (filled by the Stewart-Trinkle chapter work, issue 7)
#include "cli/commands.h"

namespace impulse::cli {

int cmd_lcp(const std::vector<std::string>&) {
  throw BadInput("lcp: the Lemke solver is not built yet (Stewart-Trinkle chapter, issue 7)");
}

}  // namespace impulse::cli
