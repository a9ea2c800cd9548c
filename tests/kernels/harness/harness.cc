#include "harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "frames.h"
#include "test_util.h"

namespace daedalus::harness {
namespace {

using test::bit_depth_of;

// One frame of a pass: its format, size, row paddings (source and
// output), content and settings.
struct Trial {
  const char* pass;
  PixelFormat format;
  int w, h;
  int src_pad, dst_pad;
  const Content* content;
  const Setting* setting;
};

std::string describe(const Trial& t, const std::string& subject) {
  return subject + ", pass " + t.pass + ": " +
         std::string(pixel_format_name(t.format)) + " " + std::to_string(t.w) +
         "x" + std::to_string(t.h) + " padding " + std::to_string(t.src_pad) +
         "/" + std::to_string(t.dst_pad) + ", " + t.content->name +
         " content, " + t.setting->text +
         " (DAEDALUS_TEST_SEED=" + std::to_string(test::seed()) + ")";
}

// Frames that split into many bands (ThreadSanitizer: a quarter of full HD
// each way, a sixteenth of the work).
constexpr int kLargeW = test::kThreadSanitizer ? 480 : 1920;
constexpr int kLargeH = test::kThreadSanitizer ? 270 : 1080;

class Runner {
 public:
  Runner(const Case& c, const std::vector<Subject>& subjects,
         const Passes& passes)
      : case_(c),
        subjects_(subjects),
        passes_(passes),
        scalar_(make_backend(BackendKind::Scalar)) {}

  // Compares every subject with the reference on one frame; false at the
  // first failure.
  bool run(const Trial& t, std::mt19937& gen) {
    if (!backend_computes(BackendKind::Scalar, case_.kernel,
                          bit_depth_of(t.format)))
      return true;
    Image src(t.format, t.w, t.h, t.src_pad);
    t.content->fill(src, gen);
    test::set_outside_bits(src, gen);
    const Image before = src;
    const FrameJob& job = t.setting->job;
    // Every output starts as the same bytes: the source in place, else
    // random samples (and bits outside them) with guard bytes in the
    // padding. An output whose bytes all equal the reference's is right;
    // only one that is not is looked at sample by sample.
    Image start = src;
    if (!job.in_place) {
      start = Image(t.format, t.w, t.h, t.dst_pad);
      test::fill_random(start, gen);
      test::set_outside_bits(start, gen);
    }
    Image want = start;
    expect_ok(run_job(*scalar_, job, want, src));
    if (!test::guards_intact(want))
      return fail(t, "the reference", "bytes outside its samples written");
    frames_++;
    changed_ += !want.same_samples(src);
    for (const Subject& s : subjects_) {
      if (!backend_computes(s.backend->kind(), case_.kernel,
                            bit_depth_of(t.format)))
        continue;
      for (int run = 0; run < passes_.runs_per_frame; run++) {
        if (s.before_frame) s.before_frame(n_++);
        Image got = start;
        expect_ok(run_job(*s.backend, job, got, src));
        if (::testing::Test::HasFailure()) return fail(t, s.name, "");
        if (src.bytes() != before.bytes())
          return fail(t, s.name, "the source changed");
        if (got.bytes() == want.bytes()) continue;
        const std::string diff = test::first_difference(want, got);
        return fail(
            t, s.name,
            diff.empty() ? "bytes outside the output's samples written" : diff);
      }
    }
    return true;
  }

  // The same with the source's and the output's rows each against an
  // inaccessible page, on `side`: a read or write beyond a row faults.
  bool run_guarded(const Trial& t, test::GuardSide side, std::mt19937& gen) {
    if (!backend_computes(BackendKind::Scalar, case_.kernel,
                          bit_depth_of(t.format)))
      return true;
    Image src(t.format, t.w, t.h);
    t.content->fill(src, gen);
    test::set_outside_bits(src, gen);
    const FrameJob& job = t.setting->job;
    Image want = src;
    if (!job.in_place) test::fill(want, [](int, int, int) { return 0; });
    {
      const test::GuardedFrame in(src, side), out(want, side);
      expect_ok(job.run(*scalar_, out.frame(),
                        job.in_place ? out.frame() : in.frame()));
      out.copy_to(want);
    }
    for (const Subject& s : subjects_) {
      if (!backend_computes(s.backend->kind(), case_.kernel,
                            bit_depth_of(t.format)))
        continue;
      if (s.before_frame) s.before_frame(n_++);
      Image got = src;
      if (!job.in_place) test::fill(got, [](int, int, int) { return 0; });
      const test::GuardedFrame in(src, side), out(got, side);
      expect_ok(job.run(*s.backend, out.frame(),
                        job.in_place ? out.frame() : in.frame()));
      out.copy_to(got);
      const std::string diff = test::first_difference(want, got);
      if (::testing::Test::HasFailure() || !diff.empty())
        return fail(t, s.name + ", guard pages", diff);
    }
    return true;
  }

  // The kernel must have changed most frames. Says what ran.
  void expect_engaged() const {
    std::string names;
    for (const Subject& s : subjects_)
      names += (names.empty() ? "" : ", ") + s.name;
    std::printf("%s: %d frames (%d changed by the kernel) on %s\n",
                case_.name.c_str(), frames_, changed_, names.c_str());
    EXPECT_GE(changed_, case_.min_changed * frames_)
        << changed_ << " of " << frames_ << " frames changed";
  }

