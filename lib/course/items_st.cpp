// Registration of the Stewart-Trinkle items (course seed 004: reading of Stewart & Trinkle 1996).
#include "course/registry.h"
#include "st/lcp.h"

namespace impulse::course {

namespace {

Quantity in_scalar(const char* name, const char* unit, const char* doc) { return {name, unit, 1, doc}; }

void register_lcp(Registry& r) {
  r.add({"ST.2-perp-definition", "formula", "a perp b: a >= 0, b >= 0 and a b = 0", "ST §2", Status::implemented, "",
         "lib/st/lcp.h: complementary",
         {in_scalar("a", "-", "first quantity (e.g. p_n [N s])"), in_scalar("b", "-", "second quantity (e.g. phi [m])")},
         {{"complementary", "-", 1, "1 when 0 <= a perp b >= 0 holds exactly, else 0"}},
         [](const Values& v) { return Values{{"complementary", {st::complementary(scalar(v, "a"), scalar(v, "b")) ? 1.0 : 0.0}}}; }});
  r.add({"ST.0-prereq-complementarity", "rule", "two complementary nonnegative quantities are never both positive",
         "ST §0", Status::implemented, "", "lib/st/lcp.h: complementary, solve_lcp", {}, {}, {}});
  r.add({"ST.3-lemke-lexicographic", "rule", "contact LCPs are solved by Lemke pivoting with lexicographic tie-breaking",
         "ST §3", Status::implemented, "", "lib/st/lcp.h: solve_lcp", {}, {}, {}});
}

}  // namespace

void register_st(Registry& r) { register_lcp(r); }

}  // namespace impulse::course
