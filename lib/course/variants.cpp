#include "course/variants.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/shortest_decimal.h"
#include "core/text.h"
#include "course/registry.h"

namespace impulse::course {

std::uint64_t fnv1a64(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::uint64_t SplitMix64::next() {
  state += 0x9e3779b97f4a7c15ull;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }

SplitMix64 variant_stream(const std::string& seed, const std::string& exercise_id) {
  return SplitMix64{fnv1a64(seed + "\x1f" + exercise_id)};
}

// 10^k as an exact double for |k| <= 22 (products of 10 are exact there).
static double power_of_ten(int k) {
  double p = 1;
  for (int i = 0; i < (k < 0 ? -k : k); ++i) p *= 10;
  return p;
}

// round2(x) = round(x / 10^(e-1)) * 10^(e-1), e = the decimal exponent of |x| (10^e <= |x| < 10^(e+1)),
// found by comparisons with exact powers of ten; a negative power is applied as a division.
double round_two_figures(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  const double a = std::abs(x);
  int e = 0;
  while (e < 22 && a >= power_of_ten(e + 1)) ++e;
  while (e > -22 && a < (e <= 0 ? 1 / power_of_ten(-e) : power_of_ten(e))) --e;
  const int shift = 1 - e;  // digits to move left of the point
  if (shift >= 0) return std::round(x * power_of_ten(shift)) / power_of_ten(shift);
  return std::round(x / power_of_ten(-shift)) * power_of_ten(-shift);
}

namespace {

bool integer_input(const std::string& formula, const std::string& name) {
  const Item* it = registry().find(formula);
  if (!it) return false;
  for (const Quantity& q : it->inputs)
    if (q.name == name) return q.domain ? q.domain->integer : default_domain(it->id, q).integer;
  return false;
}

// A draw is kept when every key is computable and every typical mistake gives an answer the
// tolerance tells apart from the key (a scale of 1 would make "kept the mass" right, for one).
bool draw_accepted(const Exercise& e) {
  try {
    for (const AnswerPart& p : e.parts) {
      if (p.kind != "number") continue;
      const std::vector<double> key = answer_key(p);
      const Tolerance t = answer_tolerance(p, key);
      for (const Mistake& m : p.mistakes) {
        const std::vector<double> wrong = mistake_value(p, m);
        const double bound = std::max(t.absolute, answer_tolerance(p, wrong).absolute);  // as grade() matches it
        bool apart = wrong.size() != key.size();
        for (std::size_t i = 0; i < key.size() && !apart; ++i)
          apart = t.exact ? wrong[i] != key[i] : std::abs(wrong[i] - key[i]) > 2 * bound;
        if (!apart) return false;
      }
    }
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

void shuffle_options(AnswerPart& p, SplitMix64& g) {
  for (const std::string& o : p.options)
    if (o.size() <= option_label(o).size() + 1) return;  // bare labels: the statements are in the question
  std::vector<std::string> text;
  std::string correct_text;
  for (const std::string& o : p.options) {
    const std::string body = o.substr(option_label(o).size() + 1);
    text.push_back(body);
    if (option_label(o) == p.correct) correct_text = body;
  }
  for (std::size_t i = text.size() - 1; i > 0; --i) std::swap(text[i], text[g.next() % (i + 1)]);
  p.options.clear();
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::string label(1, char('a' + i));
    p.options.push_back(label + ")" + text[i]);
    if (text[i] == correct_text) p.correct = label;
  }
}

}  // namespace

bool has_numeric_variant(const Exercise& e) { return !e.vary.empty(); }

Exercise make_variant(const Exercise& e, const std::string& seed) {
  SplitMix64 g = variant_stream(seed, e.id);
  Exercise v = e;
  for (int attempt = 0; attempt < kMaxDraws && !e.vary.empty(); ++attempt) {
    Values drawn;
    for (const std::string& name : e.vary) {
      const AnswerPart* owner = nullptr;
      for (const AnswerPart& p : e.parts)
        if (p.kind == "number" && p.inputs.count(name)) {
          owner = &p;
          break;
        }
      std::vector<double> x = owner->inputs.at(name);
      const bool whole = integer_input(owner->formula, name);
      for (double& c : x) {
        if (c == 0) continue;
        const double y = c * (0.5 + g.uniform());
        c = whole ? std::round(y) : round_two_figures(y);
      }
      drawn[name] = x;
    }
    Exercise trial = e;
    for (AnswerPart& p : trial.parts)
      for (auto& [name, x] : drawn)
        if (p.inputs.count(name)) p.inputs[name] = x;
    if (draw_accepted(trial)) {
      v = trial;
      break;
    }
  }
  for (AnswerPart& p : v.parts)
    if (p.kind == "choice") shuffle_options(p, g);
  v.question = render_question(e.question_template, v.parts, e.file);
  return v;
}

namespace {

// The shortest round-trip decimal, written without an exponent between 1e-6 and 1e9 (0.0008, not 8e-04).
std::string shortest(double x) {
  if (x == 0) x = 0;  // no "-0"
  const double a = std::abs(x);
  return a == 0 || (a >= 1e-6 && a < 1e9) ? shortest_fixed(x) : shortest_general(x);
}

}  // namespace

std::string render_question(const std::string& t, const std::vector<AnswerPart>& parts, const std::string& file) {
  std::string out;
  std::size_t i = 0;
  while (i < t.size()) {
    const std::size_t open = t.find('{', i);
    if (open == std::string::npos) {
      out += t.substr(i);
      break;
    }
    const std::size_t close = t.find('}', open);
    if (close == std::string::npos) throw std::runtime_error(one_line(file + ": question slot '{' without '}'"));
    out += t.substr(i, open - i);
    std::string slot = t.substr(open + 1, close - open - 1);
    int index = -1;
    const std::size_t bracket = slot.find('[');
    if (bracket != std::string::npos) {
      index = std::atoi(slot.c_str() + bracket + 1);
      slot = slot.substr(0, bracket);
    }
    const std::vector<double>* value = nullptr;
    for (const AnswerPart& p : parts)
      if (auto it = p.inputs.find(slot); it != p.inputs.end()) {
        value = &it->second;
        break;
      }
    if (!value) throw std::runtime_error(one_line(file + ": question slot {" + slot + "} names no input of the exercise's parts"));
    if (index >= int(value->size())) throw std::runtime_error(one_line(file + ": question slot {" + slot + "[" + std::to_string(index) + "]} is past the input's components"));
    if (index >= 0) {
      out += shortest((*value)[std::size_t(index)]);
    } else if (value->size() == 1) {
      out += shortest((*value)[0]);
    } else {
      out += '(';
      for (std::size_t k = 0; k < value->size(); ++k) out += (k ? ", " : "") + shortest((*value)[k]);
      out += ')';
    }
    i = close + 1;
  }
  return out;
}

}  // namespace impulse::course
