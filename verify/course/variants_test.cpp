// One student's variant (lib/course/variants.h): the specified draw against published test vectors,
// the rounding, and the variant's key computed by the engine on the drawn numbers inside the domains.
#include <gtest/gtest.h>

#include <charconv>
#include <set>

#include "course/registry.h"
#include "course/variants.h"

using namespace impulse::course;

// FNV-1a 64 test vectors of its authors (Fowler, Noll, Vo: "a" and "foobar"; "" is the offset basis).
TEST(CourseVariants, GoldenFnv1aTestVectors) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
}

// SplitMix64 seeded with 1234567: the first five outputs of Vigna's reference splitmix64.c.
TEST(CourseVariants, GoldenSplitMix64ReferenceOutputs) {
  SplitMix64 g{1234567};
  const std::uint64_t want[] = {6457827717110365317ull, 3203168211198807973ull, 9817491932198370423ull,
                                4593380528125082431ull, 16408922859458223821ull};
  for (std::uint64_t w : want) EXPECT_EQ(g.next(), w);
}

TEST(CourseVariants, UniformIsTheTop53Bits) {
  SplitMix64 a{42}, b{42};
  for (int i = 0; i < 100; ++i) {
    const double u = a.uniform();
    EXPECT_EQ(u, double(b.next() >> 11) / 9007199254740992.0);
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
}

TEST(CourseVariants, RoundsToTwoSignificantFiguresHalfAwayFromZero) {
  EXPECT_EQ(round_two_figures(0.0012345), 0.0012);
  EXPECT_EQ(round_two_figures(-0.00235), -0.0024);  // 0.00235 is 0.002350000000000000005 in binary
  EXPECT_EQ(round_two_figures(2.45), 2.5);          // 2.45 is 2.4500000000000001776 in binary
  EXPECT_EQ(round_two_figures(1234.0), 1200.0);
  EXPECT_EQ(round_two_figures(0.95), 0.95);
  EXPECT_EQ(round_two_figures(9.96), 10.0);
  EXPECT_EQ(round_two_figures(0.0), 0.0);
}

TEST(CourseVariants, SameSeedSameNumbersOtherSeedOtherNumbers) {
  const Exercise& e = *find_exercise("E3.10-ex2-xpbd-normal");
  const Exercise a = make_variant(e, "alice"), a2 = make_variant(e, "alice"), b = make_variant(e, "bob");
  EXPECT_EQ(a.parts[0].inputs, a2.parts[0].inputs);
  EXPECT_EQ(a.question, a2.question);
  EXPECT_NE(a.parts[0].inputs, b.parts[0].inputs);
  // every part reads the same drawn numbers, and the question prints them
  EXPECT_EQ(a.parts[0].inputs, a.parts[1].inputs);
  EXPECT_NE(a.question.find("h = 0.0008 s"), std::string::npos) << a.question;  // alice draws h = 0.0008 (variants_check.py)
}

// Over 200 seeds: drawn values inside [0.5, 1.5] x the course's number, 2 figures, inside the
// calculator's domains, and the variant's key is the calculator's output on the drawn inputs.
TEST(CourseVariants, DrawsStayAroundTheCourseAndInsideTheDomains) {
  for (const Exercise& e : exercises()) {
    if (!has_numeric_variant(e)) continue;
    std::set<std::vector<double>> keys;
    for (int s = 0; s < 200; ++s) {
      const Exercise v = make_variant(e, "student-" + std::to_string(s));
      for (std::size_t k = 0; k < v.parts.size(); ++k) {
        const AnswerPart& p = v.parts[k];
        if (p.kind != "number") continue;
        for (const std::string& name : e.vary) {
          if (!p.inputs.count(name)) continue;
          const auto& x = p.inputs.at(name);
          const auto& x0 = e.parts[k].inputs.at(name);
          for (std::size_t c = 0; c < x.size(); ++c) {
            if (x0[c] == 0) {
              EXPECT_EQ(x[c], 0.0);
              continue;
            }
            EXPECT_GE(x[c] / x0[c], 0.5 - 0.05) << e.id << " " << name;
            EXPECT_LE(x[c] / x0[c], 1.5 + 0.05) << e.id << " " << name;
            EXPECT_EQ(round_two_figures(x[c]), x[c]) << e.id << " " << name;
          }
        }
        const Item* it = registry().find(p.formula);
        const std::vector<double> key = answer_key(p);
        EXPECT_EQ(key, evaluate(*it, p.inputs).at(p.output));
        if (k == 0) keys.insert(key);
      }
    }
    bool course_zero = true;  // E3.10-ex4: a record inside the gap gives 0 for every draw
    for (double c : e.parts[0].course) course_zero = course_zero && c == 0;
    // E1.11-ex2 draws one scale s in 1.1..3.0: 20 values
    if (!course_zero) EXPECT_GE(keys.size(), 15u) << e.id << ": the seeds should give many different keys";
  }
}

TEST(CourseVariants, ShuffledOptionsKeepTheCorrectStatement) {
  const Exercise& e = *find_exercise("E1.11-ex1");
  const AnswerPart& c0 = e.parts[2];
  std::string right;
  for (const std::string& o : c0.options)
    if (option_label(o) == c0.correct) right = o.substr(o.find(')') + 1);
  std::set<std::string> labels;
  for (int s = 0; s < 30; ++s) {
    const Exercise v = make_variant(e, std::to_string(s));
    const AnswerPart& c = v.parts[2];
    ASSERT_EQ(c.options.size(), c0.options.size());
    for (const std::string& o : c.options)
      if (option_label(o) == c.correct) EXPECT_EQ(o.substr(o.find(')') + 1), right);
    labels.insert(c.correct);
  }
  EXPECT_EQ(labels.size(), c0.options.size()) << "the right statement should move between labels";
}

TEST(CourseVariants, CourseQuestionRendersTheCourseNumbers) {
  const Exercise& e = *find_exercise("E3.10-ex2-xpbd-normal");
  EXPECT_NE(e.question.find("gap d = -0.002 m, step h = 0.001 s, inverse effective mass w = 2 1/kg"), std::string::npos);
  EXPECT_THROW(render_question("x = {nothing}", e.parts, "t.toml"), std::runtime_error);
}

static std::string shortest(double x) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

// Every typical mistake, made on 50 students' variants (its inputs or output through the part's
// calculator), is graded wrong and named: the report can count it for every seed.
TEST(CourseVariants, EveryMistakeIsRecognisedOnEveryVariant) {
  int made = 0;
  for (const Exercise& e : exercises())
    for (int s = 0; s < 50; ++s) {
      const Exercise v = make_variant(e, "m" + std::to_string(s));
      std::vector<std::vector<std::string>> right;
      for (const AnswerPart& p : v.parts) {
        std::vector<std::string> t;
        if (p.kind == "choice") t.push_back(p.correct);
        else
          for (double x : answer_key(p)) t.push_back(shortest(x));
        right.push_back(t);
      }
      for (std::size_t k = 0; k < v.parts.size(); ++k)
        for (std::size_t mi = 0; mi < v.parts[k].mistakes.size(); ++mi) {
          const AnswerPart& p = v.parts[k];
          const std::vector<double> wrong = mistake_value(p, p.mistakes[mi]);
          std::vector<std::string> tokens;
          for (std::size_t j = 0; j < v.parts.size(); ++j)
            if (j == k)
              for (double x : wrong) tokens.push_back(shortest(x));
            else tokens.insert(tokens.end(), right[j].begin(), right[j].end());
          const Grade g = grade(v, tokens);
          EXPECT_FALSE(g.parts[k].correct) << e.id << " " << p.name << " mistake " << mi << " seed m" << s;
          EXPECT_EQ(g.parts[k].mistake, int(mi)) << e.id << " " << p.name << " seed m" << s;
          ++made;
        }
    }
  EXPECT_GT(made, 500);
}
