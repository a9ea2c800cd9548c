// The shared bit-exactness harness, in the spirit of dav1d's checkasm: a
// table of kernel cases (cases.h), each drawn over the same random
// and adversarial contents (contents.h), sizes from 1x1 up, odd strides, guard
// bands and guard pages, with the run's seed printed ($DAEDALUS_TEST_SEED
// replays it), and every implementation under test compared bit for bit with
// the scalar reference, which runs once per frame. A new mode or bit depth is a
// table entry, not a new test file; known answers stay in each family's
// suites.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "contents.h"
#include "daedalus/backend.h"
#include "daedalus/backend_capability.h"
#include "daedalus/backend_choice.h"
#include "daedalus/image.h"

namespace daedalus::harness {

// One frame call with its settings, and the settings as text for a failure.
struct Setting {
  FrameJob job;
  std::string text;
};

using test::adversarial_contents;
using test::Content;
using test::ordinary_contents;

// One row of the table: a kernel (a family's mode) with its settings'
// generators.
struct Case {
  std::string name;  // the test's name: Cdef, DeblockH264, ...
  Kernel kernel;     // for the capability table (backend_computes)
  // Settings drawn over every field's whole range.
  std::function<Setting(std::mt19937&)> random;
  // Settings that between them take every field to every value it has (a
  // continuous one to its extremes and the edges where rounding changes),
  // the others drawn at random.
  std::function<std::vector<Setting>(std::mt19937&)> every_value;
  // Settings that drive the kernel hardest, for the adversarial contents.
  std::vector<Setting> extremes;
  // Adversarial contents of the kernel's own, besides the shared ones.
  std::vector<Content> adversarial = {};
  // The content the kernel engages on (e.g. blocks for deblocking), used
  // for half of the frames of the size and value passes.
  Content typical;
  // The least fraction of frames whose output must differ from the source:
  // a harness that compares copies proves nothing.
  double min_changed = 0.5;
};

// Every case of every family (cases.cc, from each <family>_cases.cc).
const std::vector<Case>& all_cases();

// An implementation under test: a backend (not owned), with a hook run
// before each frame (the hybrid backend's share turns with the frames).
struct Subject {
  std::string name;
  Backend* backend = nullptr;
  std::function<void(int frame)> before_frame;
};

// The only place the harness creates backends (so that a change of
// create_backend's signature touches one line): fails the test and returns
// null when `kind` cannot be created.
std::unique_ptr<Backend> make_backend(BackendKind kind,
                                      const BackendOptions& options = {});

// Which passes a group of subjects runs: every one by default (the SIMD
// targets); the groups whose frames cost more leave out what their split of
// the work does not change.
struct Passes {
  // Every format at every size; else each size on this many formats in turn.
  int formats_per_size = 0;
  bool every_value = true;  // every value of every setting
  bool adversarial = true;  // the adversarial contents
  bool guard_pages = true;  // rows against inaccessible pages
  // Formats of frames that split into many bands (full HD).
  std::vector<PixelFormat> full_hd = {};
  int runs_per_frame = 1;  // repeats (ThreadSanitizer: races are luck)
};

// Runs `c` on every subject, failing the current test at the first frame
// that differs from the reference, writes outside a frame's samples or
// changes the source.
void run_case(const Case& c, const std::vector<Subject>& subjects,
              const Passes& passes);

// A row for a DSP table entry that no backend runs (the damage
// estimator's step profiles and quantiser probe: every backend leaves the
// estimate to the CPU). Its subjects are the entries the table's init ladder
// fills while one Highway target is in force, run on every plane of the frames
// of the same passes (sizes, adversarial contents, guard pages), rows cut into
// the pieces threads might be handed, against the reference's entry on
// whole planes. The output is words (sums added to what `out` holds),
// compared between guard words.
struct DspCase {
  // Adds what an entry computes of rows [y_begin, y_end) of `plane` to
  // `out` (words(plane) of them).
  using Entry = std::function<void(const ConstPlane& plane, int y_begin,
                                   int y_end, uint32_t* out)>;
  std::string name;  // the test's name: DamageSteps, ...
  int bit_depth;     // of the formats it is drawn on (an entry per depth)
  std::function<size_t(const ConstPlane&)> words;
  std::function<Entry()> reference;  // the scalar table's entry
  // The init ladder's entry for the target in force; fails the test where
  // it is the reference's (the row would compare it with itself).
  std::function<Entry()> ladder;
  Content typical;  // half of the size pass's frames
  // Sizes at which the adversarial contents named run too, on a planar and
  // a semi-planar format (sums past what a narrow lane holds).
  std::vector<std::pair<int, int>> extreme_sizes = {};
  std::vector<std::string> extreme_contents = {};
  double min_changed = 0.5;  // planes whose sums must not all be 0
};

// Every DSP row (cases.cc, from each <family>_cases.cc that has one).
const std::vector<DspCase>& all_dsp_cases();

struct DspSubject {
  std::string name;
  DspCase::Entry entry;
};

// Runs `c` on every subject (dsp_runner.cc), failing the current test at
// the first frame where one differs from the reference, writes a guard
// word or changes the source.
void run_dsp_case(const DspCase& c, const std::vector<DspSubject>& subjects);

}  // namespace daedalus::harness
