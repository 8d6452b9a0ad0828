// Fuzz target: the LCP file reader of `impulse lcp` (lib/st/lcp_file.h), then Lemke on what it read
// when the problem is small: a status of `solved` must mean lcp_solved holds for a finite z.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz/fuzz_check.h"
#include "st/lcp.h"
#include "st/lcp_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace impulse;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  st::LcpProblem p;
  if (!fuzz::parsed_or_one_line_error([&] { p = st::read_lcp(in, "<fuzz>"); })) return 0;
  if (p.q.size() > 8) return 0;  // larger problems: parsing is what is fuzzed here
  const st::LcpResult r = st::solve_lcp(p.M, p.q);
  if (r.status == st::LcpStatus::solved && (!r.z.allFinite() || !st::lcp_solved(p.M, p.q, r.z)))
    fuzz::finding("solve_lcp says solved but lcp_solved disagrees", r.message.c_str());
  if (r.message.empty() || r.message.find('\n') != std::string::npos) fuzz::finding("bad LCP message", r.message.c_str());
  return 0;
}
