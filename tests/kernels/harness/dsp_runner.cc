// The runner of DSP rows (harness.h, DspCase): the frames of the backends'
// passes, every plane of each measured by the reference's entry on whole
// planes and by every subject's, whole and in random row pieces, into
// words between guard words.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frames.h"
#include "harness.h"
#include "test_util.h"

namespace daedalus::harness {
namespace {

// Words on either side of an output, which no entry may write.
constexpr size_t kGuardWords = 4;
constexpr uint32_t kGuardWord = 0xA5A5A5A5u;

// An entry's output and the guard words around it.
class Words {
 public:
  explicit Words(size_t n) : all_(n + 2 * kGuardWords, kGuardWord) {}
  uint32_t* out() { return all_.data() + kGuardWords; }
  std::vector<uint32_t> values() const {
    return {all_.begin() + kGuardWords, all_.end() - kGuardWords};
  }
  bool guards_intact() const {
    for (size_t i = 0; i < kGuardWords; i++)
      if (all_[i] != kGuardWord || all_[all_.size() - 1 - i] != kGuardWord)
        return false;
    return true;
  }

 private:
  std::vector<uint32_t> all_;
};

class DspRunner {
 public:
  DspRunner(const DspCase& c, const std::vector<DspSubject>& subjects)
      : case_(c), subjects_(subjects), reference_(c.reference()) {}

  // Every plane of a frame of `format` and size, with `content` and row
  // padding `pad`, or with its rows against inaccessible pages on `side`
  // (`guarded`); false at the first failure.
  bool run(const char* pass, PixelFormat format, int w, int h, int pad,
           const Content& content, std::mt19937& gen, bool guarded = false,
           test::GuardSide side = test::GuardSide::Before) {
    Image src(format, w, h, pad);
    content.fill(src, gen);
    test::set_outside_bits(src, gen);
    const Image before = src;
    std::unique_ptr<test::GuardedFrame> pages;
    if (guarded) pages = std::make_unique<test::GuardedFrame>(src, side);
    const ConstFrame f = guarded ? ConstFrame(pages->frame()) : src.frame();
    // Whether the source's bytes are as they were.
    auto source_intact = [&] {
      if (!guarded) return src.bytes() == before.bytes();
      Image now = before;
      pages->copy_to(now);
      return now.bytes() == before.bytes();
    };
    for (int p = 0; p < f.num_planes; p++) {
      const ConstPlane& plane = f.planes[p];
      const std::string where =
          std::string(pass) + ": " + std::string(pixel_format_name(format)) +
          " " + std::to_string(w) + "x" + std::to_string(h) + " padding " +
          std::to_string(pad) + (guarded ? ", guard pages" : "") + ", " +
          content.name + " content, plane " + std::to_string(p);
      const size_t n = case_.words(plane);
      std::vector<uint32_t> start(n);
      for (uint32_t& v : start) v = gen() >> 8;  // room for the sums
      const std::optional<std::vector<uint32_t>> want =
          output(reference_, plane, {{0, plane.height}}, start);
      if (!want) return fail("the reference", where, guard_text);
      planes_++;
      changed_ += *want != start;
      for (const DspSubject& s : subjects_)
        for (bool whole : {true, false}) {
          const std::vector<std::pair<int, int>> pieces =
              whole ? std::vector<std::pair<int, int>>{{0, plane.height}}
                    : test::random_pieces(plane.height, gen);
          const std::optional<std::vector<uint32_t>> got =
              output(s.entry, plane, pieces, start);
          const std::string what =
              s.name + (whole ? ", whole plane" : ", rows in pieces");
          if (!got) return fail(what, where, guard_text);
          if (!source_intact()) return fail(what, where, "the source changed");
          if (*got != *want)
            return fail(what, where, first_difference(*want, *got));
        }
    }
    return true;
  }

  // Most planes must have sums: a row that adds nothing proves nothing.
  void expect_engaged() const {
    std::string names;
    for (const DspSubject& s : subjects_)
      names += (names.empty() ? "" : ", ") + s.name;
    std::printf("%s: %d planes (%d with sums) on %s\n", case_.name.c_str(),
                planes_, changed_, names.c_str());
    EXPECT_GE(changed_, case_.min_changed * planes_)
        << changed_ << " of " << planes_ << " planes with sums";
  }

