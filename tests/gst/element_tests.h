// The checks every daedalus element must pass, driven by a description of
// the element.
#pragma once

#include <functional>
#include <vector>

#include "daedalus/backend_capability.h"
#include "test_util.h"

namespace daedalus::gsttest {

// One numeric property as docs/spec.md fixes it.
struct NumericProperty {
  const char* name;
  double min, max, def;
  bool controllable;
};

// One enum property: its nicks in value order, its default nick, and integer
// values that are not among them.
struct EnumProperty {
  const char* name;
  std::vector<const char*> nicks;
  const char* def;
  std::vector<int> invalid;
};

// A property driven by a control source: at stream times 0 s, 1 s and 2 s it
// takes values[0..2]; values[0] must make the element a no-op.
struct ControlledProperty {
  const char* name;
  const char* fixed;  // the other settings, "name=value ..."
  double values[3];
  std::function<Reference(double)> reference;
};

// Settings on one side of the element's passthrough decision: on `format`
// buffers the element passes through exactly when `noop`, and its output is
// the library's with the same settings (`reference`) either way.
struct NoopCase {
  const char* props;
  const char* format;
  bool noop;
  Reference reference;
};

struct ElementSpec {
  const char* factory;
  bool in_place;
  // Non-default settings that change the picture, and the library call with
  // the same settings.
  const char* params;
  Reference reference;
  // Settings that make the element a no-op.
  const char* noop_params;
  std::vector<NumericProperty> numeric;
  std::vector<EnumProperty> enums;
  ControlledProperty controlled;
  // Each side of the passthrough decision, at its boundaries.
  std::vector<NoopCase> noop_cases;
  // Refuses interlaced caps (else filters each field on its own).
  bool progressive_only = false;
  // Has a Vulkan kernel: false leaves out the checks of GPU behaviour
  // (zero-copy frames, the buffer pool, the trial's GPU timing); the gpu and
  // hybrid backends must still give the reference's output (common).
  bool gpu_kernel = true;
  // What `params` run: the capability table (backend_computes) says which
  // backends must give the reference's output on 10-bit video and which
  // must refuse it.
  Kernel kernel = Kernel::DeblockH264;
};

// The common checks of `spec`, which must outlive them, in two suites: the
// checks that need a process each (`isolated`: the gpu backend's failures
// and auto's cache file, which GLib and the element resolve once per
// process, and the fallback that stays for the process) and the others
// (`shared`), which run one after another in one process. A forked check
// costs a process that loads the Vulkan driver again (lavapipe and LLVM:
// most of an element suite's CPU time on CI's machine). Each element's test
// adds its own cases to `shared`.
struct ElementSuites {
  Suite* isolated;
  Suite* shared;
};
ElementSuites element_suites(const ElementSpec* spec);

// The checks of `spec` on the gpu backend (part of element_suites()).
TCase* gpu_tcase(const ElementSpec* spec);

// Interlaced caps (part of element_suites()).
TCase* interlace_tcase(const ElementSpec* spec);

// 10-bit video (part of element_suites()).
TCase* tenbit_tcase(const ElementSpec* spec);

// A buffer too small for its caps (part of element_suites()).
TCase* short_buffer_tcase(const ElementSpec* spec);

// The checks of backend=auto's choice (part of element_suites()).
TCase* auto_tcase(const ElementSpec* spec);

// Runs `make_suite()`'s checks one after another in this process, in a
// registry holding only the plugin under test.
int run_suite(int argc, char** argv, Suite* (*make_suite)());

// Runs element_suites(&spec) so (the isolated suite first, each check in a
// process of its own, then the shared one in this process), with the
// element's own tests, which `add_tests` (when given) adds to a test case
// named `tcase` of the shared suite.
int run_element_suite(int argc, char** argv, const ElementSpec& spec,
                      const char* tcase = nullptr,
                      void (*add_tests)(TCase*) = nullptr);

}  // namespace daedalus::gsttest
