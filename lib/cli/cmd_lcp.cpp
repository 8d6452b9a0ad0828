// impulse lcp FILE|- [--json]: solve w = M z + q, z >= 0, w >= 0, z^T w = 0 by Lemke's method.
// impulse lcp --write-set scenes|held-out --out DIR: write a contact LCP set (lib/cli/lcp_sets.h),
// one file per LCP, for the LCP comparison of ./run bench-peers.
//
// File format ('#' starts a comment, blank lines are skipped): n alone on the first line, then the
// n rows of M, one line of n numbers each, then q: one line of n numbers or n lines of one. A row
// of another length is refused with its line, so a file whose M is not square is never solved
// (the reader is st::read_lcp, lib/st/lcp_file.h). Exit 0 when solved, 1 for any other status (ray
// termination, pivot limit, numerical failure: the LCP was read but not solved), 2 for a bad file.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/lcp_sets.h"
#include "course/api.h"
#include "st/lcp.h"
#include "st/lcp_file.h"

namespace impulse::cli {

namespace {

long whole_number(const std::string& option, const std::string& text, long lo, long hi) {
  std::size_t used = 0;
  long v = 0;
  try {
    v = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || v < lo || v > hi)
    throw BadInput("lcp: " + option + " must be a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                   "], got '" + text + "'");
  return v;
}

// Every file is built in memory before the first is written, so a refused argument leaves nothing.
int write_set(const std::string& set, const std::string& dir, long count, long seed, long per_run) {
  if (set != "scenes" && set != "held-out")
    throw BadInput("lcp: --write-set must be scenes or held-out, got '" + set + "'");
  if (dir.empty()) throw BadInput("lcp: --write-set needs --out DIR");
  const std::vector<NamedLcp> lcps =
      set == "scenes" ? scene_lcp_set(int(per_run)) : held_out_lcp_set(int(count), std::uint64_t(seed));
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir)) throw BadInput("lcp: cannot create --out '" + dir + "'");
  for (const NamedLcp& p : lcps) {
    const std::string path = dir + "/" + p.name + ".lcp";
    std::ofstream f(path);
    st::write_lcp(f, p.M, p.q, p.origin);
    if (!f) throw std::runtime_error("lcp: cannot write '" + path + "'");
  }
  std::cout << "wrote " << lcps.size() << " LCPs (" << set << ") to " << dir << '\n';
  return 0;
}

}  // namespace

