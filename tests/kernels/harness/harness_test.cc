// The harness's tests: a test per case of the table and group of
// implementations, named <group>.<case>, run by a suite each (meson.build):
//   HarnessSimd: the cpu backend on one thread, once per Highway target this
//     build compiles and this CPU supports (the DSP init ladders pick exactly
//     that target while the backend is created), and a second time without
//     the intrinsic islands where the case's kernel has some on the target
//     that this CPU runs (AVX3's CDEF byte filters, MC dot products and
//     mode=dct VNNI rows), so that the Highway code a CPU without them runs
//     is walked too; and each DSP row's entry as the ladder fills it for
//     each of those targets;
//   HarnessThreads: the cpu backend split across pools of several threads;
//   HarnessGpu: the gpu and hybrid backends, on whatever Vulkan device the
//     machine has (skipped where it has none).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "harness.h"
#include "test_util.h"

#if DAEDALUS_TEST_SIMD
#include <hwy/targets.h>

#include "daedalus/cdef.h"
#include "daedalus/deblock.h"
#include "daedalus/mc.h"
#endif
#if DAEDALUS_TEST_VULKAN
#include "daedalus/backend_hybrid.h"
#include "gpu_test_util.h"
#endif

namespace daedalus::harness {
namespace {

// HarnessSimd's fixture: its backend rows and its DSP rows are one test
// suite, which GoogleTest wants of one fixture class.
class SimdSuite : public ::testing::Test {};

#if DAEDALUS_TEST_SIMD
// Restricts Highway to `target`, so that the init ladders pick exactly it,
// plus AVX3_DL's feature bit on AVX3 where the CPU has it and this build
// compiles no AVX3_DL code: mode=dct's VNNI rows go by that bit
// (deblock_dct_simd.cc), which the AVX3 target alone lacks. `supported`:
// hwy::SupportedTargets() before any restriction.
void restrict_to(int64_t target, int64_t supported) {
  const int64_t feature_bits =
      target == HWY_AVX3 ? supported & HWY_AVX3_DL & ~HWY_TARGETS : 0;
  hwy::SetSupportedTargetsForTest(target | feature_bits);
}

// Whether the init ladders fill an entry `kernel` runs differently with the
// islands allowed than without, for the targets in force.
bool has_islands(Kernel kernel) {
  DeblockDsp deblock[2] = {};
  CdefDsp cdef[2] = {};
  McDsp mc[2] = {};
  for (int i : {0, 1}) {
    deblock_dsp_init(&deblock[i], i == 0);
    cdef_dsp_init(&cdef[i], i == 0);
    mc_dsp_init(&mc[i], i == 0);
  }
  const DeblockDsp &with = deblock[0], &without = deblock[1];
  switch (kernel) {
    case Kernel::DeblockH264:
    case Kernel::DeblockVp9:
      return with.vertical_edges != without.vertical_edges ||
             with.horizontal_edges != without.horizontal_edges ||
             with.vertical_edges_hbd != without.vertical_edges_hbd ||
             with.horizontal_edges_hbd != without.horizontal_edges_hbd;
    case Kernel::DeblockDct:
      return with.dct_rows != without.dct_rows ||
             with.dct_rows_hbd != without.dct_rows_hbd;
    case Kernel::Cdef:
      return std::memcmp(&cdef[0], &cdef[1], sizeof cdef[0]) != 0;
    case Kernel::Mc:
      return std::memcmp(&mc[0], &mc[1], sizeof mc[0]) != 0;
  }
  return false;
}
#endif

class SimdGroup : public SimdSuite {
 public:
  explicit SimdGroup(const Case& c) : case_(c) {}

  void TestBody() override {
    std::vector<std::unique_ptr<Backend>> backends;
    std::vector<Subject> subjects;
#if DAEDALUS_TEST_SIMD
    const int64_t supported = hwy::SupportedTargets();
    for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
      restrict_to(target, supported);
      const std::string name = hwy::TargetName(target);
      backends.push_back(make_backend(BackendKind::Cpu, {.threads = 1}));
      subjects.push_back({name, backends.back().get(), {}});
      if (!has_islands(case_.kernel)) continue;
      backends.push_back(make_backend(BackendKind::Cpu,
                                      {.threads = 1, .simd_islands = false}));
      subjects.push_back(
          {name + " without islands", backends.back().get(), {}});
    }
    hwy::SetSupportedTargetsForTest(0);
    run_case(case_, subjects, {});
#else
    GTEST_SKIP() << "a build without SIMD has no cpu backend";
#endif
  }

