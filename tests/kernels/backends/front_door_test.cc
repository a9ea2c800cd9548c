// The front door every backend shares (Backend::deblock, cdef, mc): each
// parameter out of range, just below and just above its range, is refused
// by every backend this build has (scalar, cpu, gpu, hybrid, and the gpu
// behind a FallbackBackend and behind the fault injection, which must not
// get to fail) with a message naming the field, its value and its range,
// and nothing of the frames is written; so is a cdef/mc destination whose
// planes differ from the source's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "daedalus/backend.h"
#include "daedalus/backend_fallback.h"
#include "daedalus/fault_injection.h"
#include "daedalus/image.h"
#include "test_util.h"

namespace daedalus {
namespace {

struct NamedBackend {
  std::string name;
  std::unique_ptr<Backend> backend;
  bool fails_every_call = false;  // what it lets in
};

// Every backend kind this build has, and the wrappers around the gpu
// backend. The scalar and cpu backends must be usable; the gpu and hybrid
// ones are left out, as the other gpu tests skip, where no Vulkan device is
// usable.
std::vector<NamedBackend> every_backend() {
  std::vector<NamedBackend> all;
  bool gpu_usable = false;
  for (BackendKind kind : kAllBackendKinds) {
    if (!backend_built(kind)) continue;
    // One thread: the door is the same for any count, and a pool's idle
    // workers crawl under qemu-user (the aarch64 run has this suite).
    Result<std::unique_ptr<Backend>> b = create_backend(kind, {.threads = 1});
    const bool needs_device =
        kind == BackendKind::Gpu || kind == BackendKind::Hybrid;
    if (!b && needs_device) {
      std::printf("front_door_test: no %s backend here: %s\n",
                  backend_name(kind).data(), b.status().message().c_str());
      continue;
    }
    EXPECT_TRUE(b) << b.status().message();
    if (kind == BackendKind::Gpu) gpu_usable = bool(b);
    if (b)
      all.push_back({std::string(backend_name(kind)), std::move(b).value()});
  }
  if (gpu_usable) {
    all.push_back({"fallback over gpu",
                   std::make_unique<FallbackBackend>(
                       create_backend(BackendKind::Gpu).value_or(nullptr),
                       BackendOptions{}, nullptr)});
    all.push_back(
        {"gpu failing every call",
         inject_gpu_fault(create_backend(BackendKind::Gpu).value_or(nullptr), 0,
                          "front_door_test"),
         true});
  }
  return all;
}

// A parameter set with one field out of range, and the message that names
// it.
template <class Params>
struct BadParams {
  Params params;
  std::string message;
};

// An integer field: its name, its range and how to set it.
template <class Params>
struct IntField {
  std::string name;
  int lo, hi;
  std::function<void(Params&, int)> set;
};

// For each of `fields`, `valid` with the field just below and just above
// its range, and the message "<what>: <field> <value> out of range lo..hi".
template <class Params>
std::vector<BadParams<Params>> outside(
    const std::string& what, const Params& valid,
    const std::vector<IntField<Params>>& fields) {
  std::vector<BadParams<Params>> bad;
  for (const IntField<Params>& f : fields)
    for (int v : {f.lo - 1, f.hi + 1}) {
      Params p = valid;
      f.set(p, v);
      bad.push_back({p, what + ": " + f.name + " " + std::to_string(v) +
                            " out of range " + std::to_string(f.lo) + ".." +
                            std::to_string(f.hi)});
    }
  return bad;
}

std::vector<BadParams<DeblockParams>> bad_deblock_params() {
  using F = IntField<DeblockParams>;
  std::vector<BadParams<DeblockParams>> bad = outside<DeblockParams>(
      "deblock", {},
      {
          F{"qp", 0, 51, [](auto& p, int v) { p.qp = v; }},
          F{"alpha_offset", -12, 12,
            [](auto& p, int v) { p.alpha_offset = v; }},
          F{"beta_offset", -12, 12, [](auto& p, int v) { p.beta_offset = v; }},
          F{"chroma_qp_offset", -51, 12,
            [](auto& p, int v) { p.chroma_qp_offset = v; }},
          F{"bs", 1, 4, [](auto& p, int v) { p.bs = v; }},
          F{"grid_x", 0, 15, [](auto& p, int v) { p.grid_x = v; }},
          F{"grid_y", 0, 15, [](auto& p, int v) { p.grid_y = v; }},
          F{"filter_level", 0, 63, [](auto& p, int v) { p.filter_level = v; }},
          F{"sharpness", 0, 7, [](auto& p, int v) { p.sharpness = v; }},
      });
  for (int size : {0, 5, 32})
    bad.push_back(
        {{.block_size = size},
         "deblock: block_size " + std::to_string(size) + " is not 4, 8 or 16"});
  for (int shifts : {0, 3, 128})
    bad.push_back({{.shifts = shifts},
                   "deblock: shifts " + std::to_string(shifts) +
                       " is not 1, 2, 4, 8, 16, 32 or 64"});
  bad.push_back({{.mode = static_cast<DeblockMode>(3)},
                 "deblock: mode 3 is not h264, vp9 or dct"});
  return bad;
}

std::vector<BadParams<CdefParams>> bad_cdef_params() {
  using F = IntField<CdefParams>;
  return outside<CdefParams>(
      "CDEF", {},
      {
          F{"pri_strength", 0, 15, [](auto& p, int v) { p.pri_strength = v; }},
          F{"sec_strength", 0, 4, [](auto& p, int v) { p.sec_strength = v; }},
          F{"uv_pri_strength", 0, 15,
            [](auto& p, int v) { p.uv_pri_strength = v; }},
          F{"uv_sec_strength", 0, 4,
            [](auto& p, int v) { p.uv_sec_strength = v; }},
          F{"damping", 3, 6, [](auto& p, int v) { p.damping = v; }},
      });
}

std::vector<BadParams<McParams>> bad_mc_params() {
  std::vector<BadParams<McParams>> bad;
  for (const char* axis : {"dx", "dy"})
    for (double v : {-4096.5, 4097.0, double(NAN)}) {
      McParams p;
      (axis[1] == 'x' ? p.dx : p.dy) = v;
      const std::string value =
          std::isnan(v) ? "nan" : (v < 0 ? "-4096.5" : "4097");
      bad.push_back({p, std::string("MC: ") + axis + " " + value +
                            " out of range -4096..4096"});
    }
  for (int filter : {-1, 4})
    bad.push_back({{.filter = static_cast<McFilter>(filter)},
                   "MC: filter " + std::to_string(filter) +
                       " is not regular, sharp, smooth or bilinear"});
  return bad;
}

// Random frames with padding: what a refused call must leave as it was.
struct Frames {
  Image src, dst;
  explicit Frames(std::mt19937& gen, int dst_width = 24)
      : src(PixelFormat::I420, 24, 16, 3),
        dst(PixelFormat::I420, dst_width, 16, 3) {
    test::fill_random(src, gen);
    test::fill_random(dst, gen);
  }
};

// Runs `call` for every bad parameter set on every backend: refused with
// its message, the frames untouched.
template <class Params>
void expect_refused(
    const std::vector<BadParams<Params>>& bad,
    const std::function<Status(Backend&, Frames&, const Params&)>& call) {
  std::mt19937 gen = test::rng(17);
  for (NamedBackend& b : every_backend())
    for (const BadParams<Params>& p : bad) {
      SCOPED_TRACE(b.name + ": " + p.message);
      Frames frames(gen);
      const Frames before = frames;
      const Status s = call(*b.backend, frames, p.params);
      EXPECT_FALSE(s);
      EXPECT_EQ(s.message(), p.message);
      EXPECT_FALSE(s.is_gpu_lost());
      EXPECT_EQ(frames.src.bytes(), before.src.bytes());
      EXPECT_EQ(frames.dst.bytes(), before.dst.bytes());
    }
}

TEST(FrontDoor, DeblockRefusesEachFieldOutOfRangeByName) {
  expect_refused<DeblockParams>(
      bad_deblock_params(), [](Backend& b, Frames& f, const DeblockParams& p) {
        return b.deblock(f.dst.frame(), p);
      });
}

TEST(FrontDoor, CdefRefusesEachFieldOutOfRangeByName) {
  expect_refused<CdefParams>(bad_cdef_params(),
                             [](Backend& b, Frames& f, const CdefParams& p) {
                               return b.cdef(f.dst.frame(), f.src.frame(), p);
                             });
}

TEST(FrontDoor, McRefusesEachFieldOutOfRangeByName) {
  expect_refused<McParams>(bad_mc_params(),
                           [](Backend& b, Frames& f, const McParams& p) {
                             return b.mc(f.dst.frame(), f.src.frame(), p);
                           });
}

// The checks let valid parameters through: the same frames filtered with
// the defaults change (so that the refusals above are the checks', not a
// backend that writes nothing).
TEST(FrontDoor, ValidParametersGetThrough) {
  std::mt19937 gen = test::rng(18);
  for (NamedBackend& b : every_backend()) {
    SCOPED_TRACE(b.name);
    if (b.fails_every_call) continue;
    Frames f(gen);
    const Frames before = f;
    ASSERT_TRUE(b.backend->mc(f.dst.frame(), f.src.frame(), {0.5, 0.0}));
    EXPECT_NE(f.dst.bytes(), before.dst.bytes());
  }
}

// cdef and mc refuse a destination of another size on every backend,
// writing nothing.
TEST(FrontDoor, CdefAndMcRefuseADestinationOfAnotherSize) {
  std::mt19937 gen = test::rng(19);
  const std::string message =
      "the destination frame's planes differ in number, size or sample "
      "layout from the source frame's";
  for (NamedBackend& b : every_backend()) {
    SCOPED_TRACE(b.name);
    Frames f(gen, 26);
    const Frames before = f;
    EXPECT_EQ(b.backend->cdef(f.dst.frame(), f.src.frame(), {}).message(),
              message);
    EXPECT_EQ(b.backend->mc(f.dst.frame(), f.src.frame(), {}).message(),
              message);
    EXPECT_EQ(f.dst.bytes(), before.dst.bytes());
  }
}

}  // namespace
}  // namespace daedalus
