// The shared bit-exactness harness, in the spirit of dav1d's checkasm: a
// table of kernel cases (harness_cases.h), each drawn over the same random
// and adversarial contents, sizes from 1x1 up, odd strides, guard bands and
// guard pages, with the run's seed printed ($DAEDALUS_TEST_SEED replays
// it), and every implementation under test compared bit for bit with the
// scalar reference, which runs once per frame. A new mode or bit depth is a
// table entry, not a new test file; known answers stay in each family's
// suites.
#pragma once

#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

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

// Fills a source image: `fill` writes values of the image's bit depth.
struct Content {
  std::string name;
  std::function<void(Image&, std::mt19937&)> fill;
};

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

// Every case of every family (harness_cases.cc).
const std::vector<Case>& all_cases();

// The shared contents: random, flat, near a level (thresholds), blocky, a
// textured gradient; and the adversarial ones (0, the maximum,
// checkerboards, stripes, random 0 or maximum, the two lowest and the two
// highest values).
const std::vector<Content>& ordinary_contents();
const std::vector<Content>& adversarial_contents();

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

}  // namespace daedalus::harness