 private:
  static void expect_ok(const Status& s) {
    if (!s) ADD_FAILURE() << s.message();
  }

  // `job` on `backend` into `dst`, from `src` or, in place, from `dst`.
  static Status run_job(Backend& backend, const FrameJob& job, Image& dst,
                        const Image& src) {
    return job.run(backend, dst.frame(),
                   job.in_place ? ConstFrame(dst.frame()) : src.frame());
  }

  static bool fail(const Trial& t, const std::string& subject,
                   const std::string& what) {
    ADD_FAILURE() << describe(t, subject) << (what.empty() ? "" : ": ") << what;
    return false;
  }

  const Case& case_;
  const std::vector<Subject>& subjects_;
  const Passes passes_;
  const std::unique_ptr<Backend> scalar_;
  int n_ = 0;  // frames handed to subjects, for before_frame
  int frames_ = 0, changed_ = 0;
};

// Every frame of a case's passes, one after the other; false at the first
// failure.
bool run_passes(const Case& c, Runner& runner, const Passes& passes,
                std::mt19937& gen) {
  const std::vector<PixelFormat> formats = test::all_pixel_formats();
  const std::vector<Content>& ordinary = ordinary_contents();
  // Half the frames get the kernel's typical content, the others each
  // ordinary content in turn.
  auto content = [&](int i) {
    return i % 2 ? &c.typical : &ordinary[(i / 2) % ordinary.size()];
  };
  auto pad = [&] { return test::random_padding(gen); };
  int i = 0;

  // Sizes: every format (or some in turn) at every fixed size and a few
  // random ones, random settings and paddings.
  const int sizes = int(std::size(kFixedSizes)) + kRandomSizes;
  const int per_size =
      passes.formats_per_size ? passes.formats_per_size : int(formats.size());
  for (int k = 0; k < sizes; k++) {
    const bool fixed = k < int(std::size(kFixedSizes));
    const int w = fixed ? kFixedSizes[k][0] : 1 + int(gen() % 300);
    const int h = fixed ? kFixedSizes[k][1] : 1 + int(gen() % 60);
    for (int f = 0; f < per_size; f++, i++) {
      const PixelFormat format = formats[(k * per_size + f) % formats.size()];
      const Setting setting = c.random(gen);
      if (!runner.run(
              {"sizes", format, w, h, pad(), pad(), content(i), &setting}, gen))
        return false;
    }
  }

  // Every value of every setting, formats and contents in turn, on small
  // frames of random sizes.
  const std::vector<Setting> settings =
      passes.every_value ? c.every_value(gen) : std::vector<Setting>{};
  for (size_t k = 0; k < settings.size(); k++, i++) {
    const int w = 8 + int(gen() % 41), h = 8 + int(gen() % 33);
    if (!runner.run({"every value", formats[k % formats.size()], w, h, pad(),
                     pad(), content(i), &settings[k]},
                    gen))
      return false;
  }

  // Every adversarial content on every format, the hardest settings in
  // turn.
  std::vector<Content> adversarial = adversarial_contents();
  adversarial.insert(adversarial.end(), c.adversarial.begin(),
                     c.adversarial.end());
  for (size_t f = 0; f < (passes.adversarial ? formats.size() : 0); f++)
    for (size_t a = 0; a < adversarial.size(); a++) {
      const Setting& setting = c.extremes[(f + a) % c.extremes.size()];
      if (!runner.run({"adversarial", formats[f], 23, 19, 1, 2, &adversarial[a],
                       &setting},
                      gen))
        return false;
    }

  // Content near a level: cheap to draw, and every kernel engages on it.
  for (PixelFormat format : passes.full_hd) {
    const Setting setting = c.random(gen);
    if (!runner.run(
            {"full HD", format, kLargeW, kLargeH, 0, 0, &ordinary[2], &setting},
            gen))
      return false;
  }

  if (passes.guard_pages)
    for (PixelFormat format : kGuardPageFormats)
      for (auto [w, h] : kGuardPageSizes)
        for (test::GuardSide side :
             {test::GuardSide::Before, test::GuardSide::After}) {
          const Setting setting = c.random(gen);
          if (!runner.run_guarded(
                  {"guard pages", format, w, h, 0, 0, content(i++), &setting},
                  side, gen))
            return false;
        }
  return true;
}

}  // namespace

std::unique_ptr<Backend> make_backend(BackendKind kind,
                                      const BackendOptions& options) {
  Result<std::unique_ptr<Backend>> backend = create_backend(kind, options);
  if (!backend) {
    ADD_FAILURE() << "no " << backend_name(kind)
                  << " backend: " << backend.status().message();
    return nullptr;
  }
  return std::move(backend).value();
}

void run_case(const Case& c, const std::vector<Subject>& subjects,
              const Passes& passes) {
  for (const Subject& s : subjects)
    if (!s.backend) return;  // make_backend said why
  std::mt19937 gen = test::rng(salt_of(c.name));
  Runner runner(c, subjects, passes);
  if (run_passes(c, runner, passes, gen)) runner.expect_engaged();
}

}  // namespace daedalus::harness