 private:
  static constexpr const char* guard_text = "words outside the output written";

  // `entry` over `pieces` of `plane`'s rows, added to `start`; none when it
  // wrote a guard word.
  std::optional<std::vector<uint32_t>> output(
      const DspCase::Entry& entry, const ConstPlane& plane,
      const std::vector<std::pair<int, int>>& pieces,
      const std::vector<uint32_t>& start) const {
    Words words(start.size());
    std::copy(start.begin(), start.end(), words.out());
    for (auto [begin, end] : pieces) entry(plane, begin, end, words.out());
    if (!words.guards_intact()) return std::nullopt;
    return words.values();
  }

  static std::string first_difference(const std::vector<uint32_t>& want,
                                      const std::vector<uint32_t>& got) {
    size_t i = 0;
    while (i < want.size() && want[i] == got[i]) i++;
    return "word " + std::to_string(i) + " of " + std::to_string(want.size()) +
           ": expected " + std::to_string(want[i]) + ", got " +
           std::to_string(got[i]);
  }

  static bool fail(const std::string& subject, const std::string& where,
                   const std::string& what) {
    ADD_FAILURE() << subject << ", pass " << where << ": " << what
                  << " (DAEDALUS_TEST_SEED=" << test::seed() << ")";
    return false;
  }

  const DspCase& case_;
  const std::vector<DspSubject>& subjects_;
  const DspCase::Entry reference_;
  int planes_ = 0, changed_ = 0;
};

// The formats of a bit depth.
std::vector<PixelFormat> formats_of(int depth) {
  std::vector<PixelFormat> formats;
  for (PixelFormat format : test::all_pixel_formats())
    if (test::bit_depth_of(format) == depth) formats.push_back(format);
  return formats;
}

bool run_passes(const DspCase& c, DspRunner& runner, std::mt19937& gen) {
  const std::vector<PixelFormat> formats = formats_of(c.bit_depth);
  const std::vector<Content>& ordinary = ordinary_contents();
  auto content = [&](int i) -> const Content& {
    return i % 2 ? c.typical : ordinary[(i / 2) % ordinary.size()];
  };
  int i = 0;
  // Sizes: every format at every fixed size and a few random ones.
  const int sizes = int(std::size(kFixedSizes)) + kRandomSizes;
  for (int k = 0; k < sizes; k++) {
    const bool fixed = k < int(std::size(kFixedSizes));
    const int w = fixed ? kFixedSizes[k][0] : 1 + int(gen() % 300);
    const int h = fixed ? kFixedSizes[k][1] : 1 + int(gen() % 60);
    for (PixelFormat format : formats)
      if (!runner.run("sizes", format, w, h, test::random_padding(gen),
                      content(i++), gen))
        return false;
  }
  // Every adversarial content on every format; the extreme sizes' contents
  // on a planar and a semi-planar format.
  const PixelFormat planar =
      c.bit_depth == 8 ? PixelFormat::I420 : PixelFormat::I420_10LE;
  const PixelFormat semi =
      c.bit_depth == 8 ? PixelFormat::NV21 : PixelFormat::P010_10LE;
  for (const Content& a : adversarial_contents())
    for (PixelFormat format : formats)
      if (!runner.run("adversarial", format, 23, 19, 1, a, gen)) return false;
  for (const std::string& name : c.extreme_contents)
    for (auto [w, h] : c.extreme_sizes)
      for (PixelFormat format : {planar, semi})
        if (!runner.run("extreme sizes", format, w, h, 1,
                        test::content_named(name), gen))
          return false;
  // Rows against inaccessible pages: a read past a row faults.
  for (PixelFormat format : kGuardPageFormats) {
    if (test::bit_depth_of(format) != c.bit_depth) continue;
    for (auto [w, h] : kGuardPageSizes)
      for (test::GuardSide side :
           {test::GuardSide::Before, test::GuardSide::After})
        if (!runner.run("guard pages", format, w, h, 0, content(i++), gen, true,
                        side))
          return false;
  }
  return true;
}

}  // namespace

void run_dsp_case(const DspCase& c, const std::vector<DspSubject>& subjects) {
  std::mt19937 gen = test::rng(salt_of(c.name));
  DspRunner runner(c, subjects);
  if (run_passes(c, runner, gen)) runner.expect_engaged();
}

}  // namespace daedalus::harness