 private:
  const Case& case_;
};

class DspSimdGroup : public SimdSuite {
 public:
  explicit DspSimdGroup(const DspCase& c) : case_(c) {}

  void TestBody() override {
#if DAEDALUS_TEST_SIMD
    std::vector<DspSubject> subjects;
    const int64_t supported = hwy::SupportedTargets();
    for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
      restrict_to(target, supported);
      subjects.push_back({hwy::TargetName(target), case_.ladder()});
    }
    hwy::SetSupportedTargetsForTest(0);
    run_dsp_case(case_, subjects);
#else
    GTEST_SKIP() << "a build without SIMD has only the reference";
#endif
  }

 private:
  const DspCase& case_;
};

class ThreadsGroup : public ::testing::Test {
 public:
  explicit ThreadsGroup(const Case& c) : case_(c) {}

  void TestBody() override {
    if (!backend_built(BackendKind::Cpu))
      GTEST_SKIP() << "a build without SIMD has no cpu backend";
    // Under ThreadSanitizer only pools with workers to race, 2 to 4
    // threads (8 on a CI machine's few cores mostly wait), each frame
    // several times: a race shows only when two threads happen to take
    // bands that share bytes.
    const std::vector<int> counts = test::kThreadSanitizer
                                        ? std::vector<int>{2, 3, 4}
                                        : std::vector<int>{2, 3, 4, 8};
    std::vector<std::unique_ptr<Backend>> backends;
    std::vector<Subject> subjects;
    for (int threads : counts) {
      backends.push_back(make_backend(BackendKind::Cpu, {.threads = threads}));
      subjects.push_back(
          {"cpu x" + std::to_string(threads), backends.back().get(), {}});
    }
    // The split changes nothing within a band: sizes, guard pages and
    // frames of many bands; under ThreadSanitizer each size on a few
    // formats in turn (every access costs several times more).
    run_case(case_, subjects,
             {.formats_per_size = test::kThreadSanitizer ? 3 : 0,
              .every_value = false,
              .adversarial = false,
              // A planar and a semi-planar format of each depth.
              .full_hd = {PixelFormat::I420, PixelFormat::NV12,
                          PixelFormat::I420_10LE, PixelFormat::P010_10LE},
              .runs_per_frame = test::kThreadSanitizer ? 4 : 1});
  }

 private:
  const Case& case_;
};

#if DAEDALUS_TEST_VULKAN
class GpuGroup : public test::GpuTest {
 public:
  explicit GpuGroup(const Case& c) : case_(c) {}

  void TestBody() override {
    // The hybrid backend's share turns with the frames: everything on the
    // CPU or the GPU, and band edges mid-plane (odd rows, mid block rows,
    // deblock's column split, mode=dct's blocks across the edge).
    // A build without SIMD has no hybrid backend (its CPU side is the cpu
    // backend).
    std::vector<Subject> subjects = {{"gpu", gpu, {}}};
    std::unique_ptr<Backend> hybrid;
    if (backend_built(BackendKind::Hybrid)) {
      hybrid = make_backend(BackendKind::Hybrid, {.threads = 3});
      auto* h = dynamic_cast<HybridBackend*>(hybrid.get());
      subjects.push_back(
          {"hybrid", hybrid.get(), [h](int frame) {
             constexpr double kShares[] = {0.0, 1.0, 0.5, 0.37, 0.77};
             h->set_gpu_share(kShares[frame % 5]);
           }});
    }
    // Each size on a few formats in turn (a dispatch costs more than a
    // frame on the CPU).
    // A format of each depth at full HD, semi-planar at 10 bits.
    run_case(case_, subjects,
             {.formats_per_size = 3,
              .full_hd = {PixelFormat::I420, PixelFormat::P010_10LE}});
  }

 private:
  const Case& case_;
};
#endif

// A test per row of `rows` in `suite`, of fixture class `Fixture`.
template <class Group, class Fixture = Group, class Row>
void register_group(const char* suite, const std::vector<Row>& rows) {
  for (const Row& c : rows)
    ::testing::RegisterTest(suite, c.name.c_str(), nullptr, nullptr, __FILE__,
                            __LINE__,
                            [&c]() -> Fixture* { return new Group(c); });
}

const bool registered = [] {
  register_group<SimdGroup, SimdSuite>("HarnessSimd", all_cases());
  register_group<DspSimdGroup, SimdSuite>("HarnessSimd", all_dsp_cases());
  register_group<ThreadsGroup>("HarnessThreads", all_cases());
#if DAEDALUS_TEST_VULKAN
  register_group<GpuGroup>("HarnessGpu", all_cases());
#endif
  return true;
}();

}  // namespace
}  // namespace daedalus::harness