int cmd_lcp(const std::vector<std::string>& args) {
  std::string path, set, out_dir;
  bool as_json = false, trace = false, set_options = false;
  long count = 28, seed = 1, per_run = 4;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--write-set" || a == "--out" || a == "--count" || a == "--seed" || a == "--per-run") {
      if (i + 1 >= args.size()) throw BadInput("lcp: " + a + " needs a value");
      const std::string& v = args[++i];
      set_options = true;
      if (a == "--write-set") set = v;
      else if (a == "--out") out_dir = v;
      else if (a == "--count") count = whole_number(a, v, 1, 1000);
      else if (a == "--seed") seed = whole_number(a, v, 0, 2147483647);
      else per_run = whole_number(a, v, 1, 100);
      continue;
    }
    if (a == "--help" || a == "-h") {
      std::cout << "impulse lcp FILE|- [--json] [--trace]\n"
                   "  Solves w = M z + q, z >= 0, w >= 0, z^T w = 0 by Lemke's method (lexicographic).\n"
                   "  FILE: n alone on the first line, then n lines of n numbers (the rows of M), then q as one\n"
                   "  line of n numbers or n lines of one; '#' starts a comment; '-' reads standard input.\n"
                   "  Limits: 1 <= n <= 2000; entries finite, |x| <= 1e12.\n"
                   "  Prints status, z, w, the complementarity and feasibility residuals and the pivot count.\n"
                   "  --trace: also the pivot path (entering and leaving variable, z0 after each pivot).\n"
                   "  Exit 0 solved, 1 not solved (ray termination, pivot limit, numerical failure), 2 bad input.\n"
                   "impulse lcp --write-set scenes|held-out --out DIR [--per-run K] [--count N] [--seed S]\n"
                   "  Writes a set of contact LCPs, one FILE per LCP (DIR/NAME.lcp, the origin in its comment):\n"
                   "  scenes: the first LCP of up to K (1-100, default 4) steps of each Stewart-Trinkle run\n"
                   "  (st-bounce, a point on an incline, st-rod, st-balls with 4, 8, 16 directions and its 7-contact\n"
                   "  LCP, rows of touching balls); held-out: N (1-1000, default 28) random ball piles from seed S\n"
                   "  (0-2147483647, default 1). Read by the engines of ./run bench-peers.\n"
                   "example:\n  printf '2\\n2 1\\n1 2\\n-5 -6\\n' | impulse lcp -\n";
      return 0;
    }
    if (a == "--json") {
      as_json = true;
    } else if (a == "--trace") {
      trace = true;
    } else if (!path.empty()) {
      throw BadInput("lcp takes one FILE (or -), got '" + path + "' and '" + a + "'");
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      throw BadInput("lcp: unknown option '" + a + "'");
    } else {
      path = a;
    }
  }
  if (set_options) {
    if (!path.empty() || as_json || trace) throw BadInput("lcp: --write-set takes no FILE, --json or --trace");
    return write_set(set, out_dir, count, seed, per_run);
  }
  if (path.empty()) throw BadInput("lcp needs a FILE (or - for standard input)");

  const std::string src = path == "-" ? "<stdin>" : path;
  // The whole input as text, read up to just past read_lcp's 256 MiB limit (which then refuses it).
  std::string text;
  {
    std::ifstream f;
    if (path != "-") {
      f.open(path, std::ios::binary);
      if (!f) throw BadInput("cannot read '" + path + "'");
    }
    std::istream& in = path == "-" ? std::cin : f;
    constexpr std::size_t kReadCap = (256u << 20) + (1u << 20) + 1;
    std::vector<char> buf(1 << 16);
    while (in && text.size() < kReadCap) {
      in.read(buf.data(), std::streamsize(std::min(buf.size(), kReadCap - text.size())));
      text.append(buf.data(), std::size_t(in.gcount()));
    }
  }
  if (as_json) {
    nlohmann::json j;
    try {
      j = course::lcp_json(text, src, trace);  // the page's impulse.lcp returns the same (lib/course/api.h)
    } catch (const std::invalid_argument& e) {
      throw BadInput(e.what());
    }
    std::cout << j.dump(2) << '\n';
    return j["status"] == "solved" ? 0 : 1;
  }
  st::LcpProblem p;
  try {
    std::istringstream in(text);
    p = st::read_lcp(in, src);
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  const Eigen::MatrixXd& M = p.M;
  const Eigen::VectorXd& q = p.q;
  const int n = int(q.size());

  st::LcpOptions opt;
  opt.trace = trace;
  const st::LcpResult r = st::solve_lcp(M, q, opt);
  // Lemke variable names: w1..wn, z1..zn (1-based, as printed), z0 the artificial one.
  auto name = [n](int v) { return v < n ? "w" + std::to_string(v + 1) : v < 2 * n ? "z" + std::to_string(v - n + 1) : std::string("z0"); };
  const bool ok = r.status == st::LcpStatus::solved;
  std::cout.precision(12);
  std::cout << "status: " << st::to_string(r.status) << " (" << r.message << ")\nz:";
  for (int i = 0; i < n; ++i) std::cout << ' ' << r.z(i);
  std::cout << "\nw:";
  for (int i = 0; i < n; ++i) std::cout << ' ' << r.w(i);
  std::cout << "\ncomplementarity residual (relative): " << r.complementarity
            << "\nfeasibility residual (relative): " << r.feasibility << "\npivots: " << r.pivots << '\n';
  for (std::size_t i = 0; i < r.trace.size(); ++i)
    std::cout << "pivot " << i + 1 << ": " << name(r.trace[i].entering) << " enters, " << name(r.trace[i].leaving)
              << " leaves, z0 = " << r.trace[i].z0 << '\n';
  return ok ? 0 : 1;
}

}  // namespace impulse::cli
